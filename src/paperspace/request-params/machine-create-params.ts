// The create parameters of a machine, and the rules that depend on the template it is created from
// (the contract's Windows/Ubuntu type rules, or v1's per-template catalog).
import { z } from 'zod';
import {
  acceptsDiskSize,
  BILLING_TYPES,
  diskSizesText,
  isCpuMachineType,
  isGridMachineType,
  MACHINE_TYPES,
  RESTORE_POINT_FREQUENCIES,
} from '../constants.js';
import type { Dialect } from '../dialect.js';
import {
  choice,
  flag,
  mustBe,
  oneOf,
  positiveWholeNumber,
  regionSchema,
  secretText,
  text,
} from './fields.js';

export const machineTypeSchema = choice(MACHINE_TYPES);

/**
 * A machine's disk size, one the dialect takes (acceptsDiskSize). Checked on the field, not in the
 * create's refinement, which zod runs only once every field is valid: a wrong size is reported in the
 * same round as the form's other errors. A size that is not a positive whole number already has its
 * one message, which is all v1 can refuse.
 */
const diskSizeSchema = (dialect: Dialect) =>
  positiveWholeNumber().refine(
    (size) => !Number.isInteger(size) || size < 1 || acceptsDiskSize(dialect, size),
    {
      error: (issue) =>
        `must be a disk size Paperspace offers: ${diskSizesText(dialect)} GB, not ${String(issue.input)}`,
    },
  );

/**
 * The contract's create parameters that v1's `POST /machines` has no field for (its OpenAPI requires
 * name, machineType, templateId, region and diskSize and lists the optional rest), with why, so a
 * person who types one learns what to do instead of having it dropped without a word.
 */
const NOT_IN_V1: Readonly<Record<string, string>> = {
  billingType: 'is not part of a Paperspace v1 create: leave it out',
  teamId: "is not part of a Paperspace v1 create: the machine is made in your API key's team",
  email: 'cannot be used: Paperspace v1 creates no users; invite them in the console',
  password: 'cannot be used: Paperspace v1 creates no users; invite them in the console',
  firstName: 'cannot be used: Paperspace v1 creates no users; invite them in the console',
  lastName: 'cannot be used: Paperspace v1 creates no users; invite them in the console',
  notificationEmail: 'is not part of a Paperspace v1 create: leave it out',
};

/**
 * Required by the contract, which offers one billing type: left out, it is that one, so nobody is asked
 * to choose from a single choice. v1 has no billing type (NOT_IN_V1 refuses one given). Typed optional
 * for both, since one parameter type serves both dialects: the contract's schema always sends one,
 * so the cast only widens what callers may omit.
 */
/** The contract's one billing type, what a create that names none is billed by. */
const ONLY_BILLING_TYPE = BILLING_TYPES[0];

const billingTypeSchema = (dialect: Dialect) => {
  const optional = choice(BILLING_TYPES).optional();
  return dialect === 'v1'
    ? optional
    : (choice(BILLING_TYPES).default(ONLY_BILLING_TYPE) as unknown as typeof optional);
};

/**
 * The create parameters with `machineType` checked by the given schema: the contract's fixed list, or
 * (a template that names its own catalog, v1) any label, checked against the template afterwards.
 */
const createParamsSchema = (machineType: z.ZodType<string, string>, dialect: Dialect) =>
  z
    .strictObject({
      region: regionSchema,
      machineType,
      size: diskSizeSchema(dialect),
      billingType: billingTypeSchema(dialect),
      machineName: text(),
      templateId: text(),
      teamId: text().optional(),
      assignPublicIp: flag().optional(),
      dynamicPublicIp: flag().optional(),
      startOnCreate: flag().optional(),
      networkId: text().optional(),
      scriptId: text().optional(),
      userId: text().optional(),
      email: z.email({ error: mustBe('an e-mail address') }).optional(),
      password: secretText().optional(),
      firstName: text().optional(),
      lastName: text().optional(),
      notificationEmail: z.email({ error: mustBe('an e-mail address') }).optional(),
      takeInitialSnapshot: flag().optional(),
      markSnapshotAsRestorePoint: flag().optional(),
      restorePointFrequency: choice(RESTORE_POINT_FREQUENCIES).optional(),
      enableNvlink: flag().optional(),
    })
    .superRefine((params, ctx) => {
      if (dialect === 'v1') {
        for (const [field, message] of Object.entries(NOT_IN_V1)) {
          if (params[field as keyof typeof params] !== undefined) {
            ctx.addIssue({ code: 'custom', path: [field], message });
          }
        }
      }
      // The contract forbids supplying both, whatever their values: "cannot be combined".
      if (params.assignPublicIp !== undefined && params.dynamicPublicIp !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['assignPublicIp'],
          message: 'cannot be combined with dynamicPublicIp; give one of them',
        });
      }
      const newUserFields = (['email', 'password', 'firstName', 'lastName'] as const).filter(
        (field) => params[field] !== undefined,
      );
      if (params.userId !== undefined) {
        for (const field of newUserFields) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: 'cannot be given with userId: assign an existing user or describe a new one, not both',
          });
        }
      } else if (newUserFields.length > 0) {
        // A new team user needs all four; a partial set can only be refused by Paperspace later.
        for (const field of ['email', 'password', 'firstName', 'lastName'] as const) {
          if (params[field] === undefined) {
            ctx.addIssue({
              code: 'custom',
              path: [field],
              message: 'is required to create a new user (give email, password, firstName and lastName)',
            });
          }
        }
      }
      if (params.markSnapshotAsRestorePoint === true) {
        if (params.takeInitialSnapshot !== true) {
          ctx.addIssue({
            code: 'custom',
            path: ['takeInitialSnapshot'],
            message: 'must be true when markSnapshotAsRestorePoint is true',
          });
        }
        if (params.restorePointFrequency === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['restorePointFrequency'],
            message: `is required when markSnapshotAsRestorePoint is true (${oneOf(RESTORE_POINT_FREQUENCIES)})`,
          });
        }
      }
    });
/** The create parameters as typed (`/ps create key=value`), before any template is known. */
const createMachineParamsSchemaOf = (dialect: Dialect) => createParamsSchema(machineTypeSchema, dialect);
export const createMachineParamsSchema = createMachineParamsSchemaOf('contract');
export type CreateMachineParams = z.input<ReturnType<typeof createParamsSchema>>;

/** What the client needs to know of a template to apply its rules on machine types. */
export interface TemplateInfo {
  id?: string | null;
  name?: string | null;
  os?: string | null;
  /**
   * The machine types the template can create, where the API says (v1's availableMachineTypes): then
   * they, not the contract's fixed list and OS rules, decide.
   */
  machineTypes?: readonly string[] | undefined;
  /** The one region a custom template is in (v1), by the contract's name; absent or null: any. */
  region?: string | null | undefined;
}

/** Windows or Ubuntu, read from the template's os or name; undefined when neither says. */
export function templateFamily(template: TemplateInfo): 'windows' | 'ubuntu' | undefined {
  const description = `${template.os ?? ''} ${template.name ?? ''}`.toLowerCase();
  if (description.includes('windows')) return 'windows';
  if (description.includes('ubuntu')) return 'ubuntu';
  return undefined;
}

/** The create schema plus the rules that depend on the template the machine is created from. */
export function createMachineParamsSchemaFor(
  template: TemplateInfo | undefined,
  dialect: Dialect = 'contract',
) {
  const base = createMachineParamsSchemaOf(dialect);
  if (!template) return base;
  const offered = template.machineTypes;
  if (offered !== undefined) return offeredTypesSchema(template, offered, dialect);
  const family = templateFamily(template);
  return base.superRefine((params, ctx) => {
    const label = template.name ?? template.os ?? 'this template';
    if (family === 'windows' && isCpuMachineType(params.machineType)) {
      ctx.addIssue({
        code: 'custom',
        path: ['machineType'],
        message: `cannot be ${params.machineType}: Windows templates (${label}) cannot create CPU-only types C1 to C10`,
      });
    }
    if (family === 'ubuntu' && isGridMachineType(params.machineType)) {
      ctx.addIssue({
        code: 'custom',
        path: ['machineType'],
        message:
          `cannot be ${params.machineType}: Ubuntu templates (${label}) cannot create ` +
          'Air, Standard, Pro or Advanced',
      });
    }
  });
}

/**
 * A template with its own catalog (v1): the machine type must be one it offers, named as it names it,
 * and a custom template, which lives in one region, creates only there.
 */
function offeredTypesSchema(template: TemplateInfo, offered: readonly string[], dialect: Dialect) {
  // By its label only: the person chose the template by name and never sees its id elsewhere.
  const label = template.name ?? template.os ?? 'this template';
  // Typed in any case, sent as the template spells it.
  const spelled = text().transform(
    (typed) => offered.find((type) => type.toLowerCase() === typed.toLowerCase()) ?? typed,
  );
  return createParamsSchema(spelled, dialect).superRefine((params, ctx) => {
    if (template.region && params.region !== template.region) {
      ctx.addIssue({
        code: 'custom',
        path: ['region'],
        message: `cannot be ${params.region}: template ${label} is only in ${template.region}`,
      });
    }
    if (offered.includes(params.machineType)) return;
    ctx.addIssue({
      code: 'custom',
      path: ['machineType'],
      message:
        offered.length === 0
          ? `cannot be ${params.machineType}: template ${label} offers no machine type right now`
          : `cannot be ${params.machineType}: template ${label} offers ${offered.join(', ')}`,
    });
  });
}

// zod schemas of what the client sends, checked before anything leaves the process. The Slack layer
// reuses them (modals, `key=value` commands), so every message reads after its field name:
// "size must be a positive whole number". Objects are strict: a misspelt parameter is an error that
// names it, not a value silently dropped.
import { z } from 'zod';
import {
  AUTO_SNAPSHOT_FREQUENCIES,
  BILLING_TYPES,
  DEDICATED_GPU_MACHINE_TYPES,
  isCpuMachineType,
  isGridMachineType,
  MACHINE_DISK_SIZES_GB,
  MACHINE_DISK_SIZES_TEXT,
  MACHINE_LIST_PAGE_SIZE,
  MACHINE_STATES,
  MACHINE_TYPES,
  REGIONS,
  RESTORE_POINT_FREQUENCIES,
  regionCode,
  SCRIPT_MAX_BYTES,
  WAITABLE_STATES,
} from './constants.js';
import { type RequestIssue, RequestValidationError } from './errors.js';

type Issue = { input?: unknown };
const mustBe = (description: string) => (issue: Issue) =>
  issue.input === undefined ? 'is required' : `must be ${description}`;

const oneOf = (values: readonly string[]) => `one of ${values.map((value) => `"${value}"`).join(', ')}`;

const text = () =>
  z
    .string({ error: mustBe('text') })
    .trim()
    .min(1, { error: 'must not be empty' });
/** Sent exactly as given, never trimmed: a password may begin or end with a space. */
const secretText = () =>
  z.string({ error: mustBe('text') }).refine((value) => value.trim() !== '', { error: 'must not be empty' });
const flag = () => z.boolean({ error: mustBe('true or false') });
const wholeNumber = (minimum: number, description: string) =>
  z
    .number({ error: mustBe(description) })
    .int({ error: `must be ${description}` })
    .min(minimum, { error: `must be ${description}` });
const positiveWholeNumber = () => wholeNumber(1, 'a positive whole number');
const nonNegativeWholeNumber = () => wholeNumber(0, 'a whole number, 0 or more');
const choice = <const Values extends readonly [string, ...string[]]>(values: Values) =>
  z.enum(values, { error: mustBe(oneOf(values)) });

/** A refused region names every region and the codes that may be typed for it (`CA1`, v1's `ca1`). */
export const regionSchema = z.enum(REGIONS, {
  error: mustBe(`${oneOf(REGIONS)} (or a code: ${REGIONS.map(regionCode).join(', ')})`),
});
export const machineTypeSchema = choice(MACHINE_TYPES);
/**
 * An id that goes into a URL path. Encoding keeps `/` and `?` from changing the path, but `.` and `..`
 * are path steps whatever their encoding: `..` as a machine id made `POST /machines/../stop` reach
 * `POST /stop`.
 */
const pathId = () =>
  text().refine((value) => value !== '.' && value !== '..', {
    error: 'must be an id, not a path step (. or ..)',
  });

export const machineIdSchema = pathId();

/** Script data limit check in UTF-8 bytes, shared by scriptText and the content of scriptFile. */
export function scriptSizeProblem(content: string): string | undefined {
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes <= SCRIPT_MAX_BYTES) return undefined;
  return `is ${bytes} bytes of UTF-8; Paperspace limits a script to 16 KB (${SCRIPT_MAX_BYTES} bytes)`;
}

// ---- machines ----

/**
 * A machine's disk size. Checked on the field, not in the create's refinement, which zod runs only once
 * every field is valid: a wrong size is reported in the same round as the form's other errors. A size
 * that is not a positive whole number already has its one message.
 */
const diskSizeSchema = positiveWholeNumber().refine(
  (size) =>
    !Number.isInteger(size) || size < 1 || (MACHINE_DISK_SIZES_GB as readonly number[]).includes(size),
  {
    error: (issue) =>
      `must be a disk size Paperspace offers: ${MACHINE_DISK_SIZES_TEXT} GB, not ${String(issue.input)}`,
  },
);

/**
 * The create parameters with `machineType` checked by the given schema: the contract's fixed list, or
 * (a template that names its own catalog, v1) any label, checked against the template afterwards.
 */
const createParamsSchema = (machineType: z.ZodType<string, string>) =>
  z
    .strictObject({
      region: regionSchema,
      machineType,
      size: diskSizeSchema,
      billingType: choice(BILLING_TYPES),
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
export const createMachineParamsSchema = createParamsSchema(machineTypeSchema);
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
export function createMachineParamsSchemaFor(template: TemplateInfo | undefined) {
  if (!template) return createMachineParamsSchema;
  const offered = template.machineTypes;
  if (offered !== undefined) return offeredTypesSchema(template, offered);
  const family = templateFamily(template);
  return createMachineParamsSchema.superRefine((params, ctx) => {
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
function offeredTypesSchema(template: TemplateInfo, offered: readonly string[]) {
  const label = `${template.name ?? template.os ?? 'this template'}${template.id ? ` (${template.id})` : ''}`;
  // Typed in any case, sent as the template spells it.
  const spelled = text().transform(
    (typed) => offered.find((type) => type.toLowerCase() === typed.toLowerCase()) ?? typed,
  );
  return createParamsSchema(spelled).superRefine((params, ctx) => {
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

export const updateMachineParamsSchema = z
  .strictObject({
    machineName: text().optional(),
    shutdownTimeoutInHours: nonNegativeWholeNumber().optional(),
    shutdownTimeoutForces: flag().optional(),
    // The contract types this field "number" but describes it as one of hour, day, week or null, the
    // same vocabulary as the machine's own autoSnapshotFrequency: the "number" is a documentation
    // error, so the client sends the strings (and null to turn the schedule off).
    autoSnapshotFrequency: choice(AUTO_SNAPSHOT_FREQUENCIES).nullable().optional(),
    autoSnapshotSaveCount: nonNegativeWholeNumber().optional(),
    performAutoSnapshot: flag().optional(),
    dynamicPublicIp: flag().optional(),
    assignPublicIp: flag().optional(),
  })
  // Paperspace refuses a new static IP and a dynamic one in the same change: the person chooses.
  .superRefine((params, ctx) => {
    if (params.assignPublicIp === true && params.dynamicPublicIp === true) {
      ctx.addIssue({
        code: 'custom',
        path: ['assignPublicIp'],
        message: 'cannot be combined with dynamicPublicIp: choose a static or a dynamic public IP, not both',
      });
    }
  });
export type UpdateMachineParams = z.input<typeof updateMachineParamsSchema>;

const filterText = () => text().optional();
const filterNumber = () => z.number({ error: mustBe('a number') }).optional();
const filterFlag = () => flag().optional();

export const machineListFiltersSchema = z.strictObject({
  machineId: filterText(),
  // getMachines matches on machineId; an `id` filter would be ignored and list every machine.
  id: z.never({ error: 'is not a machine filter; use machineId' }).optional(),
  name: filterText(),
  os: filterText(),
  ram: filterText(),
  gpu: filterText(),
  storageTotal: filterText(),
  storageUsed: filterText(),
  usageRate: filterText(),
  autoSnapshotFrequency: choice(AUTO_SNAPSHOT_FREQUENCIES).optional(),
  agentType: filterText(),
  dtCreated: filterText(),
  state: choice(MACHINE_STATES).optional(),
  networkId: filterText(),
  privateIpAddress: filterText(),
  publicIpAddress: filterText(),
  region: regionSchema.optional(),
  userId: filterText(),
  teamId: filterText(),
  scriptId: filterText(),
  dtLastRun: filterText(),
  cpus: filterNumber(),
  shutdownTimeoutInHours: filterNumber(),
  autoSnapshotSaveCount: filterNumber(),
  performAutoSnapshot: filterFlag(),
  updatesPending: filterFlag(),
  limit: wholeNumber(1, `a whole number from 1 to ${MACHINE_LIST_PAGE_SIZE}`)
    .max(MACHINE_LIST_PAGE_SIZE, { error: `must be a whole number from 1 to ${MACHINE_LIST_PAGE_SIZE}` })
    .optional(),
  skip: nonNegativeWholeNumber().optional(),
});
export type MachineListFilters = z.input<typeof machineListFiltersSchema>;
/** Filters for listAll, which owns paging itself. */
export type MachineFilters = Omit<MachineListFilters, 'limit' | 'skip'>;

export const destroyMachineParamsSchema = z.strictObject({ releasePublicIp: flag().optional() });
export type DestroyMachineParams = z.input<typeof destroyMachineParamsSchema>;

export const setMachineAccessParamsSchema = z.strictObject({ userId: text(), enableAccess: flag() });
export type SetMachineAccessParams = z.input<typeof setMachineAccessParamsSchema>;

export const billingMonthSchema = z
  .string({ error: mustBe('a month written YYYY-MM') })
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'must be a month written YYYY-MM, e.g. 2024-05' });

export const utilizationParamsSchema = z.strictObject({
  machineId: machineIdSchema,
  billingMonth: billingMonthSchema,
});

export const availabilityParamsSchema = z.strictObject({
  region: regionSchema,
  machineType: z.enum(DEDICATED_GPU_MACHINE_TYPES, {
    error: (issue) =>
      issue.input === undefined
        ? 'is required'
        : `must be ${oneOf(DEDICATED_GPU_MACHINE_TYPES)}: Paperspace reports availability only for dedicated GPU types`,
  }),
});
/** v1 reports availability for any type it sells: its catalog is the templates', not a fixed list. */
export const v1AvailabilityParamsSchema = z.strictObject({
  region: regionSchema,
  machineType: z.string({ error: 'is required' }).trim().min(1, { error: 'must name a machine type' }),
});
export type AvailabilityParams = z.input<typeof v1AvailabilityParamsSchema>;

export const waitForStateParamsSchema = z.strictObject({
  machineId: machineIdSchema,
  state: choice(WAITABLE_STATES),
  timeoutMs: positiveWholeNumber(),
  intervalMs: positiveWholeNumber(),
});

// ---- scripts ----

export const createScriptParamsSchema = z
  .strictObject({
    scriptName: text(),
    scriptText: z
      .string({ error: mustBe('text') })
      .min(1, { error: 'must not be empty' })
      .superRefine((content, ctx) => {
        const problem = scriptSizeProblem(content);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    /** A path on this machine; the client reads it and sends its content (see scripts.create). */
    scriptFile: text().optional(),
    scriptDescription: text().optional(),
    isEnabled: flag().optional(),
    runOnce: flag().optional(),
    machineId: text().optional(),
  })
  .superRefine((params, ctx) => {
    if (params.scriptText === undefined && params.scriptFile === undefined) {
      ctx.addIssue({ code: 'custom', path: ['scriptText'], message: 'or scriptFile is required' });
    }
    if (params.scriptText !== undefined && params.scriptFile !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['scriptFile'],
        message: 'cannot be given with scriptText; give one',
      });
    }
  });
export type CreateScriptParams = z.input<typeof createScriptParamsSchema>;

export const scriptIdSchema = pathId();

export const scriptListFiltersSchema = z.strictObject({
  id: filterText(),
  ownerType: choice(['user', 'team']).optional(),
  ownerId: filterText(),
  name: filterText(),
  description: filterText(),
  dtCreated: filterText(),
  isEnabled: filterFlag(),
  runOnce: filterFlag(),
});
export type ScriptListFilters = z.input<typeof scriptListFiltersSchema>;

// ---- templates, users, networks ----

export const templateListFiltersSchema = z.strictObject({
  id: filterText(),
  name: filterText(),
  label: filterText(),
  os: filterText(),
  dtCreated: filterText(),
  teamId: filterText(),
  userId: filterText(),
  region: regionSchema.optional(),
});
export type TemplateListFilters = z.input<typeof templateListFiltersSchema>;

export const userListFiltersSchema = z.strictObject({
  id: filterText(),
  email: filterText(),
  firstname: filterText(),
  lastname: filterText(),
  dtCreated: filterText(),
  teamId: filterText(),
});
export type UserListFilters = z.input<typeof userListFiltersSchema>;

export const networkListFiltersSchema = z.strictObject({
  id: filterText(),
  name: filterText(),
  region: regionSchema.optional(),
  dtCreated: filterText(),
  network: filterText(),
  netmask: filterText(),
  teamId: filterText(),
});
export type NetworkListFilters = z.input<typeof networkListFiltersSchema>;

// ---- resource delegations ----

export const createDelegationParamsSchema = z.strictObject({
  // The contract makes the list optional, but a delegation for no machine grants nothing.
  machineIds: z
    .array(text(), { error: mustBe('a list of machine ids') })
    .min(1, { error: 'must name at least one machine' }),
});
export type CreateDelegationParams = z.input<typeof createDelegationParamsSchema>;

// ---- shared drives ----

export const sharedDriveListParamsSchema = z.strictObject({ first: positiveWholeNumber().optional() });
export type SharedDriveListParams = z.input<typeof sharedDriveListParamsSchema>;

export const createSharedDriveParamsSchema = z.strictObject({
  name: text(),
  sizeGiB: positiveWholeNumber(),
  region: regionSchema,
  networkId: text(),
});
export type CreateSharedDriveParams = z.input<typeof createSharedDriveParamsSchema>;

export const sharedDriveIdSchema = text();

// ---- turning zod failures into RequestValidationError ----

function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, segment) => {
    if (typeof segment === 'number') return `${name}[${segment}]`;
    return name ? `${name}.${String(segment)}` : String(segment);
  }, '');
}

/** One `{ field, message }` per problem, unknown keys reported under their own name. */
export function toRequestIssues(error: z.ZodError): RequestIssue[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        field: fieldName([...issue.path, key]),
        message: 'is not a parameter of this request',
      }));
    }
    return [{ field: fieldName(issue.path) || 'request', message: issue.message }];
  });
}

/** Parses `input` or throws a RequestValidationError naming every bad field; nothing is sent. */
export function parseRequest<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  operation: string,
  action: string,
): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new RequestValidationError(operation, action, toRequestIssues(result.error));
}

// /ps create: every create parameter of the contract as a form. Lists longer than a select may hold
// (100 options) show their first 100 and say how to reach the others.
import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { processorOf } from '../../../domain/machine-types.js';
import {
  BILLING_TYPES,
  CPU_MACHINE_TYPES,
  DEDICATED_GPU_MACHINE_TYPES,
  diskSizesText,
  GRID_MACHINE_TYPES,
  REGIONS,
} from '../../../paperspace/constants.js';
import type { Dialect } from '../../../paperspace/dialect.js';
import type { Network, Script, Template, User } from '../../../paperspace/schemas.js';
import { formatHourlyRate } from '../../../slack/block-kit/format.js';
import {
  checkboxesElement,
  input,
  modal,
  note,
  numberElement,
  placeholder,
  radioElement,
  selectElement,
  shownOfHint,
  textElement,
} from '../../../slack/block-kit/modal-kit.js';
import { encodeModalMetadata, type ModalContext } from '../../../slack/block-kit/modal-metadata.js';
import { LIMITS, option, plainText } from '../../../slack/block-kit/text.js';
import { CallbackId, SLASH_COMMAND } from '../../../slack/ids.js';
import { CreateMachineFields, CreateMachineOptions } from './create-machine-fields.js';

export interface CreateMachineModalInput {
  templates: Template[];
  networks: Network[];
  scripts: Script[];
  /** Team users a team administrator may assign the machine to. */
  users?: User[];
  isTeam: boolean;
  /** What each machine type costs an hour (dollars), where the person's machines show it. */
  hourlyRates?: ReadonlyMap<string, number>;
  /** v1's create has no billing type, no new users and no notification e-mail; its disk sizes differ. */
  dialect: Dialect;
  context?: ModalContext;
}

const INLINE_HINT = `For another, use ${SLASH_COMMAND} create with key=value pairs.`;

/** Ids longer than an option value may be cannot be offered; they stay reachable inline. */
const selectable = <T extends { id: string }>(items: T[]) =>
  items.filter((item) => item.id.length <= LIMITS.optionValue);

export function createMachineModal(input_: CreateMachineModalInput): ModalView {
  const F = CreateMachineFields;
  const O = CreateMachineOptions;
  const templates = selectable(input_.templates);
  const networks = selectable(input_.networks);
  const scripts = selectable(input_.scripts);
  const blocks: KnownBlock[] = [
    input(F.region, 'Region', selectElement(REGIONS.map((region) => option(region, region)))),
    machineTypeInput(input_.templates, input_.hourlyRates ?? new Map()),
    templates.length > 0
      ? input(
          F.template,
          'Template',
          selectElement(templates.map((t) => option(t.label ?? t.name, t.id, t.os))),
          { hint: shownOfHint(templates.length, 'templates', INLINE_HINT) },
        )
      : input(F.template, 'Template id', textElement({ placeholder: 'e.g. tkni3aa4' }), {
          hint: 'No templates were listed for this account; paste a template id.',
        }),
    input(F.size, 'Storage size (GB)', numberElement({ initial: 50, min: 1 }), {
      // v1 takes any whole size, so its list is a suggestion; the contract's is the only sizes it takes.
      hint:
        input_.dialect === 'v1'
          ? `Usually ${diskSizesText('v1')} GB; Paperspace takes any whole number of GB above 0.`
          : `Paperspace offers ${diskSizesText(input_.dialect)} GB.`,
    }),
    input(F.machineName, 'Name', textElement({ placeholder: 'gpu-1', maxLength: 255 })),
  ];
  // The contract bills by one type only: said as text, not a required select with one choice; the
  // create schema fills it in.
  if (input_.dialect === 'contract')
    blocks.push(note(`*Billing:* ${BILLING_TYPES[0]}, the one way Paperspace bills machines.`));
  if (networks.length > 0) {
    const options = networks.map((n) =>
      option(`${n.name} · ${n.region}`, n.id, `${n.network} / ${n.netmask}`),
    );
    blocks.push(
      input(F.network, 'Network', selectElement(options), {
        optional: true,
        hint: shownOfHint(networks.length, 'networks', INLINE_HINT),
      }),
    );
  }
  if (scripts.length > 0) {
    const options = scripts.map((s) => option(s.name, s.id, s.description ?? undefined));
    blocks.push(
      input(F.script, 'Startup script', selectElement(options), {
        optional: true,
        hint: shownOfHint(scripts.length, 'scripts', INLINE_HINT),
      }),
    );
  }
  blocks.push(
    input(
      F.publicIp,
      'Public IP',
      radioElement(
        [
          option('None', O.publicIpNone),
          option('Static', O.publicIpStatic, 'Assigned now and kept'),
          option('Dynamic', O.publicIpDynamic, 'Assigned on start, released on stop'),
        ],
        O.publicIpNone,
      ),
    ),
    // Checkbox inputs are optional: a required one could not be submitted unticked.
    input(
      F.startOnCreate,
      'Start',
      checkboxesElement([option('Start the machine once it is created', O.startOnCreate)], [O.startOnCreate]),
      { optional: true },
    ),
  );
  if (input_.isTeam) {
    blocks.push(
      ...(input_.dialect === 'v1' ? accessorChoice(input_.users ?? []) : userAssignment(input_.users ?? [])),
    );
  }
  blocks.push(
    input(
      F.snapshot,
      'Snapshots',
      checkboxesElement([
        option('Take an initial snapshot', O.takeInitialSnapshot, 'At first boot'),
        option(
          'Mark it as restore point',
          O.markAsRestorePoint,
          'Restores at every shutdown; needs the snapshot',
        ),
      ]),
      { optional: true },
    ),
    input(
      F.nvlink,
      'NVLink',
      checkboxesElement([option('Enable NVLink', O.enableNvlink, 'On compatible multi-GPU types')]),
      { optional: true },
    ),
  );
  if (input_.dialect === 'contract') {
    blocks.push(
      input(
        F.notificationEmail,
        'Notify by e-mail',
        { type: 'email_text_input', placeholder: placeholder('you@example.com') },
        {
          optional: true,
          hint: 'Paperspace writes to this address when the machine is created.',
        },
      ),
    );
  }
  return modal({
    callbackId: CallbackId.createMachine,
    title: 'Create machine',
    submit: 'Create',
    privateMetadata: encodeModalMetadata(input_.context ?? {}),
    blocks,
  });
}

/**
 * The contract's fixed list in its three groups; or, when the templates name their own catalog (v1),
 * every type one of them offers (a select holds 100): the submission then checks the chosen template
 * offers the chosen type, and names what it does offer.
 */
function machineTypeInput(templates: readonly Template[], rates: ReadonlyMap<string, number>): KnownBlock {
  const typeOption = (type: string) => {
    const rate = rates.get(type);
    const about = [processorOf(type), rate === undefined ? undefined : formatHourlyRate(rate)];
    return option(type, type, about.filter(Boolean).join(' · ') || undefined);
  };
  const F = CreateMachineFields;
  const offered = [...new Set(templates.flatMap((template) => template.machineTypes ?? []))];
  const catalogs = templates.some((template) => template.machineTypes !== undefined);
  if (!catalogs) {
    return input(F.machineType, 'Machine type', {
      type: 'static_select',
      placeholder: placeholder('Choose…'),
      option_groups: [
        group('GRID GPU · not with Ubuntu templates', GRID_MACHINE_TYPES.map(typeOption)),
        group('Dedicated GPU', DEDICATED_GPU_MACHINE_TYPES.map(typeOption)),
        group('CPU · not with Windows templates', CPU_MACHINE_TYPES.map(typeOption)),
      ],
    });
  }
  const shown = offered.slice(0, LIMITS.selectOptions);
  if (shown.length === 0) {
    return input(F.machineType, 'Machine type', textElement({ placeholder: 'e.g. A4000' }), {
      hint: 'Your templates offer no machine type right now; type one the template you choose offers.',
    });
  }
  return input(F.machineType, 'Machine type', selectElement(shown.map(typeOption)), {
    hint: `Each template offers only some of these; ${SLASH_COMMAND} templates lists which.`,
  });
}

function group(
  label: string,
  options: PlainTextOption[],
): { label: ReturnType<typeof plainText>; options: PlainTextOption[] } {
  return { label: plainText(label, LIMITS.optionText), options };
}

/** The existing-user choice: a select of the team's users, or an id field when none were listed. */
function existingUserInput(users: User[], label: string): KnownBlock {
  const F = CreateMachineFields;
  const existing = selectable(users);
  return existing.length > 0
    ? input(
        F.existingUser,
        label,
        selectElement(
          existing.map((u) => option(`${u.firstname} ${u.lastname}`.trim() || u.email, u.id, u.email)),
        ),
        { optional: true, hint: shownOfHint(existing.length, 'users', INLINE_HINT) },
      )
    : input(F.existingUser, `${label} id`, textElement({ placeholder: 'the id /ps users shows for them' }), {
        optional: true,
      });
}

/**
 * v1 has no machine owner and creates no users: a team member can only be given access (an accessor,
 * `accessorIds`), and none is needed.
 */
function accessorChoice(users: User[]): KnownBlock[] {
  return [
    { type: 'divider' },
    note('*Give access* (optional): a team member who may use the machine besides its creator.'),
    existingUserInput(users, 'Team member'),
    { type: 'divider' },
  ];
}

/** A team administrator assigns the machine to an existing user or creates a new one (the contract). */
function userAssignment(users: User[]): KnownBlock[] {
  const F = CreateMachineFields;
  const blocks: KnownBlock[] = [
    { type: 'divider' },
    note(
      '*Assign to a user* (team accounts): pick an existing user, *or* fill in all four new-user fields; with neither, the machine is yours.',
    ),
    existingUserInput(users, 'Existing user'),
    input(F.newUserEmail, 'New user e-mail', { type: 'email_text_input' }, { optional: true }),
    input(F.newUserPassword, 'New user password', textElement({ maxLength: 200 }), {
      optional: true,
      hint: 'Visible while you type; share it with the user privately.',
    }),
    input(F.newUserFirstName, 'New user first name', textElement({ maxLength: 200 }), { optional: true }),
    input(F.newUserLastName, 'New user last name', textElement({ maxLength: 200 }), { optional: true }),
    { type: 'divider' },
  ];
  return blocks;
}

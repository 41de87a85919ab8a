// A create request's specification in the words of Paperspace's console, not of its API: the
// template by its label, the machine type with what kind of GPU it has, the region by name, the disk
// in GB, and whom it is for as a mention. Only what a person chose is listed: flags left at their
// default (off, and "start on create" on) and the one billing type say nothing an approver needs
// (issue 26: the request listed `templateId: tmun4o2g`, `teamId`, `userId` and three `false` flags).
import { processorOf } from '../../../domain/machine-types.js';
import { escapeMrkdwn, mention } from '../../../slack/block-kit/text.js';

export interface SpecificationNames {
  /** The template's label as Paperspace lists it; without it, its id is shown. */
  templateLabel?: string | undefined;
  /** The Slack person the machine is for, named instead of their Paperspace ids. */
  forSlackUser?: string | undefined;
}

/** Named elsewhere (the headline), secret, or the API's ids of the person and team: never listed. */
const NOT_LISTED = new Set(['machineName', 'password', 'userId', 'teamId', 'billingType']);

/** What each flag means when set; a flag only appears when it differs from its default. */
const FLAGS: Readonly<Record<string, string>> = {
  assignPublicIp: 'Public IP: static',
  dynamicPublicIp: 'Public IP: dynamic',
  takeInitialSnapshot: 'Initial snapshot: yes',
  markSnapshotAsRestorePoint: 'Snapshot kept as restore point: yes',
  enableNvlink: 'NVLink: on',
};

const LABELS: Readonly<Record<string, string>> = {
  networkId: 'Network',
  scriptId: 'Startup script',
  email: 'New user e-mail',
  firstName: 'New user first name',
  lastName: 'New user last name',
  notificationEmail: 'Notify',
  restorePointFrequency: 'Restore point',
  accessorIds: 'Access for',
};

/** `P4000 · dedicated GPU`: the type as Paperspace sells it, with the kind of processor it has. */
function machineTypeText(type: string): string {
  const processor = processorOf(type);
  return processor === undefined ? type : `${type} · ${processor}`;
}

const code = (value: unknown) => `\`${escapeMrkdwn(String(value))}\``;

/** One line per thing the person chose, as the approver needs to judge it. */
export function specificationText(params: Record<string, unknown>, names: SpecificationNames = {}): string {
  const lines: string[] = [];
  if (params.templateId !== undefined) {
    lines.push(
      names.templateLabel
        ? `• Template: *${escapeMrkdwn(names.templateLabel)}*`
        : // An id would tell the approver nothing: say plainly that it is none of the team's listed ones.
          "• Template: one not in the team's template list (`/ps templates`)",
    );
  }
  if (params.machineType !== undefined)
    lines.push(`• Machine type: *${escapeMrkdwn(machineTypeText(String(params.machineType)))}*`);
  if (params.region !== undefined) lines.push(`• Region: ${escapeMrkdwn(String(params.region))}`);
  if (params.size !== undefined) lines.push(`• Disk: ${escapeMrkdwn(String(params.size))} GB`);
  if (params.startOnCreate === false) lines.push('• Start on create: no, it is created off');
  for (const [key, value] of Object.entries(params)) {
    if (NOT_LISTED.has(key) || ['templateId', 'machineType', 'region', 'size', 'startOnCreate'].includes(key))
      continue;
    if (key in FLAGS) {
      if (value === true) lines.push(`• ${FLAGS[key]}`);
      continue;
    }
    if (value === undefined || value === null || value === '') continue;
    lines.push(`• ${LABELS[key] ?? escapeMrkdwn(key)}: ${code(value)}`);
  }
  if (names.forSlackUser) lines.push(`• For: ${mention(names.forSlackUser)}`);
  return lines.join('\n');
}

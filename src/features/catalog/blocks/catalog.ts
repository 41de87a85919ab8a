// Startup scripts and shared drives beyond their lists: one script in detail, a script's text, and
// the confirmation that stands between `/ps script delete` or `/ps drive delete` and the deletion.
import type { KnownBlock } from '@slack/types';
import type { Script, SharedDrive } from '../../../paperspace/schemas.js';
import { button, contextLine, section } from '../../../slack/block-kit/elements.js';
import { formatGiB } from '../../../slack/block-kit/format.js';
import { rowsThatFit } from '../../../slack/block-kit/message-budget.js';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import {
  escapeMrkdwn,
  LIMITS,
  nameMrkdwn,
  plural,
  type SlackMessage,
  slackDate,
  truncateMrkdwn,
} from '../../../slack/block-kit/text.js';
import { ActionId, SLASH_COMMAND } from '../../../slack/ids.js';

const code = (text: string) => `\`${escapeMrkdwn(text)}\``;
const bold = (text: string) => `*${escapeMrkdwn(text)}*`;

function whenCreated(dtCreated: string): string | undefined {
  const at = Date.parse(dtCreated);
  return Number.isFinite(at) ? `created ${slackDate(at, '{date_short}')}` : undefined;
}

/** The machines a script is assigned to, as far as the (open) element shape says. */
function assignedMachineIds(script: Script): string[] {
  return (script.machines ?? []).flatMap((entry) => {
    if (typeof entry === 'string') return [entry];
    if (typeof entry === 'object' && entry !== null) {
      const { machineId, id } = entry as { machineId?: unknown; id?: unknown };
      if (typeof machineId === 'string') return [machineId];
      if (typeof id === 'string') return [id];
    }
    return [];
  });
}

/** Most ids listed on the machines line; a script on more machines says how many more. */
const LISTED_MACHINES = 20;

/** A machine by name and id when its name is known (`*gpu-1* \`ps1\``), by id otherwise. */
export function machineMention(id: string, names: ReadonlyMap<string, string>): string {
  const name = names.get(id);
  return name === undefined ? code(id) : `${nameMrkdwn(name)} ${code(id)}`;
}

export function scriptDetailMessage(
  script: Script,
  names: ReadonlyMap<string, string> = new Map(),
): SlackMessage {
  const machines = assignedMachineIds(script);
  const machineLine =
    script.machines === undefined
      ? undefined
      : machines.length === 0
        ? 'Not assigned to any machine'
        : `Runs on ${plural(script.machines.length, 'machine')}: ${machines
            .slice(0, LISTED_MACHINES)
            .map((id) => machineMention(id, names))
            .join(', ')}` +
          (machines.length > LISTED_MACHINES ? ` and ${machines.length - LISTED_MACHINES} more` : '');
  const lines = [
    `📜 ${bold(script.name)}`,
    [
      script.isEnabled ? '✅ enabled' : '⏸️ disabled',
      script.runOnce ? 'runs on first boot only' : 'runs on every boot',
      `owner: ${escapeMrkdwn(script.ownerType)} ${code(script.ownerId)}`,
    ].join(' · '),
    script.description ? escapeMrkdwn(script.description) : undefined,
    machineLine,
    [`id ${code(script.id)}`, whenCreated(script.dtCreated)].filter(Boolean).join(' · '),
  ].filter((line): line is string => line !== undefined);
  return {
    blocks: [
      section(lines.join('\n')),
      contextLine(
        `\`${SLASH_COMMAND} script text ${escapeMrkdwn(script.id)}\` shows its text · ` +
          `\`${SLASH_COMMAND} script delete ${escapeMrkdwn(script.id)}\` deletes it`,
      ),
    ],
    text: `Startup script ${escapeMrkdwn(script.name)}`,
  };
}

const FENCE = '```';
const CODE_CHARS = LIMITS.sectionText - 2 * FENCE.length;

/** Where the API cannot give a script's text back (v1), the person is told so rather than shown nothing. */
export function scriptTextUnavailableMessage(script: Pick<Script, 'id' | 'name'>): SlackMessage {
  const text =
    `📜 ${bold(script.name)} (${code(script.id)}): Paperspace's API does not give the text of a script ` +
    'back, so it cannot be shown here. Keep your own copy; the Paperspace console can edit it.';
  return plainMessage(text);
}

/**
 * The text of a script in code blocks, split at line ends into sections Slack accepts. Three backticks
 * in the script would end the code block early, so a zero-width space is put between them.
 */
export function scriptTextMessage(script: Pick<Script, 'id' | 'name'>, text: string): SlackMessage {
  const title = `📜 ${bold(script.name)} (${code(script.id)})`;
  if (text.trim() === '') {
    const empty = `${title} has no text.`;
    return plainMessage(empty);
  }
  const escaped = escapeMrkdwn(text.replace(/`{3,}/g, (run) => run.split('').join('\u200b')));
  const chunks = splitCode(escaped, CODE_CHARS);
  const sections = chunks.map((chunk): KnownBlock[] => [section(`${FENCE}${chunk}${FENCE}`)]);
  const bytes = Buffer.byteLength(text, 'utf8');
  const cutNote = (shownChars: number): KnownBlock =>
    contextLine(
      `✂️ Cut after ${shownChars} of ${escaped.length} characters: the script (${bytes} bytes) is longer than a Slack message holds.`,
    );
  const head: KnownBlock = section(title);
  const footer = contextLine(`${bytes} bytes`);
  // A 16 KB script escapes to more than a message's summed text takes (msg_blocks_too_long), so
  // sections are taken while they fit the message budget, keeping room for the note that cuts them.
  const shown = rowsThatFit(sections, [head, footer], [cutNote(escaped.length)]);
  const blocks: KnownBlock[] = [head, ...sections.slice(0, shown).flat()];
  if (shown < chunks.length) {
    const shownChars = chunks.slice(0, shown).reduce((sum, chunk) => sum + chunk.length, 0);
    blocks.push(cutNote(shownChars));
  } else {
    blocks.push(footer);
  }
  return { blocks, text: truncateMrkdwn(`Text of startup script ${escapeMrkdwn(script.name)}`, 300) };
}

/**
 * Cuts escaped text into pieces of at most `max` characters, preferring line ends, and never inside
 * an escape (`&amp;`) or a surrogate pair.
 */
function splitCode(text: string, max: number): string[] {
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = rest.lastIndexOf('\n', max);
    if (cut <= 0) {
      cut = max;
      const entity = rest.lastIndexOf('&', cut);
      if (entity !== -1 && cut - entity < '&amp;'.length && !rest.slice(entity, cut).includes(';'))
        cut = entity;
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    } else {
      cut += 1;
    }
    chunks.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest !== '') chunks.push(rest);
  return chunks;
}

interface DeleteConfirmationInput {
  actionId: string;
  /** What comes back with the click: the id to delete. */
  value: string;
  /** The question, mrkdwn already escaped. */
  question: string;
  /** What deleting does beyond the obvious, mrkdwn already escaped. */
  consequence: string;
  what: string;
  fallback: string;
}

function deleteConfirmation(input: DeleteConfirmationInput): SlackMessage {
  return {
    blocks: [
      section(`🗑️ ${input.question}\n${input.consequence}`),
      {
        type: 'actions',
        elements: [
          button({
            actionId: input.actionId,
            text: `Delete ${input.what}`,
            value: input.value,
            style: 'danger',
            confirm: {
              title: `Delete this ${input.what}?`,
              text: `${input.consequence} This cannot be undone.`,
              confirm: 'Delete',
              deny: 'Keep it',
              danger: true,
            },
          }),
        ],
      },
      contextLine('Nothing is deleted until you press Delete. Dismiss this message to keep it.'),
    ],
    text: input.fallback,
  };
}

export function scriptDeleteConfirmation(script: Script): SlackMessage {
  const assigned = script.machines?.length ?? 0;
  return deleteConfirmation({
    actionId: ActionId.scriptDelete,
    value: script.id,
    question: `Delete startup script ${bold(script.name)} (${code(script.id)})?`,
    consequence:
      assigned === 0
        ? 'It is not assigned to any machine.'
        : `It is removed at once from the ${plural(assigned, 'machine')} it is assigned to.`,
    what: 'script',
    fallback: `Delete startup script ${escapeMrkdwn(script.name)}?`,
  });
}

export function driveDeleteConfirmation(drive: SharedDrive): SlackMessage {
  const facts = [
    code(drive.id),
    drive.size === undefined ? undefined : formatGiB(drive.size),
    drive.region ? escapeMrkdwn(drive.region.name) : undefined,
  ].filter(Boolean);
  return deleteConfirmation({
    actionId: ActionId.driveDelete,
    value: drive.id,
    question: `Delete shared drive ${bold(drive.name)} (${facts.join(', ')})?`,
    consequence: 'Everything stored on it is lost, for every machine that mounts it.',
    what: 'drive',
    fallback: `Delete shared drive ${escapeMrkdwn(drive.name)}?`,
  });
}

/** What replaces a confirmation once the deletion is done. */
export function deletedNotice(what: 'startup script' | 'shared drive', id: string): SlackMessage {
  const text = `🗑️ Deleted ${what} ${code(id)}.`;
  return plainMessage(text);
}

// Short messages about one machine that the machine commands, buttons and modals answer with: the
// "requested by" line of a lifecycle card, why nothing was done, confirmations, the destroyed post.
// Names come from users and the API and are escaped; mentions are built from Slack user ids.
import type { Machine } from '../../../paperspace/schemas.js';
import { contextLine, section } from '../../../slack/block-kit/elements.js';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import {
  escapeMrkdwn,
  isoMinutes,
  LIMITS,
  mention,
  nameMrkdwn,
  type SlackMessage,
  slackDate,
  truncateMrkdwn,
} from '../../../slack/block-kit/text.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';
import type { PowerVerb, UnchangedReason } from '../machine-operations.js';
import { type MachineCardOptions, machineCard } from './machine-card.js';
import { stateLabel, stateMrkdwn } from './machine-state.js';

/** The state each power request moves a machine into first. */
const STATE_AFTER: Record<PowerVerb, string> = { start: 'starting', stop: 'stopping', restart: 'restarting' };

/** `🟡 Starting… requested by <@U1>`: the notice of the card posted for a power request. */
export function powerRequestedNotice(verb: PowerVerb, slackUserId: string): string {
  const { emoji, words } = stateLabel(STATE_AFTER[verb]);
  return `${emoji} ${escapeMrkdwn(words)}… requested by ${mention(slackUserId)}`;
}

/** `14:02` in the reader's time zone (`14:02 UTC` where Slack cannot localise it). */
const timeOfDay = (at: number) => slackDate(at, '{time}', isoMinutes(at).slice(11));

/** The command that follows a machine to a state, in backticks: the way to be told about it. */
const waitCommand = (machineName: string, state: string) => {
  const name = /\s/.test(machineName) ? `"${machineName}"` : machineName;
  return `\`${SLASH_COMMAND} wait ${escapeMrkdwn(name)} ${state}\``;
};

/**
 * The notice of a card for a request sent with --no-wait: no watch updates it, so it says when it was
 * drawn and how to follow the machine instead of "Starting…" for good.
 */
export function powerUnwatchedNotice(
  verb: PowerVerb,
  slackUserId: string,
  machine: Pick<Machine, 'name'>,
  targetState: string,
  at: number,
): string {
  return (
    `${verb[0]?.toUpperCase()}${verb.slice(1)} requested by ${mention(slackUserId)} at ${timeOfDay(at)}; ` +
    `not watched (--no-wait), so this card shows the state at that time. ` +
    `${waitCommand(machine.name, targetState)} tells you when it is ${targetState}.`
  );
}

/**
 * The notice of a card whose watch a newer operation on the same machine took over: what it last knew
 * is the card itself, this says when the watching stopped and where the story goes on.
 */
export function supersededNotice(operation: string, slackUserId: string, at: number): string {
  return `${takenOver(operation, slackUserId, at)}, see the newer card.`;
}

/**
 * The line that ends the row of a reminder, alert or digest whose Stop a newer operation took over: the
 * row said "stopping", and nothing will say more of it.
 */
export function supersededRowLine(
  machineName: string,
  operation: string,
  slackUserId: string,
  at: number,
): string {
  return `*${escapeMrkdwn(machineName)}*: ${takenOver(operation, slackUserId, at)}.`;
}

const takenOver = (operation: string, slackUserId: string, at: number) =>
  `⏹️ Stopped watching at ${timeOfDay(at)}: a newer ${escapeMrkdwn(operation)} by ${mention(slackUserId)} took over`;

/**
 * A second Start (Stop, Restart) while the first is under way and watched: nothing is sent again and no
 * second card is posted; the person is pointed at the card that follows it.
 */
export function alreadyUnderWayMessage(
  machine: Pick<Machine, 'name' | 'state'>,
  watch: {
    userId: string;
    channel: string;
    createdAt: number;
    targetState: string;
    messageTs?: string | null;
  },
): SlackMessage {
  const where = /^[CG]/.test(watch.channel) ? ` in <#${escapeMrkdwn(watch.channel)}>` : '';
  // A change asked from App Home has no card: the Home shows the state, and the person is told at the end.
  const follows =
    watch.messageTs === null
      ? `I am watching it until it is ${stateMrkdwn(watch.targetState)}. I sent nothing again.`
      : `its card${where} follows it to ${stateMrkdwn(watch.targetState)}. I sent nothing again; see that card.`;
  const text =
    `⏳ ${nameMrkdwn(machine.name)} is already ${escapeMrkdwn(stateLabel(machine.state).words.toLowerCase())}: ` +
    `${mention(watch.userId)} asked at ${timeOfDay(watch.createdAt)}, and ${follows}`;
  return plainMessage(text);
}

/**
 * A second click that arrived with the first: nothing was sent again, and the first request's card is
 * the one that follows the machine.
 */
export function alreadyRequestedMessage(
  machine: Pick<Machine, 'name'>,
  verb: PowerVerb,
  request: { by: string; at: number },
): SlackMessage {
  const text =
    `⏳ ${mention(request.by)} asked to ${verb} ${nameMrkdwn(machine.name)} at ${timeOfDay(request.at)}, ` +
    `moments ago, and that request is on its way: I sent nothing again. Its card follows the machine.`;
  return plainMessage(text);
}

/** Replaces an ephemeral card whose button was used: its buttons are stale, the live card is public. */
export function cardMovedNotice(verb: PowerVerb, machineName: string): SlackMessage {
  const { emoji, words } = stateLabel(STATE_AFTER[verb]);
  const text = `${emoji} ${escapeMrkdwn(words)} ${nameMrkdwn(machineName)}: the live card is posted in the conversation.`;
  return plainMessage(text);
}

/**
 * `🟡 Provisioning… created by <@U1>` (`… for <@U2>`, made for a teammate): the notice of the card of a
 * machine just created. One created with startOnCreate=false will not boot: the card says it rests
 * off once provisioned, and how to start it, rather than suggest it is on its way up.
 */
export function createdNotice(slackUserId: string, startsOnCreate = true, forUserId?: string): string {
  const { emoji, words } = stateLabel('provisioning');
  const made = forUserId === undefined ? '' : ` for ${mention(forUserId)}`;
  const notice = `${emoji} ${escapeMrkdwn(words)}… created by ${mention(slackUserId)}${made}`;
  if (startsOnCreate) return notice;
  return `${notice}, not started: it stays off once provisioned (start it with the Start button or \`${SLASH_COMMAND} start\`).`;
}

/** A line of mrkdwn (already escaped) above a machine card. */
function cardWithLine(line: string, machine: Machine, card: MachineCardOptions = {}): SlackMessage {
  return {
    blocks: [section(line), ...machineCard(machine, card)],
    text: truncateMrkdwn(line, LIMITS.sectionText),
  };
}

/** Why a power request was not sent, above the current card (which offers what can be done instead). */
export function powerUnchangedMessage(machine: Machine, reason: UnchangedReason): SlackMessage {
  const name = `${nameMrkdwn(machine.name)}`;
  const lines: Record<UnchangedReason, string> = {
    already_off: `ℹ️ ${name} is already off: there is nothing to stop.`,
    already_running: `ℹ️ ${name} is already running (${escapeMrkdwn(stateLabel(machine.state).words)}): there is nothing to start.`,
    off_cannot_restart: `ℹ️ ${name} is off, so there is nothing to restart. Start it with \`${SLASH_COMMAND} start ${escapeMrkdwn(machine.name)}\` or the Start button.`,
  };
  return cardWithLine(lines[reason], machine);
}

/** `🗑️ gpu-1 destroyed by <@U1>`: posted where the machine was shown, and replacing its card. */
export function destroyedMessage(machineName: string, slackUserId: string): SlackMessage {
  const text = `🗑️ ${nameMrkdwn(machineName)} destroyed by ${mention(slackUserId)}`;
  return {
    blocks: [section(text)],
    text: truncateMrkdwn(text, LIMITS.sectionText),
  };
}

/** Who gained or lost access: a Slack person (mentioned) or a Paperspace user id. */
export type AccessSubject = { slackUserId: string; paperspaceUserId: string } | { paperspaceUserId: string };

export function accessChangedMessage(
  machineName: string,
  subject: AccessSubject,
  granted: boolean,
): SlackMessage {
  const who =
    'slackUserId' in subject
      ? mention(subject.slackUserId)
      : // Only an id the person typed themselves: nobody in Slack is known by it.
        `Paperspace user \`${escapeMrkdwn(subject.paperspaceUserId)}\``;
  const name = `${nameMrkdwn(machineName)}`;
  const text = granted ? `✅ ${who} can now use ${name}.` : `✅ ${who} no longer has access to ${name}.`;
  return plainMessage(text);
}

/** A mentioned person has no linked key, so their Paperspace user is unknown. */
export function accessUserNotLinkedMessage(slackUserId: string): SlackMessage {
  const text =
    `⚠️ ${mention(slackUserId)} has not linked a Paperspace key, so I don't know their Paperspace user; ` +
    `ask them to \`${SLASH_COMMAND} login\`, or use their Paperspace user id.`;
  return plainMessage(text);
}

/** `✅ Updated gpu-1: machineName, shutdownTimeoutInHours.` above the refreshed card. */
export function updatedMessage(machine: Machine, changed: readonly string[]): SlackMessage {
  const fields = changed.map((field) => `\`${escapeMrkdwn(field)}\``).join(', ');
  const line = `✅ Updated ${nameMrkdwn(machine.name)}${fields ? `: ${fields}` : ''}.`;
  return cardWithLine(line, machine);
}

/**
 * The change was accepted, but the machine could not be read back: say it is done, and that the card
 * shown is not refreshed, with the way to see it now.
 */
export function updatedUnreadMessage(
  machineName: string,
  changed: readonly string[],
  reason: string,
): SlackMessage {
  const fields = changed.map((field) => `\`${escapeMrkdwn(field)}\``).join(', ');
  const text =
    `✅ Updated ${nameMrkdwn(machineName)}${fields ? `: ${fields}` : ''}. ` +
    `I could not read it back to refresh its card (${escapeMrkdwn(reason.replace(/[.\s]+$/, ''))}); ` +
    `\`${SLASH_COMMAND} show ${escapeMrkdwn(/\s/.test(machineName) ? `"${machineName}"` : machineName)}\` shows it as it is now.`;
  return plainMessage(text);
}

/** A card whose machine is gone: its buttons would only fail. */
export function destroyedCard(machineName: string, slackUserId: string): SlackMessage {
  const message = destroyedMessage(machineName, slackUserId);
  return { ...message, blocks: [...message.blocks, contextLine('This machine no longer exists.')] };
}

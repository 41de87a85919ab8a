// What people read about a watch: the line on the machine card while it runs and when it ends, and
// the one reply in the card's thread that says how it ended. Pure functions, escaped mrkdwn.
import { contextLine, section } from '../../slack/block-kit/elements.js';
import {
  escapeMrkdwn,
  LIMITS,
  nameMrkdwn,
  type SlackMessage,
  truncateMrkdwn,
} from '../../slack/block-kit/text.js';
import { SLASH_COMMAND } from '../../slack/ids.js';
import type { Watch } from '../../store/watch-types.js';
import { stateMrkdwn } from '../machines/blocks/machine-state.js';

/** How a watch ended; `done` carries the state reached (ready satisfies serviceready) and how long it took. */
export type WatchOutcome =
  | { status: 'done'; state: string; elapsedMs: number }
  /** Paperspace's event log says the operation (`start`, `stop`...) failed; `state` is the machine's now. */
  | { status: 'failed'; operation: string; message: string; state: string }
  /** Polling cannot go on (the key was unlinked); stored as failed. */
  | { status: 'stopped'; reason: string }
  /**
   * The operation's intent was recorded, but Paperspace shows no sign of it (intent-recovery.ts): the
   * replica sending it was lost before the call went out. `state` is the machine's now.
   */
  | { status: 'not_sent'; operation: string; state: string }
  | { status: 'timed_out'; lastState: string | null; lastError?: string }
  | { status: 'gone' };

type WatchSubject = Pick<Watch, 'userId' | 'machineName' | 'machineId' | 'targetState' | 'createdAt'> & {
  deadlineAt: number;
};

/** `45s`, `2m14s`, `1h05m`: short and exact enough for "how long did it take". */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) {
    const rest = seconds % 60;
    return rest === 0 ? `${minutes}m` : `${minutes}m${String(rest).padStart(2, '0')}s`;
  }
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours}h` : `${hours}h${String(rest).padStart(2, '0')}m`;
}

const mention = (userId: string) => `<@${escapeMrkdwn(userId)}>`;
const machine = (watch: WatchSubject) => `${nameMrkdwn(watch.machineName)}`;

/** The stored detail of a finished watch: why it ended as it did, for people reading the database. */
export function outcomeDetail(outcome: WatchOutcome): string | null {
  switch (outcome.status) {
    case 'done':
      return null;
    case 'failed':
      return `${outcome.operation} failed: ${outcome.message}`;
    case 'stopped':
      return outcome.reason;
    case 'not_sent':
      return `the ${outcome.operation} did not reach Paperspace`;
    case 'timed_out':
      return outcome.lastState === null ? 'deadline passed' : `deadline passed while ${outcome.lastState}`;
    case 'gone':
      return 'machine no longer exists or is no longer visible to the key';
  }
}

/** The card's notice line while the watch runs. */
export function waitingNotice(watch: Pick<WatchSubject, 'userId' | 'targetState'>): string {
  return `⏳ Waiting for ${stateMrkdwn(watch.targetState)}, requested by ${mention(watch.userId)}`;
}

/** The card's notice line once the watch has ended. */
export function finishedNotice(watch: WatchSubject, outcome: WatchOutcome): string {
  switch (outcome.status) {
    case 'done':
      return `✅ ${stateMrkdwn(outcome.state)} after ${formatElapsed(outcome.elapsedMs)}, requested by ${mention(watch.userId)}`;
    case 'failed':
      return `❌ The ${escapeMrkdwn(outcome.operation)} failed: ${escapeMrkdwn(outcome.message)}`;
    case 'stopped':
      return `⏹️ Stopped watching: ${escapeMrkdwn(outcome.reason)}`;
    case 'not_sent':
      return `⚠️ The ${escapeMrkdwn(outcome.operation)} requested by ${mention(watch.userId)} did not happen`;
    case 'timed_out':
      return `⌛ Stopped waiting for ${stateMrkdwn(watch.targetState)} after ${formatElapsed(watch.deadlineAt - watch.createdAt)}`;
    case 'gone':
      return `🗑️ ${machine(watch)} no longer exists`;
  }
}

/**
 * The row of a message listing machines (a reminder, an alert, a digest) once the watch a click on it
 * started has ended: the machine's name and how it ended, in the card's words.
 */
export function rowFinishedLine(watch: WatchSubject, outcome: WatchOutcome): string {
  if (outcome.status === 'gone') return finishedNotice(watch, outcome);
  if (outcome.status === 'done') {
    const after = `after ${formatElapsed(outcome.elapsedMs)}, requested by ${mention(watch.userId)}`;
    return outcome.state === 'off'
      ? `⚫ ${machine(watch)}: stopped ✓ ${after}`
      : `✅ ${machine(watch)}: ${stateMrkdwn(outcome.state)} ${after}`;
  }
  return `${machine(watch)}: ${finishedNotice(watch, outcome)}`;
}

/**
 * What replaces the card when the machine is gone: there is nothing left to show or to click, so the
 * buttons go too.
 */
export function goneCard(watch: WatchSubject): SlackMessage {
  const text = `🗑️ ${machine(watch)} no longer exists, or your Paperspace key can no longer see it.`;
  return {
    blocks: [section(text), contextLine(`ID \`${escapeMrkdwn(watch.machineId)}\``)],
    text,
  };
}

/** Ends a completion posted again when an earlier post of it may have landed: a repeat explains itself. */
export const MAY_REPEAT_NOTE =
  '_(Sent again: my earlier post of this got no answer from Slack, so you may see it twice.)_';

/** The one reply in the card's thread that says how the watch ended; it mentions who asked. */
export function completionReply(
  watch: WatchSubject,
  outcome: WatchOutcome,
  options: { mayRepeat?: boolean } = {},
): SlackMessage {
  const line = completionLine({ watch, outcome, mayRepeat: options.mayRepeat ?? false });
  return {
    blocks: [section(line)],
    text: line,
  };
}

/** One finished watch as a completion tells it: whose, which machine, how it ended. */
export interface Completion {
  watch: WatchSubject;
  outcome: WatchOutcome;
  /** An earlier post of it may have landed: it says so. */
  mayRepeat: boolean;
}

/**
 * The words of one completion, mentioning who asked; fits a section. `stateSaid`: a header above it
 * already says the state every machine reached, so the line says only whose machine and how long.
 */
function completionLine({ watch, outcome, mayRepeat }: Completion, stateSaid = false): string {
  const note = mayRepeat ? `\n${MAY_REPEAT_NOTE}` : '';
  const what =
    stateSaid && outcome.status === 'done'
      ? `${machine(watch)} (took ${formatElapsed(outcome.elapsedMs)})`
      : replyText(watch, outcome);
  return truncateMrkdwn(`${mention(watch.userId)} ${what}${note}`, LIMITS.sectionText);
}

/** The state every one of the completions reached, when they all reached the same one. */
function commonState(completions: readonly Completion[]): string | undefined {
  const states = new Set(
    completions.map(({ outcome }) => (outcome.status === 'done' ? outcome.state : undefined)),
  );
  const [state] = states;
  return states.size === 1 ? state : undefined;
}

/** "12 machines are 🟢 Ready:" when every one reached the same state, else "12 watches ended:". */
function completionsHeader(completions: readonly Completion[], state: string | undefined): string {
  if (state !== undefined) return `${completions.length} machines are ${stateMrkdwn(state)}:`;
  return `${completions.length} watches ended:`;
}

/** Lines joined into as few sections as Slack's section text limit allows, in order. */
function packedSections(lines: readonly string[]): string[] {
  const sections: string[] = [];
  let current = '';
  for (const line of lines) {
    if (current !== '' && current.length + 1 + line.length > LIMITS.sectionText) {
      sections.push(current);
      current = '';
    }
    current = current === '' ? line : `${current}\n${line}`;
  }
  if (current !== '') sections.push(current);
  return sections;
}

/**
 * Several completions in one message, a line each under a header, so that a channel where many
 * machines finish at once gets a few messages at Slack's pace instead of one a second per machine. Each
 * line names its machine, how it ended and mentions its person. The lines share sections (up to
 * Slack's 3,000 characters each), not a section each: Slack's 50 blocks a message would otherwise hold
 * 49 lines, and a channel of a thousand waiting people would drain at 49 a second.
 */
export function completionsMessage(completions: readonly Completion[]): SlackMessage {
  const state = commonState(completions);
  const header = completionsHeader(completions, state);
  // Under "12 machines are 🟢 Ready:" a line need not say Ready again: a third shorter, a third more a message.
  const lines = completions.map((completion) => completionLine(completion, state !== undefined));
  return {
    blocks: [section(header), ...packedSections(lines).map((packed) => section(packed))],
    text: [header, ...lines].join('\n'),
  };
}

function replyText(watch: WatchSubject, outcome: WatchOutcome): string {
  const target = stateMrkdwn(watch.targetState);
  switch (outcome.status) {
    case 'done':
      return `${machine(watch)} is ${stateMrkdwn(outcome.state)} (took ${formatElapsed(outcome.elapsedMs)}).`;
    case 'failed': {
      const now =
        outcome.state === watch.targetState ? '' : ` It is ${stateMrkdwn(outcome.state)}, not ${target}.`;
      return `❌ The ${escapeMrkdwn(outcome.operation)} of ${machine(watch)} failed: ${escapeMrkdwn(outcome.message)}.${now}`;
    }
    case 'stopped':
      return `⏹️ Stopped watching ${machine(watch)}: ${escapeMrkdwn(outcome.reason)}`;
    case 'not_sent':
      return (
        `⚠️ Your ${escapeMrkdwn(outcome.operation)} of ${machine(watch)} did not happen: I lost it before ` +
        `Paperspace took it, and the machine is still ${stateMrkdwn(outcome.state)}. ` +
        `\`${SLASH_COMMAND} ${escapeMrkdwn(outcome.operation)} ${escapeMrkdwn(watch.machineName)}\` asks again.`
      );
    case 'timed_out': {
      const now = outcome.lastState === null ? '' : ` It is ${stateMrkdwn(outcome.lastState)}.`;
      const error = outcome.lastError ? ` Last problem: ${escapeMrkdwn(outcome.lastError)}` : '';
      const again = `\`${SLASH_COMMAND} wait ${escapeMrkdwn(watch.machineId)} ${escapeMrkdwn(watch.targetState)}\``;
      return (
        `⌛ ${machine(watch)} did not become ${target} within ` +
        `${formatElapsed(watch.deadlineAt - watch.createdAt)}, so I stopped watching.${now}${error} ` +
        `${again} watches it again.`
      );
    }
    case 'gone':
      return (
        `🗑️ ${machine(watch)} no longer exists, or your Paperspace key can no longer see it ` +
        `(destroyed?). Stopped waiting for ${target}.`
      );
  }
}

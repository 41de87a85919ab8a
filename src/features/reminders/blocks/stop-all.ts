// What "Stop all N" on a reminder too big for one message did (the button itself is drawn with the
// reminder, blocks/reminder.ts): the machines it could not list run as surely as the ones it did. Its
// outcome replaces the button with a footer counting what happened (stop-all-tally.ts), and each listed
// row with its machine's; each machine's watch then ends its row and recounts the footer.
import type { KnownBlock } from '@slack/types';
import { contextLine, header } from '../../../slack/block-kit/elements.js';
import { escapeMrkdwn, nameMrkdwn } from '../../../slack/block-kit/text.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';
import {
  HEADER_PREFIX,
  reminderBlockId,
  reminderTitle,
  STOP_ALL_BLOCK_ID,
  stoppedRowBlockId,
} from './reminder.js';
import { type StopAllTally, stopAllFooter } from './stop-all-tally.js';

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The ids a Stop all button carries; throws on a value no reminder drew (a forged request). */
export function decodeStopAll(value: string): string[] {
  const ids = value.split(',');
  if (!ids.every((id) => ID_PATTERN.test(id))) {
    throw new Error('this Stop all button does not name machines I can read');
  }
  return [...new Set(ids)];
}

interface MachineNamed {
  id: string;
  name: string;
}

/** What a Stop all did, machine by machine. */
export interface StopAllOutcome {
  /** Paperspace took the stop, and a watch follows each to off. */
  stopping: MachineNamed[];
  /** Paperspace took the stop, but the clicker already followed as many machines as one person may. */
  unfollowed: MachineNamed[];
  alreadyOff: MachineNamed[];
  /** Someone had asked for the same stop moments before: not sent twice. */
  alreadyRequested: MachineNamed[];
  /** No longer among the person's machines (destroyed, or no longer theirs). */
  missing: string[];
  failed: { machine: MachineNamed; reason: string }[];
}

/**
 * What each machine's row says once Stop all ran, by machine id: a followed stop says "stopping" until its
 * watch redraws the row as stopped (or why not).
 */
export function stopAllRowLines(outcome: StopAllOutcome, clicker: string): Map<string, string> {
  const by = `Stop all by <@${escapeMrkdwn(clicker)}>`;
  const lines = new Map<string, string>();
  for (const machine of outcome.stopping)
    lines.set(machine.id, `🟤 ${nameMrkdwn(machine.name)}: stopping, ${by}`);
  for (const machine of outcome.unfollowed) {
    lines.set(
      machine.id,
      `🟤 ${nameMrkdwn(machine.name)}: asked to stop, ${by}; not followed, so \`${SLASH_COMMAND} show\` tells when it is off`,
    );
  }
  for (const machine of [...outcome.alreadyOff, ...outcome.alreadyRequested]) {
    lines.set(machine.id, `⚫ ${nameMrkdwn(machine.name)}: already off or being stopped`);
  }
  return lines;
}

/** A Stop all's counts as its stops were sent (`since`): none stopped yet. */
export function tallyOf(outcome: StopAllOutcome, clicker: string, since: number): StopAllTally {
  return {
    clicker,
    since,
    stopping: outcome.stopping.length,
    stopped: 0,
    failed: outcome.failed.length,
    alreadyOff: outcome.alreadyOff.length,
    alreadyRequested: outcome.alreadyRequested.length,
    missing: outcome.missing.length,
    unfollowed: outcome.unfollowed.length,
  };
}

/** The footer a Stop all starts with: its counts, and each failure with its reason. */
export function stopAllStarted(outcome: StopAllOutcome, clicker: string, since: number): KnownBlock {
  const failures = outcome.failed.map(
    ({ machine, reason }) => `${nameMrkdwn(machine.name)}: ${escapeMrkdwn(reason)}`,
  );
  return stopAllFooter(tallyOf(outcome, clicker, since), failures);
}

/**
 * The reminder once Stop all ran: each listed machine's row says what happened to it (a failed one keeps
 * its buttons), the "…and N more" line gives way to the summary, and the header counts what still runs.
 */
export function withStopAllDone(
  blocks: KnownBlock[],
  outcome: StopAllOutcome,
  { clicker, since }: { clicker: string; since: number },
): { blocks: KnownBlock[]; title: string } | undefined {
  if (!blocks.some((block) => block.block_id === STOP_ALL_BLOCK_ID)) return undefined;
  const lines = stopAllRowLines(outcome, clicker);
  const listed = new Set<string>();
  const redrawn = blocks.map((block) => {
    const id = block.block_id ?? '';
    const machineId = id.startsWith(reminderBlockId('')) ? id.slice(reminderBlockId('').length) : undefined;
    if (machineId !== undefined) listed.add(machineId);
    if (id.startsWith(stoppedRowBlockId(''))) listed.add(id.slice(stoppedRowBlockId('').length));
    const line = machineId === undefined ? undefined : lines.get(machineId);
    if (line !== undefined && machineId !== undefined) {
      return { ...contextLine(line), block_id: stoppedRowBlockId(machineId) };
    }
    if (id === STOP_ALL_BLOCK_ID) return stopAllStarted(outcome, clicker, since);
    return block;
  });
  // The header counts the listed rows and the unlisted machines still running: a row stopped later
  // then counts down from the right number.
  const unlistedRunning = outcome.failed.filter(({ machine }) => !listed.has(machine.id)).length;
  const stillRunning = redrawn.filter((block) => block.block_id?.startsWith(reminderBlockId(''))).length;
  const title = reminderTitle(stillRunning + unlistedRunning);
  return {
    blocks: redrawn.map((block) =>
      block.block_id?.startsWith(HEADER_PREFIX)
        ? header(title, `${HEADER_PREFIX}${listed.size + unlistedRunning}`)
        : block,
    ),
    title,
  };
}

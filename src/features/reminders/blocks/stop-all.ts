// What "Stop all N" on a reminder too big for one message did (the button itself is drawn with the
// reminder, blocks/reminder.ts): the machines it could not list run as surely as the ones it did. Its
// outcome replaces the button with what happened, and each listed row with its machine's.
import type { KnownBlock } from '@slack/types';
import { contextLine, header } from '../../../slack/block-kit/elements.js';
import { escapeMrkdwn, LIMITS, nameMrkdwn, plural, truncateMrkdwn } from '../../../slack/block-kit/text.js';
import {
  HEADER_PREFIX,
  reminderBlockId,
  reminderTitle,
  STOP_ALL_BLOCK_ID,
  stoppedRowBlockId,
} from './reminder.js';

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
  /** Paperspace took the stop: they are on their way to off. */
  stopping: MachineNamed[];
  alreadyOff: MachineNamed[];
  /** Someone had asked for the same stop moments before: not sent twice. */
  alreadyRequested: MachineNamed[];
  /** No longer among the person's machines (destroyed, or no longer theirs). */
  missing: string[];
  failed: { machine: MachineNamed; reason: string }[];
}

/** The outcome in one line, every count and each failure with its reason. */
export function stopAllSummary(outcome: StopAllOutcome, clicker: string): string {
  const parts = [`🟤 ${plural(outcome.stopping.length, 'machine')} stopping`];
  if (outcome.alreadyOff.length > 0) parts.push(`${outcome.alreadyOff.length} already off`);
  if (outcome.alreadyRequested.length > 0) {
    parts.push(`${outcome.alreadyRequested.length} already being stopped`);
  }
  if (outcome.missing.length > 0) parts.push(`${outcome.missing.length} no longer found`);
  if (outcome.failed.length > 0) parts.push(`❌ ${outcome.failed.length} could not be stopped`);
  const failures = outcome.failed.map(
    ({ machine, reason }) => `${nameMrkdwn(machine.name)}: ${escapeMrkdwn(reason)}`,
  );
  const why = failures.length > 0 ? ` ${failures.join('; ')}` : '';
  const line = `Stop all by ${clicker}: ${parts.join(', ')}.${why}`;
  // A context element holds 3,000 characters: a long list of failures says how it ends.
  return truncateMrkdwn(line, LIMITS.sectionText);
}

/**
 * The reminder once Stop all ran: each listed machine's row says what happened to it (a failed one keeps
 * its buttons), the "…and N more" line gives way to the summary, and the header counts what still runs.
 */
export function withStopAllDone(
  blocks: KnownBlock[],
  outcome: StopAllOutcome,
  clicker: string,
): { blocks: KnownBlock[]; title: string } | undefined {
  if (!blocks.some((block) => block.block_id === STOP_ALL_BLOCK_ID)) return undefined;
  const lines = new Map<string, string>();
  for (const machine of outcome.stopping) {
    lines.set(machine.id, `🟤 ${nameMrkdwn(machine.name)}: stopping, Stop all by ${clicker}`);
  }
  for (const machine of [...outcome.alreadyOff, ...outcome.alreadyRequested]) {
    lines.set(machine.id, `⚫ ${nameMrkdwn(machine.name)}: already off or being stopped`);
  }
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
    if (id === STOP_ALL_BLOCK_ID) return { ...contextLine(stopAllSummary(outcome, clicker)), block_id: id };
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

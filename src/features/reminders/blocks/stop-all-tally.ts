// The footer a Stop all leaves on its message (a reminder's, an alert's): what happened to every machine
// it named, in counts, ending like a single Stop does. At the click it counts the stops sent; each
// machine's watch then moves one of them from "stopping" to "stopped ✓" or to "could not be stopped"
// (with why) as it ends, until none is left stopping. The counts travel in the footer's block_id, so
// whatever redraws the message's kept copy (the watch of any one machine, on any replica) reads and
// recounts them there; the reasons are the footer's second element.
import type { ContextBlock, KnownBlock } from '@slack/types';
import { LIMITS, mrkdwn, plural, truncateMrkdwn } from '../../../slack/block-kit/text.js';

const TALLY_PREFIX = 'stop_all_done:';

/** What a Stop all did and what its stops have come to so far. */
export interface StopAllTally {
  /** The clicker's Slack user id. */
  clicker: string;
  /** When the stops were sent: only a watch started from then on is one of this Stop all's. */
  since: number;
  /** Stops sent and followed by a watch that has not ended yet. */
  stopping: number;
  stopped: number;
  failed: number;
  alreadyOff: number;
  alreadyRequested: number;
  missing: number;
  /** Stops sent that no watch follows: the clicker already followed as many machines as one person may. */
  unfollowed: number;
}

const COUNTS = [
  'since',
  'stopping',
  'stopped',
  'failed',
  'alreadyOff',
  'alreadyRequested',
  'missing',
  'unfollowed',
] as const;

function tallyBlockId(tally: StopAllTally): string {
  return TALLY_PREFIX + [tally.clicker, ...COUNTS.map((count) => tally[count])].join(':');
}

function readTally(blockId: string | undefined): StopAllTally | undefined {
  if (!blockId?.startsWith(TALLY_PREFIX)) return undefined;
  const [clicker, ...numbers] = blockId.slice(TALLY_PREFIX.length).split(':');
  const values = numbers.map(Number);
  if (clicker === undefined || values.length !== COUNTS.length || !values.every(Number.isSafeInteger)) {
    return undefined;
  }
  return {
    clicker,
    ...(Object.fromEntries(COUNTS.map((count, index) => [count, values[index]])) as Record<
      (typeof COUNTS)[number],
      number
    >),
  };
}

/** The counts in one line; "stopping" only while some stop is still on its way. */
export function stopAllSummary(tally: StopAllTally): string {
  const parts: string[] = [];
  if (tally.stopped > 0) parts.push(`⚫ ${plural(tally.stopped, 'machine')} stopped ✓`);
  if (tally.stopping > 0 || parts.length === 0) {
    parts.push(`🟤 ${plural(tally.stopping, 'machine')} stopping`);
  }
  if (tally.alreadyOff > 0) parts.push(`${tally.alreadyOff} already off`);
  if (tally.alreadyRequested > 0) parts.push(`${tally.alreadyRequested} already being stopped`);
  if (tally.missing > 0) parts.push(`${tally.missing} no longer found`);
  if (tally.unfollowed > 0) {
    parts.push(
      `${tally.unfollowed} asked to stop that I am not following (you already follow as many machines as one person can)`,
    );
  }
  if (tally.failed > 0) parts.push(`❌ ${tally.failed} could not be stopped`);
  return `Stop all by <@${tally.clicker}>: ${parts.join(', ')}.`;
}

/** The footer: the counts, then each failure with its reason (a long list says how it ends). */
export function stopAllFooter(tally: StopAllTally, failures: readonly string[]): ContextBlock {
  const reasons = failures.join('; ');
  return {
    type: 'context',
    block_id: tallyBlockId(tally),
    elements: [
      mrkdwn(stopAllSummary(tally)),
      ...(reasons === '' ? [] : [mrkdwn(truncateMrkdwn(reasons, LIMITS.sectionText))]),
    ],
  };
}

/** How the watch of one machine ended: `line` says how (and names the machine), `startedAt` when it began. */
export interface StopEnded {
  reached: boolean;
  line: string;
  startedAt: number;
}

/**
 * The message with its Stop all footer recounted for one machine's watch that ended. Undefined when the
 * message has no footer still waiting for stops, or the watch began before the Stop all (a single Stop
 * clicked earlier: Stop all counted that machine as already being stopped).
 */
export function withStopEnded(blocks: KnownBlock[], ended: StopEnded): KnownBlock[] | undefined {
  const index = blocks.findIndex((block) => readTally(block.block_id) !== undefined);
  const footer = blocks[index];
  const tally = readTally(footer?.block_id);
  if (footer === undefined || tally === undefined || tally.stopping === 0 || ended.startedAt < tally.since) {
    return undefined;
  }
  const recounted = {
    ...tally,
    stopping: tally.stopping - 1,
    stopped: tally.stopped + (ended.reached ? 1 : 0),
    failed: tally.failed + (ended.reached ? 0 : 1),
  };
  const earlier = footer.type === 'context' ? footer.elements.slice(1) : [];
  const failures = earlier.flatMap((element) => ('text' in element ? [element.text] : []));
  if (!ended.reached) failures.push(ended.line);
  return blocks.map((block, at) => (at === index ? stopAllFooter(recounted, failures) : block));
}

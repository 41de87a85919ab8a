// A message that lists machines in rows (a reminder, a forgotten-machine alert, a team digest) is not a
// machine card: a click answers in its own row, and a Stop's watch ends in the message's thread. So
// that the row does not say "stopping" for good, every redraw of such a message goes through its kept
// copy (store/row-messages.ts): a click redraws its row there, and the watch the click started redraws
// the same row once it ends (`createRowCompletion`, called by the watch reporter). The features whose
// messages these are sit above watches: each hands in how its rows end (`RowFinishers`, wired in
// features/index.ts), the way the App Home's redraw is handed in.
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { describeError } from '../../errors/describe-error.js';
import type { ButtonClick } from '../../slack/button-click.js';
import type { ChannelPacer } from '../../slack/channel-pacer.js';
import type { RowMessageDrawing, RowMessageRef, StoredRowMessage } from '../../store/row-messages.js';
import type { Store } from '../../store/store.js';
import type { Watch } from '../../store/watch-types.js';
import { rowFinishedLine, type WatchOutcome } from './watch-messages.js';

/** The messages with rows, by the feature that draws them. */
export type RowMessageKind = 'reminder' | 'cost_alert' | 'digest';

/** How the watch a click on a row started ended. */
interface RowEnded {
  machineId: string;
  /** How it ended, in one line naming the machine. */
  line: string;
  /** The machine got where the click sent it. */
  reached: boolean;
  /** When the watch began: a message's Stop all counts only the watches it started (its footer's). */
  startedAt: number;
}

/**
 * How a feature redraws the row of a machine (and whatever counts it) once the watch its click started
 * ended. Undefined when the message has nothing of that watch to redraw.
 */
export type RowFinisher = (message: RowMessageDrawing, ended: RowEnded) => RowMessageDrawing | undefined;

export type RowFinishers = Record<RowMessageKind, RowFinisher>;

/**
 * `blocks` with a machine's row replaced by `row`, which is drawn under the id that says whether the
 * machine still runs (`ids.live`) or was stopped from the message (`ids.stopped`), so a header can
 * count what still runs. Undefined when the message has no row of that machine under either id.
 */
export function withRowReplaced(
  blocks: KnownBlock[],
  ids: { live: string; stopped: string },
  stopped: boolean,
  row: (blockId: string) => KnownBlock,
): KnownBlock[] | undefined {
  const rowIds = [ids.live, ids.stopped];
  if (!blocks.some((block) => rowIds.includes(block.block_id ?? ''))) return undefined;
  const replacement = row(stopped ? ids.stopped : ids.live);
  return blocks.map((block) => (rowIds.includes(block.block_id ?? '') ? replacement : block));
}

type RowStore = Pick<Store, 'rowMessages'>;

/**
 * Sends the kept drawing to Slack. Another writer may have redrawn the message while this update was
 * on its way and had its own update land first: the newer drawing is then sent after this one.
 */
async function sendLatest(
  web: WebClient,
  store: RowStore,
  ref: RowMessageRef,
  drawn: StoredRowMessage,
): Promise<void> {
  let sent = drawn;
  for (let round = 0; round < 3; round += 1) {
    await web.chat.update({ channel: ref.channel, ts: ref.ts, blocks: sent.blocks, text: sent.text });
    const latest = await store.rowMessages.find(ref);
    if (latest === undefined || latest.version <= sent.version) return;
    sent = latest;
  }
}

interface RowRedraw {
  /** What the click did, in one line: told to the clicker alone when there is no message to redraw. */
  done: string;
  /** The message with the clicked row redrawn; undefined when it no longer has that row. */
  redraw: (message: RowMessageDrawing) => { blocks: KnownBlock[]; text?: string } | undefined;
  /** Names the message in the log line when it cannot be edited ("the row of a reminder"). */
  what: string;
}

/** Where a clicked row's message is kept, and the clock its drawing is stamped with. */
export interface ClickedRows {
  store: Pick<Store, 'rowMessages'>;
  now: () => number;
}

/**
 * Redraws the clicked row of a message of `kind`, from its kept copy (the click's own copy of the
 * message the first time). An ephemeral message or App Home has nothing to redraw: the clicker is told
 * `done` privately. A message Slack will not let us edit is logged: what the click asked for is done.
 */
export async function redrawClickedRow(
  web: WebClient,
  click: Pick<ButtonClick, 'message' | 'channelId' | 'logger' | 'replyPrivately' | 'user'>,
  rows: ClickedRows,
  kind: RowMessageKind,
  { done, redraw, what }: RowRedraw,
): Promise<void> {
  const { message, channelId } = click;
  if (message === undefined || channelId === undefined) {
    await click.replyPrivately({ blocks: [], text: done });
    return;
  }
  const ref = { teamId: click.user.teamId, channel: channelId, ts: message.ts };
  try {
    const drawn = await rows.store.rowMessages.redraw(
      ref,
      { kind, current: { blocks: message.blocks, text: message.text } },
      (kept) => {
        const next = redraw(kept);
        return next && { blocks: next.blocks, text: next.text ?? kept.text };
      },
      rows.now(),
    );
    if (drawn !== undefined) await sendLatest(web, rows.store, ref, drawn);
  } catch (error) {
    click.logger.warn({ error: describeError(error) }, `could not update ${what}`);
  }
}

/**
 * Redraws the row a watch was started from with `line`, saying how the watch ended (`reached`: the
 * machine got where the click sent it). A watch started from a row has no card of its own (`messageTs`
 * null) and replies in the row's message's thread (`threadTs`): that message is the one to redraw, if
 * a click kept a copy of it. Never throws: the watch has ended either way.
 */
export function createRowRedraw(deps: {
  store: RowStore;
  pacer: ChannelPacer;
  finishers: RowFinishers;
  logger: Logger;
  now: () => number;
}): (web: WebClient, watch: Watch, line: string, reached: boolean) => Promise<void> {
  const { store, finishers, logger } = deps;
  const isKind = (kind: string): kind is RowMessageKind => Object.hasOwn(finishers, kind);
  /**
   * The messages with an update on its way, and whether a redraw came in since it read the kept copy.
   * The watches of a Stop all of 25 machines end in one tick, each redrawing its row of one message: the
   * update in flight is followed by one more with every row drawn meanwhile, not by one per row.
   */
  const inFlight = new Map<string, { again: boolean }>();
  const send = async (web: WebClient, ref: RowMessageRef) => {
    const key = `${ref.teamId}/${ref.channel}/${ref.ts}`;
    const sending = inFlight.get(key);
    if (sending !== undefined) {
      sending.again = true;
      return;
    }
    const state = { again: true };
    inFlight.set(key, state);
    let sent = -1;
    try {
      while (state.again) {
        state.again = false;
        // Paced like a card's update: a newer redraw of the same message waiting replaces this one, and
        // each sends the copy as it is when its turn comes (nothing when an earlier turn sent it).
        await deps.pacer.update(`${ref.channel}/${ref.ts}`, async () => {
          const latest = await store.rowMessages.find(ref);
          if (latest === undefined || latest.version <= sent) return;
          sent = latest.version;
          await web.chat.update({
            channel: ref.channel,
            ts: ref.ts,
            blocks: latest.blocks,
            text: latest.text,
          });
        });
      }
    } finally {
      inFlight.delete(key);
    }
  };
  return async (web, watch, line, reached) => {
    if (watch.messageTs !== null || watch.threadTs === null) return;
    const ref = { teamId: watch.teamId, channel: watch.channel, ts: watch.threadTs };
    try {
      const drawn = await store.rowMessages.redraw(
        ref,
        undefined,
        (kept) =>
          isKind(kept.kind)
            ? finishers[kept.kind](kept, {
                machineId: watch.machineId,
                line,
                reached,
                startedAt: watch.createdAt,
              })
            : undefined,
        deps.now(),
      );
      if (drawn !== undefined) await send(web, ref);
    } catch (error) {
      logger.warn(
        { watchId: watch.id, channel: ref.channel, error: describeError(error) },
        'could not update the row that started a watch',
      );
    }
  };
}

/** Redraws the row a watch was started from once the watch ends, with how it ended. */
export function createRowCompletion(
  deps: Parameters<typeof createRowRedraw>[0] & { slack: (teamId: string) => Promise<WebClient> },
): (watch: Watch, outcome: WatchOutcome) => Promise<void> {
  const redraw = createRowRedraw(deps);
  return async (watch, outcome) => {
    if (watch.messageTs !== null || watch.threadTs === null) return;
    await redraw(
      await deps.slack(watch.teamId),
      watch,
      rowFinishedLine(watch, outcome),
      outcome.status === 'done',
    );
  };
}

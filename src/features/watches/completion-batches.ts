// Completions that wait for the same channel go out together. Slack takes about one message a second
// in a channel, threads included, so a team whose 30 machines finish in one tick would otherwise wait
// half a minute for the last reply. Each channel has one turn at a time in the channel pacer's lane;
// when it comes, every completion waiting for that channel by then goes in one message (as many as
// fit Slack's message budget; the rest take the next turn, never dropped):
// - a single completion reads as it always has: one reply in its card's thread, through the whole
//   fallback chain of posting.ts;
// - several in the same thread (or all at the channel's top level) are one reply there;
// - several across different cards' threads are one message in the channel itself, a line per machine
//   mentioning its person: one post cannot reply in several threads, and each card is still updated to
//   its final state by the reporter, so a thread's reader sees how it ended on the card.
// A channel that refuses the coalesced message (the bot was removed) sends each person their own line
// down the rest of the chain: their DM, then an ephemeral message. A message Slack still rate limits
// after waiting out its Retry-After (another app posting there too) is not refused: its completions go
// first in the channel's next turn, a few turns at most (RATE_LIMITED_TURNS), and then each to its
// person's DM, saying which channel would not take it.
import type { Logger } from 'pino';
import { describeError } from '../../errors/describe-error.js';
import type { WorkspaceSlack } from '../../scheduler/job.js';
import { blockTextLength, MESSAGE_BUDGET } from '../../slack/block-kit/message-budget.js';
import type { ChannelPacer } from '../../slack/channel-pacer.js';
import {
  afterFailedPost,
  type Delivery,
  deliver,
  isRefusedConversation,
  postIn,
  RATE_LIMITED,
  slackRefusalText,
  stillRateLimited,
} from '../../slack/posting.js';
import type { Watch } from '../../store/watch-types.js';
import { type Completion, completionReply, completionsMessage } from './watch-messages.js';

/** One finished watch waiting for its channel's turn. */
interface WaitingCompletion extends Completion {
  watch: Watch;
  /** Called right before the post that carries it leaves (its turn came). */
  sending: () => Promise<void>;
}

interface Queued extends WaitingCompletion {
  settle: (delivery: Delivery) => void;
  fail: (error: unknown) => void;
  /** Turns of the channel in which Slack still rate limited the message carrying it. */
  rateLimitedTurns: number;
}

export interface CompletionBatches {
  /** Resolves with where this completion landed, once the message carrying it was posted (or refused). */
  post(completion: WaitingCompletion): Promise<Delivery>;
}

/** The pacer's sender for completions: one turn of a channel carries everyone's. */
const COMPLETIONS = 'watch completions';
/**
 * Turns a completion may take again after Slack still rate limited its message (each turn already
 * waited out Retry-After several times: posting.ts). Past them it is handed back undelivered and stays
 * due for a retry (watch-outcomes.ts): held here for ever, it would be posted by another replica too
 * once its report came due.
 */
const RATE_LIMITED_TURNS = 3;

const threadOf = (watch: Watch) => watch.threadTs ?? watch.messageTs ?? undefined;

/** True when one message of these completions keeps within Slack's budget. */
function fits(batch: readonly Queued[]): boolean {
  const { blocks } = completionsMessage(batch);
  return blocks.length <= MESSAGE_BUDGET.blocks && blockTextLength(blocks) <= MESSAGE_BUDGET.text;
}

/**
 * The most of `waiting`, in order, that one message holds within Slack's budget (at least one). A
 * binary search: a channel of a thousand waiting people holds a hundred or more a message, and trying
 * each count downwards would build hundreds of messages for one turn.
 */
function fitting(waiting: readonly Queued[]): Queued[] {
  let fitsCount = 1;
  let tooMany = waiting.length + 1;
  while (tooMany - fitsCount > 1) {
    const count = Math.floor((fitsCount + tooMany) / 2);
    if (fits(waiting.slice(0, count))) fitsCount = count;
    else tooMany = count;
  }
  return waiting.slice(0, fitsCount);
}

/** Which waiting completions the next message carries, and in which thread (none: the channel). */
function nextBatch(waiting: readonly Queued[]): { batch: Queued[]; threadTs: string | undefined } {
  const [first] = waiting;
  if (first === undefined) return { batch: [], threadTs: undefined };
  const thread = threadOf(first.watch);
  const sameThread = waiting.every((item) => threadOf(item.watch) === thread);
  const batch = fitting(waiting);
  return { batch, threadTs: batch.length === 1 || sameThread ? thread : undefined };
}

export function createCompletionBatches(deps: {
  slack: WorkspaceSlack;
  pacer: ChannelPacer;
  logger: Logger;
}): CompletionBatches {
  const { slack, pacer, logger } = deps;
  /** Each (workspace, channel) with completions waiting, in arrival order; present while its turn is asked. */
  const waiting = new Map<string, Queued[]>();

  /** The one completion alone, as a reply in its card's thread through the whole chain. */
  const sendOne = async (item: Queued) => {
    const { watch } = item;
    await item.sending();
    return deliver(
      await slack(watch.teamId),
      {
        channel: watch.channel,
        userId: watch.userId,
        threadTs: threadOf(watch),
        // Its last turn goes to the person's DM if Slack still rate limits the channel.
        retriesLater: item.rateLimitedTurns < RATE_LIMITED_TURNS,
      },
      completionReply(watch, item.outcome, { mayRepeat: item.mayRepeat }),
    );
  };

  /** Several in one message; per completion, where it landed. */
  const sendTogether = async (batch: Queued[], threadTs: string | undefined): Promise<Delivery[]> => {
    const [{ watch }] = batch as [Queued];
    const web = await slack(watch.teamId);
    // All at once, not one after another: a message carries a hundred or more, and each is a write
    // the post (and the channel's turn) waits for.
    await Promise.all(batch.map((item) => item.sending()));
    const message = completionsMessage(batch);
    const places = threadTs === undefined ? [undefined] : [threadTs, undefined];
    let failure: unknown;
    for (const place of places) {
      try {
        const posted = await postIn(
          web,
          { channel: watch.channel, ...(place ? { threadTs: place } : {}) },
          message,
        );
        return batch.map(() => ({ landed: 'channel', ...posted }));
      } catch (error) {
        failure = error;
        // A thread whose card was deleted refuses replies: the channel itself may still take it.
        if (!isRefusedConversation(error)) break;
      }
    }
    const refusal = slackRefusalText(failure);
    const next = afterFailedPost(failure);
    // Still rate limited on the batch's last turn: each person gets their line in their DM, as below.
    const lastTurn = batch.every((item) => item.rateLimitedTurns >= RATE_LIMITED_TURNS);
    const giveUp = next !== 'elsewhere' && !(refusal === RATE_LIMITED && lastTurn);
    if (giveUp) return batch.map(() => ({ landed: next, refusal }));
    // The channel refused the bot (or kept rate limiting it): each person still gets their own line, in
    // their DM or ephemerally.
    // Not through the pacer: this turn holds the lane of a DM watch's channel, the person's DM itself.
    const deliveries: Delivery[] = [];
    for (const item of batch) {
      deliveries.push(
        await deliver(
          web,
          { channel: item.watch.channel, userId: item.watch.userId, refusedHere: refusal },
          completionReply(item.watch, item.outcome, { mayRepeat: item.mayRepeat }),
        ),
      );
    }
    return deliveries;
  };

  const turn = async (key: string) => {
    const queue = waiting.get(key) ?? [];
    const { batch, threadTs } = nextBatch(queue);
    const rest = queue.slice(batch.length);
    if (rest.length > 0) {
      waiting.set(key, rest);
      askTurn(key, rest[0]?.watch.channel ?? '');
    } else {
      waiting.delete(key);
    }
    try {
      const deliveries =
        batch.length === 1 ? [await sendOne(batch[0] as Queued)] : await sendTogether(batch, threadTs);
      const again: Queued[] = [];
      for (const [index, item] of batch.entries()) {
        const delivery = deliveries[index] as Delivery;
        if (stillRateLimited(delivery) && item.rateLimitedTurns < RATE_LIMITED_TURNS) {
          again.push({ ...item, rateLimitedTurns: item.rateLimitedTurns + 1 });
        } else {
          item.settle(delivery);
        }
      }
      // "Not yet", not "not here": the batch goes first in the channel's next turn.
      if (again.length > 0) requeue(key, again);
    } catch (error) {
      for (const item of batch) item.fail(error);
    }
  };

  /** Puts completions back at the front of their channel's queue, asking a turn if none is asked. */
  function requeue(key: string, items: Queued[]) {
    const queue = waiting.get(key);
    if (queue !== undefined) {
      queue.unshift(...items);
      return;
    }
    waiting.set(key, items);
    askTurn(key, items[0]?.watch.channel ?? '');
  }

  function askTurn(key: string, channel: string) {
    // A turn settles its completions itself; a failure here is a bug in the turn, logged, never lost silently.
    pacer
      .message(channel, () => turn(key), COMPLETIONS)
      .catch((error: unknown) => {
        logger.error({ channel, error: describeError(error) }, 'a turn of completions failed');
      });
  }

  return {
    post(completion) {
      return new Promise<Delivery>((settle, fail) => {
        const { watch } = completion;
        const key = `${watch.teamId}/${watch.channel}`;
        const queue = waiting.get(key);
        const queued = { ...completion, settle, fail, rateLimitedTurns: 0 };
        if (queue !== undefined) {
          queue.push(queued);
          return;
        }
        waiting.set(key, [queued]);
        askTurn(key, watch.channel);
      });
    },
  };
}

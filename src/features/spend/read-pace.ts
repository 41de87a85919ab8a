// How many reads of one report go to Paperspace at once. A report reads one figure per machine (its
// utilization, or a running machine's events), so a person with 5,000 machines is 5,000 calls with one
// key: four at a time took minutes, all at once is a burst Paperspace answers with 429. Paperspace
// publishes no per-key limit, so the pace finds it as TCP finds a link's: it starts with START_READS
// in flight and adds one for each read that comes back (twice as many each round trip) up to
// MOST_READS; a 429 halves the reads in flight and pauses the key's new reads for as long as Paperspace
// asks (as the watch poller pauses a key). From then on the pace grows as before up to three quarters
// of where the 429 came, and by one per round trip past that: halving and creeping back by one would
// leave a key that touched its limit once reading at half its pace for minutes.
// The call that got the 429 is retried by the client itself after Retry-After.
//
// One pace per key (per Slack person) and bot, so the digest and a /ps spend of the same person share
// it; a pace is forgotten once nothing of it is in flight or paused.
import type { PaperspaceRateLimitError } from '../../paperspace/errors.js';
import type { RequestOptions } from '../../paperspace/http.js';
import type { SlackUser } from '../../store/slack-user.js';

/** In flight before the first answers: about what one person's commands send at once anyway. */
const START_READS = 32;
/**
 * The most in flight for one key: 5,000 machines at 250 ms a call in about 3 s. Half the bot's
 * connection pool (bot.ts), so everyone else's commands still find sockets.
 */
const MOST_READS = 512;
/** Reads let go in one turn of the event loop at most. */
const RELEASED_PER_TURN = 16;
/** A 429 without Retry-After pauses the key's new reads this long. */
const DEFAULT_PAUSE_MS = 1000;
/** The longest pause a 429 asks that is honoured here; the client gives up on longer ones itself. */
const MAX_PAUSE_MS = 60_000;

export interface ReadPace {
  /** Runs `read` when the key has room, with the options that tell the pace of its 429s. */
  run<T>(read: (options: RequestOptions) => Promise<T>): Promise<T>;
}

const paces = new WeakMap<object, Map<string, ReadPace>>();

/** The pace of `user`'s key in the bot whose client factory is `owner`. */
export function readPaceOf(owner: object, user: SlackUser): ReadPace {
  let ofBot = paces.get(owner);
  if (ofBot === undefined) {
    ofBot = new Map();
    paces.set(owner, ofBot);
  }
  const key = `${user.teamId}:${user.userId}`;
  const found = ofBot.get(key);
  if (found !== undefined) return found;
  const pace = createReadPace(() => {
    if (ofBot.get(key) === pace) ofBot.delete(key);
  });
  ofBot.set(key, pace);
  return pace;
}

function createReadPace(idle: () => void): ReadPace {
  let limit = START_READS;
  /** Below this the pace doubles each round trip; past it, one more per round trip. */
  let growsFastUntil = Number.POSITIVE_INFINITY;
  /**
   * Counts the 429s' slowdowns: a read let go before the last one comes back at the pace that was
   * refused, so it makes no room for more.
   */
  let slowdowns = 0;
  let inFlight = 0;
  let paused: NodeJS.Timeout | undefined;
  /** Reads waiting for room, in order, from `next` on (an index: 5,000 shifts would copy the rest each time). */
  let waiting: Array<() => void> = [];
  let next = 0;
  const queued = () => waiting.length - next;

  // Let go this turn of the event loop, and whether the turn's end (which resets it) is queued. Every
  // read that comes back lets the pace go again, so the count is per turn, not per call: a hundred
  // answers in one turn each letting a few go would send hundreds of requests before Slack's next one.
  let releasedThisTurn = 0;
  let turnEndQueued = false;
  const pump = () => {
    // Each read let go sends its request (opening a socket, often) before the event loop turns again:
    // a few each turn, so letting hundreds go at once never holds Slack's requests back.
    while (
      releasedThisTurn < RELEASED_PER_TURN &&
      paused === undefined &&
      inFlight < Math.floor(limit) &&
      queued() > 0
    ) {
      inFlight += 1;
      releasedThisTurn += 1;
      const turn = waiting[next];
      next += 1;
      turn?.();
    }
    if (queued() === 0 && next > 0) {
      waiting = [];
      next = 0;
    }
    if (releasedThisTurn > 0 && !turnEndQueued) {
      turnEndQueued = true;
      setImmediate(() => {
        turnEndQueued = false;
        releasedThisTurn = 0;
        pump();
      });
    }
    if (inFlight === 0 && queued() === 0 && paused === undefined) idle();
  };
  const rateLimited = (error: PaperspaceRateLimitError) => {
    // The 429s of one burst are one answer: the pace slows once for them, not once per read.
    if (paused !== undefined) return;
    growsFastUntil = Math.max(1, Math.floor((limit * 3) / 4));
    limit = Math.max(1, Math.floor(limit / 2));
    slowdowns += 1;
    const wait = Math.min(error.retryAfterMs ?? DEFAULT_PAUSE_MS, MAX_PAUSE_MS);
    paused = setTimeout(() => {
      paused = undefined;
      pump();
    }, wait);
    paused.unref();
  };
  const options: RequestOptions = { onRateLimited: rateLimited };

  return {
    async run(read) {
      await new Promise<void>((turn) => {
        waiting.push(turn);
        pump();
      });
      const sentAfter = slowdowns;
      try {
        const value = await read(options);
        if (sentAfter === slowdowns)
          limit = Math.min(MOST_READS, limit + (limit < growsFastUntil ? 1 : 1 / limit));
        return value;
      } finally {
        inFlight -= 1;
        pump();
      }
    },
  };
}

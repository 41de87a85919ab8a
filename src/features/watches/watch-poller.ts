// One poll of every active watch this replica holds, each person's poll a task of its own. Watches
// are grouped by the person whose key polls: one getMachines call answers all of that person's watches (more only when their account
// spans several pages, person-machine-list.ts), and each watch then takes its step from what the list
// showed (watch-steps.ts). A machine the list shows at its target, polled here last tick, ends the
// watch with no further call.
// The same list, made once per person per tick under the person's lease, is what other features'
// machine checks read (the cost guard); a linked person without watches is listed only when one of
// those checks is due.
// No tick waits for anyone: a tick claims its people and leaves each person's poll for their own
// moment of the interval (interval-spread.ts), so a replica's calls, and the completions they find,
// come at an even pace rather than all at the tick. Each poll is cut off at a deadline shorter than
// the poll interval, counted from its moment (not from when it got its place under the concurrency
// cap), and a poll still waiting for its place near that deadline is dropped for this interval: every
// poll has ended before the person's next moment. A person whose last poll is still under way is
// skipped for this interval rather than waited for, so one account whose requests hang (an incident,
// a stuck connection) delays nobody else's completion.
// What one person's poll does, once it runs, is in person-poll.ts.

import { setMaxListeners } from 'node:events';
import { describeError } from '../../errors/describe-error.js';
import { PaperspaceTimeoutError } from '../../paperspace/errors.js';
import { createLimiter } from '../../scheduler/concurrency.js';
import { createIntervalSpread, type SpreadTimer } from '../../scheduler/interval-spread.js';
import type { PersonMachineCheck, PollSkipReason, TickCause } from '../../scheduler/job.js';
import type { Store } from '../../store/store.js';
import type { HeldPerson, PolledWatch } from '../../store/watch-leases.js';
import type { KeyVault } from '../../vault/key-vault.js';
import type { JobResources } from '../job-needs.js';
import { createPersonKeys } from './person-keys.js';
import { createPersonPoll } from './person-poll.js';
import { createPersonPollTroubles } from './person-poll-troubles.js';
import { createPollFailureStreaks } from './poll-failure-streaks.js';
import type { WatchOutcomes } from './watch-outcomes.js';
import { createWatchReads } from './watch-reads.js';
import type { WatchReporter } from './watch-reporter.js';
import { createWatchSteps } from './watch-steps.js';

export interface WatchPollerDeps extends Pick<JobResources, 'clients' | 'logger' | 'now' | 'pollIntervalMs'> {
  store: Pick<Store, 'watches' | 'watchLeases'>;
  /** Opens a person's key when it is not kept from an earlier poll (person-keys.ts). */
  vault: Pick<KeyVault, 'credentials'>;
  /** Updates the cards of watches under way. */
  reporter: WatchReporter;
  /** Posts the outcome of a watch that ends. */
  outcomes: WatchOutcomes;
  /** This replica, as named in the watches' leases. */
  owner: string;
  /** How long a claim on a person lasts; renewed every tick. */
  leaseMs: number;
  /**
   * The scheduler's clock and timer for each person's moment of the interval; without it (a test firing
   * ticks by hand) every poll starts with its tick.
   */
  spread?: SpreadTimer;
  /**
   * People whose machines are being listed at the same time (POLL_CONCURRENCY). Polls come at their
   * people's moments, spread over the interval, so the cap binds only when Paperspace answers slowly or
   * not at all. A poll gives its place back once its list is in.
   */
  concurrency: number;
  /**
   * Other features' checks of a person's machines (the cost guard), handed the list this poll makes:
   * a person with watches costs no extra call, and one without is listed only when a check is due.
   */
  checks?: readonly PersonMachineCheck[];
  /**
   * Told of each person not polled in an interval: their last poll had not answered (`unanswered`), or
   * theirs waited for a place under the concurrency cap until its deadline (`no_slot`).
   */
  pollSkipped?: (reason: PollSkipReason) => void;
}

export interface WatchPoller {
  /**
   * Claims this replica's people and sets each one's poll going: at their moment of the interval on a
   * tick of the timer, at once on an explicit one. Does not wait for them.
   */
  tick(cause?: TickCause): Promise<void>;
  /** Resolves when every poll started so far has ended. */
  settled(): Promise<void>;
  /** Drops the polls placed for later in the interval (the scheduler is stopping). */
  halt(): void;
}

/**
 * A poll is cut off at this share of the poll interval after its moment: it then has ended before the
 * person's next moment, while 250 ms of API latency (or a few pages) leaves it plenty
 * of room.
 */
const POLL_DEADLINE_SHARE = 0.8;

/**
 * A poll whose place under the cap comes with less than this share of the interval left before its
 * deadline is dropped rather than started: a list call cannot answer in that time, and its timeout
 * would read as a failure of the person's key (and blame Paperspace for the bot's own queue). A tenth
 * (0.5 s) was too little under load: at 10,000 people on two replicas lists took about 1 s, and 6,000
 * polls in one round started that late timed out, each a call made for nothing.
 */
const MIN_POLL_SHARE = 0.2;

/** When a moment's polls are cut off: `signal` aborts then; `startedAt` is the moment (performance.now()). */
interface PollDeadline {
  signal: AbortSignal;
  startedAt: number;
}

/** A held person's poll as a claim hands it out: who they are, and their active watches. */
interface PersonGroup {
  user: HeldPerson;
  watches: PolledWatch[];
}

export function createWatchPoller(deps: WatchPollerDeps): WatchPoller {
  const { store, logger } = deps;
  const troubles = createPersonPollTroubles(deps.pollIntervalMs, deps.now);
  const failures = createPollFailureStreaks(logger, deps.now);
  const steps = createWatchSteps({ ...deps, troubles });
  const keys = createPersonKeys(deps);
  const reads = createWatchReads(store);
  // Shared by every moment: a poll still under way counts against the cap of the later ones.
  const limiter = createLimiter(deps.concurrency);
  /** Absent when a test fires the ticks by hand: every poll then starts with its tick. */
  const spread =
    deps.spread === undefined
      ? undefined
      : createIntervalSpread({ intervalMs: deps.pollIntervalMs, timer: deps.spread });
  /** The people this replica held at its last claim: a poll placed before a claim gave them up is not made. */
  let holding = new Set<string>();
  const deadlineMs = Math.max(1, Math.floor(deps.pollIntervalMs * POLL_DEADLINE_SHARE));
  const minPollMs = deps.pollIntervalMs * MIN_POLL_SHARE;
  /** Polls started and not ended, by person. */
  const inFlight = new Map<string, Promise<void>>();
  /** People skipped since their poll started, logged once per stuck poll rather than every interval. */
  const skippedOnce = new Set<string>();
  /**
   * People whose poll waited for a place under the cap past its deadline since the last tick: that tick
   * logs how many, and starts their polls first, so the same people are not the ones dropped again.
   */
  let dropped = new Set<string>();

  const personPoll = createPersonPoll({ ...deps, troubles, failures, steps, keys, reads });

  /**
   * One person's poll, bounded by a deadline that counts from the tick. Its Paperspace part waits for
   * a place under the cap; one whose place comes after the deadline, or too close to it
   * (MIN_POLL_SHARE), is dropped for this interval. The place is given back once the list is in:
   * reading the watches and writing their steps wait for the store, not for Paperspace, and holding
   * the place through them kept a quarter of the people waiting longer for theirs.
   */
  function startPoll(
    userKey: string,
    user: HeldPerson,
    claimed: readonly PolledWatch[],
    deadline: PollDeadline,
  ): Promise<void> | undefined {
    const due = (deps.checks ?? []).some((check) => check.due(user, deps.now()));
    if (claimed.length === 0 && !due) return undefined;
    const { signal, startedAt } = deadline;
    const poll = (async () => {
      const looked = await limiter.run(async () => {
        if (signal.aborted || performance.now() - startedAt > deadlineMs - minPollMs) return undefined;
        return personPoll.look(user, userKey, claimed, due, signal);
      });
      if (looked === undefined) return noSlot(userKey);
      const listedAt = performance.now();
      try {
        await personPoll.act(user, userKey, claimed, looked, signal);
      } finally {
        // Per person and tick, so debug only: how long each poll took, when one is suspected slow.
        logger.debug(
          {
            user: userKey,
            watches: claimed.length,
            msToList: Math.round(listedAt - startedAt),
            ms: Math.round(performance.now() - startedAt),
          },
          'polled a user',
        );
      }
    })()
      .catch((error: unknown) => {
        logger.error({ user: userKey, error: describeError(error) }, 'a poll failed; retrying next tick');
      })
      .finally(() => {
        inFlight.delete(userKey);
        skippedOnce.delete(userKey);
      });
    inFlight.set(userKey, poll);
    return poll;
  }

  /**
   * The deadline the polls of one moment share, POLL_DEADLINE_SHARE of the interval from it: one timer
   * and one reason a moment, not one a person (at 5,000 people a replica, a timer each and, for each
   * poll still waiting for its place then, an error with its stack). Cleared once its polls have ended.
   */
  function pollDeadline(): PollDeadline & { endWith(polls: Promise<void>[]): void } {
    const controller = new AbortController();
    // Every poll of the moment listens while its calls run: as many listeners as places, not a leak.
    setMaxListeners(0, controller.signal);
    const timer = setTimeout(
      () => controller.abort(new PaperspaceTimeoutError('watches.poll', 'check your machines', deadlineMs)),
      deadlineMs,
    );
    return {
      signal: controller.signal,
      startedAt: performance.now(),
      endWith(polls) {
        void Promise.all(polls).then(() => clearTimeout(timer));
      },
    };
  }

  /** The polls of one moment of the interval: each person's, unless their last poll is still under way. */
  function startMoment(batch: ReadonlyArray<{ userKey: string; group: PersonGroup }>): void {
    const deadline = pollDeadline();
    const polls: Promise<void>[] = [];
    for (const { userKey, group } of batch) {
      if (!holding.has(userKey)) continue;
      if (inFlight.has(userKey)) skip(userKey);
      else {
        const poll = startPoll(userKey, group.user, group.watches, deadline);
        if (poll !== undefined) polls.push(poll);
      }
    }
    deadline.endWith(polls);
  }

  /** A poll that waited for a place under the cap past its deadline: counted now, logged at the next tick. */
  function noSlot(userKey: string): void {
    deps.pollSkipped?.('no_slot');
    dropped.add(userKey);
  }

  function skip(userKey: string): void {
    deps.pollSkipped?.('unanswered');
    if (skippedOnce.has(userKey)) return;
    skippedOnce.add(userKey);
    logger.warn(
      { user: userKey },
      'the last poll of a user has not answered; skipping them until it does, without holding up others',
    );
  }

  return {
    async settled() {
      // The polls that started: those the timer's ticks left for later in their interval are not this
      // wait's (an explicit tick polls everyone at once; a stopping scheduler drops them first).
      while (inFlight.size > 0) await Promise.all(inFlight.values());
    },

    halt: () => spread?.halt(),

    async tick(cause = { fromTimer: false }) {
      const first = dropped;
      dropped = new Set();
      if (first.size > 0) {
        // One line an interval, not one a person: the cure is the operator's.
        logger.warn(
          { dropped: first.size, concurrency: deps.concurrency, deadlineMs },
          'polls waited for a place under POLL_CONCURRENCY past their deadline and were dropped for their interval; raise POLL_CONCURRENCY',
        );
      }
      const { watches, held } = await store.watchLeases.claimPeople({
        owner: deps.owner,
        now: deps.now(),
        leaseMs: deps.leaseMs,
      });
      steps.forgetAllBut(new Set(watches.map((watch) => watch.id)));
      const byUser = new Map<string, PersonGroup>();
      // Every held person, watches or not: the machine checks may want the machines of any of them.
      for (const user of held) byUser.set(`${user.teamId}/${user.userId}`, { user, watches: [] });
      for (const watch of watches) {
        const key = `${watch.teamId}/${watch.userId}`;
        const group = byUser.get(key) ?? {
          // Every watch's person is held; a seal not read leaves their key unkept.
          user: { teamId: watch.teamId, userId: watch.userId, keySeal: null },
          watches: [],
        };
        group.watches.push(watch);
        byUser.set(key, group);
      }
      holding = new Set(byUser.keys());
      keys.keepOnly(holding);
      failures.keepOnly(holding);
      // The cap serves polls in the order they start: those dropped last interval go first in their moment.
      const people = [...byUser]
        .sort(([a], [b]) => Number(first.has(b)) - Number(first.has(a)))
        .map(([userKey, group]) => [userKey, { userKey, group }] as const);
      if (cause.fromTimer && spread !== undefined) spread.place(people, startMoment);
      else startMoment(people.map(([, person]) => person));
    },
  };
}

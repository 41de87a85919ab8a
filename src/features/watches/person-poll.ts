// One person's poll, in its two parts: `look`, the Paperspace part (their key opened, their machines
// listed), the only part that holds a place under the poll's concurrency cap; and `act`, what follows
// once the place is given back (each watch's step, the other features' machine checks). Apart from
// the poller (watch-poller.ts), which decides whose poll runs when and under which deadline.
import type { Logger } from 'pino';
import { describeError } from '../../errors/describe-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import { forEachConcurrently } from '../../scheduler/concurrency.js';
import type { PersonMachineCheck } from '../../scheduler/job.js';
import type { HeldPerson, PolledWatch } from '../../store/watch-leases.js';
import type { Watch } from '../../store/watch-types.js';
import type { PersonKeys } from './person-keys.js';
import { type ListedMachines, listMachines } from './person-machine-list.js';
import type { PersonPollTroubles } from './person-poll-troubles.js';
import type { PollFailureStreaks } from './poll-failure-streaks.js';
import type { WatchReads } from './watch-reads.js';
import type { WatchSteps } from './watch-steps.js';

const WATCHES_AT_ONCE = 4;

const UNLINKED = 'your Paperspace key was unlinked, so there is no key left to check it with.';

/**
 * What a person's poll learned from Paperspace, under its place: their machines, or why there are
 * none to go by this interval (the watches then only time out, or end when the key is gone).
 */
type Looked =
  | { kind: 'listed'; client: PaperspaceClient; listed: ListedMachines }
  | { kind: 'not listed' }
  | { kind: 'unlinked' };

export interface PersonPoll {
  look(
    user: HeldPerson,
    userKey: string,
    claimed: readonly PolledWatch[],
    due: boolean,
    signal: AbortSignal,
  ): Promise<Looked>;
  act(
    user: HeldPerson,
    userKey: string,
    claimed: readonly PolledWatch[],
    looked: Looked,
    signal: AbortSignal,
  ): Promise<void>;
}

export function createPersonPoll(deps: {
  troubles: PersonPollTroubles;
  failures: PollFailureStreaks;
  steps: WatchSteps;
  keys: PersonKeys;
  reads: WatchReads;
  logger: Logger;
  now: () => number;
  /** Other features' checks of a person's machines, handed the list a poll makes. */
  checks?: readonly PersonMachineCheck[] | undefined;
}): PersonPoll {
  const { troubles, failures, steps, keys, reads, logger } = deps;

  /**
   * The Paperspace part of one person's poll, the only part that holds a place under the cap: their
   * key opened and their machines listed. `claimed` are their active watches as the lease handed
   * them out; `due`, whether a machine check wants the list though no watch does.
   */
  async function look(
    user: HeldPerson,
    userKey: string,
    claimed: readonly PolledWatch[],
    due: boolean,
    signal: AbortSignal,
  ): Promise<Looked> {
    // Checked before the key is opened: a paused person costs neither a decryption nor a call.
    if (troubles.paused(userKey, deps.now())) return { kind: 'not listed' };

    let client: PaperspaceClient | undefined;
    try {
      client = await keys.clientFor(user, userKey, user.keySeal);
    } catch (error) {
      // The vault could not open the key (e.g. VAULT_KEY lost the key that sealed it): the operator
      // can fix that, so the watches wait for it until their deadline.
      troubles.note(userKey, 'the linked Paperspace key could not be read');
      logger.error(
        { user: userKey, error: describeError(error) },
        'could not open the key of a watching user',
      );
      return { kind: 'not listed' };
    }
    if (client === undefined) return { kind: 'unlinked' };

    try {
      const listed = await listMachines(
        client,
        new Set(claimed.map((watch) => watch.machineId)),
        due,
        signal,
      );
      troubles.cleared(userKey);
      failures.answered(userKey);
      return { kind: 'listed', client, listed };
    } catch (error) {
      troubles.failed(userKey, error);
      failures.failed(userKey, error);
      return { kind: 'not listed' };
    }
  }

  /**
   * The rest of one person's poll, after its place is given back: each watch takes its step from what
   * `look` learned, and the machine checks get the list. The watches themselves are read only now
   * (together with the other polls reading meanwhile: watch-reads.ts), so a tick holds whole watches
   * for moments, not for its whole length; a watch made after the claim waits for the next tick.
   */
  async function act(
    user: HeldPerson,
    userKey: string,
    claimed: readonly PolledWatch[],
    looked: Looked,
    signal: AbortSignal,
  ): Promise<void> {
    // In the lease's order (by deadline), as the person's completions are posted.
    const watches = await reads.active(claimed.map((watch) => watch.id));
    if (looked.kind === 'unlinked') {
      return forEachConcurrently(watches, WATCHES_AT_ONCE, (watch) =>
        guarded(watch, () => steps.finish(watch, { status: 'stopped', reason: UNLINKED }, undefined)),
      );
    }
    if (looked.kind === 'not listed') {
      return forEachConcurrently(watches, WATCHES_AT_ONCE, (watch) =>
        guarded(watch, () => steps.timeOutIfDue(watch, userKey)),
      );
    }
    const { client, listed } = looked;
    await forEachConcurrently(watches, WATCHES_AT_ONCE, (watch) =>
      guarded(watch, () =>
        steps.advance(watch, listed.watched.get(watch.machineId), client, userKey, signal),
      ),
    );
    // A list made for the watches alone is handed on too when it holds every machine (one page
    // usually does): the checks then see changes, such as a stop, at the watches' pace for free.
    if (!listed.complete) return;
    for (const check of deps.checks ?? []) {
      try {
        await check.check(user, listed.all, client);
      } catch (error) {
        logger.error(
          { user: userKey, check: check.name, error: describeError(error) },
          'a machine check failed',
        );
      }
    }
  }

  async function guarded(watch: Watch, step: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (error) {
      logger.error(
        { watchId: watch.id, error: describeError(error) },
        'a watch step failed; retrying next tick',
      );
    }
  }

  return { look, act };
}

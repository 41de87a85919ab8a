// Stop all on a message that lists machines (a reminder too big for one message, a forgotten-machine
// alert about several): every machine the button names, stopped with the clicker's own key as a Stop on
// a row would (the machines service: audited, claimed, refused when already off). The person's machines
// are listed once, not read one by one. Each stop then ends as a single Stop's does: a watch follows it
// to off in the message's thread and redraws its row and the message's footer when it ends
// (blocks/stop-all-tally.ts). The watches are the person's (50 at most at a time): a stop past the
// slots left is sent all the same, and the footer says it is not followed.

import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { PaperspaceError } from '../../paperspace/errors.js';
import type { Machine } from '../../paperspace/schemas.js';
import { forEachConcurrently } from '../../scheduler/concurrency.js';
import { type ButtonClick, buttonHandler } from '../../slack/button-click.js';
import type { PlatformDeps } from '../../slack/platform-deps.js';
import type { Store } from '../../store/store.js';
import type { ListenerWiring } from '../feature-deps.js';
import { followInClickedThread } from '../machines/follow-in-thread.js';
import { type Actor, createMachineOperations, type PowerOutcome } from '../machines/machine-operations.js';
import { MAX_ACTIVE_WATCHES_PER_PERSON, WatchLimitError } from '../machines/machine-watcher.js';
import { decodeStopAll, type StopAllOutcome } from './blocks/stop-all.js';

/** Stops sent at once: a hundred machines stop in a few seconds without a burst Paperspace would refuse. */
const CONCURRENT_STOPS = 4;

type Requested = Extract<PowerOutcome, { kind: 'requested' }>;

function createStopListedMachines(deps: Parameters<typeof createMachineOperations>[0]) {
  const operations = createMachineOperations(deps);
  return async (actor: Actor, ids: readonly string[], logger: Pick<Logger, 'error'>) => {
    const wanted = new Set(ids);
    const found = new Map<string, Machine>();
    for await (const machine of actor.client.machines.listAll()) {
      if (wanted.has(machine.id)) found.set(machine.id, machine);
    }
    const requested: Requested[] = [];
    const outcome: StopAllOutcome = {
      stopping: [],
      unfollowed: [],
      alreadyOff: [],
      alreadyRequested: [],
      missing: ids.filter((id) => !found.has(id)),
      failed: [],
    };
    await forEachConcurrently([...found.values()], CONCURRENT_STOPS, async (machine) => {
      try {
        const result = await operations.power(actor, machine, 'stop');
        if (result.kind === 'requested') requested.push(result);
        else if (result.kind === 'unchanged') outcome.alreadyOff.push(machine);
        else outcome.alreadyRequested.push(machine);
      } catch (error) {
        if (!(error instanceof PaperspaceError)) {
          logger.error({ err: error, machineId: machine.id }, 'a Stop all could not stop a machine');
        }
        const reason =
          error instanceof PaperspaceError ? error.message : 'an unexpected error (it was logged)';
        outcome.failed.push({ machine, reason });
      }
    });
    // In the button's order (the message's rows first), so the listed rows are the ones followed.
    const order = new Map(ids.map((id, index) => [id, index]));
    requested.sort((a, b) => (order.get(a.machine.id) ?? 0) - (order.get(b.machine.id) ?? 0));
    return { outcome, requested };
  };
}

type StopAllDeps = Parameters<typeof createMachineOperations>[0] &
  PlatformDeps &
  Pick<ListenerWiring, 'watcher' | 'redrawRow'> & { store: Pick<Store, 'watches'> };

/**
 * Watches each stop sent, as many as the clicker's free watch slots allow: the rest go to `unfollowed`.
 * Counted before the message is redrawn, so its footer counts the right machines before any watch can
 * end; a slot taken meanwhile (another click of theirs) leaves that machine unfollowed too.
 */
async function followStops(
  deps: StopAllDeps,
  web: WebClient,
  click: ButtonClick,
  requested: readonly Requested[],
  outcome: StopAllOutcome,
): Promise<() => Promise<void>> {
  const active = await deps.store.watches.countActive(click.user);
  const slots = Math.max(0, MAX_ACTIVE_WATCHES_PER_PERSON - active);
  const followed = requested.slice(0, slots);
  outcome.stopping.push(...followed.map(({ machine }) => machine));
  outcome.unfollowed.push(...requested.slice(slots).map(({ machine }) => machine));
  return async () => {
    for (const stop of followed) {
      try {
        await followInClickedThread(deps, web, click, stop, 'stop');
      } catch (error) {
        if (!(error instanceof WatchLimitError)) throw error;
        click.logger.warn({ machineId: stop.machine.id }, 'a Stop all found no watch slot left');
      }
    }
  };
}

/**
 * The handler of a Stop all button (a reminder's or an alert's): the machines it names are stopped with
 * the clicker's own key, then `done` redraws the message it is on (its footer counting from `since`),
 * and then each stop is watched. Nothing happens for a clicker with no key linked (they were told how
 * to link one).
 */
export function stopAllButton(
  deps: StopAllDeps,
  done: (
    click: ButtonClick,
    web: WebClient,
    stopped: { outcome: StopAllOutcome; clicker: string; since: number },
  ) => Promise<void>,
) {
  const stopListed = createStopListedMachines(deps);
  return buttonHandler(deps, async (click, { client }) => {
    const ids = decodeStopAll(click.value);
    const paperspace = await click.userClient();
    if (paperspace === undefined) return;
    const since = deps.now();
    const { outcome, requested } = await stopListed(
      { user: click.user, client: paperspace },
      ids,
      click.logger,
    );
    const watchStops = await followStops(deps, client, click, requested, outcome);
    await done(click, client, { outcome, clicker: click.user.userId, since });
    await watchStops();
  });
}

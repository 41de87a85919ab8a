// Stop all on a message that lists machines (a reminder too big for one message, a forgotten-machine
// alert about several): every machine the button names, stopped with the clicker's own key as a Stop on
// a row would (the machines service: audited, claimed, refused when already off). The person's machines
// are listed once, not read one by one. Each stop then ends as a single Stop's does: a watch follows it
// to off in the message's thread and redraws its row and the message's footer when it ends
// (blocks/stop-all-tally.ts), stored before the stop is sent so that a replica lost meanwhile leaves it
// for another to follow. The watches are the person's (50 at most at a time): a stop past the slots
// left is sent all the same, and the footer says it is not followed.

import type { WebClient } from '@slack/web-api';
import { PaperspaceError } from '../../paperspace/errors.js';
import type { Machine } from '../../paperspace/schemas.js';
import { forEachConcurrently } from '../../scheduler/concurrency.js';
import { type ButtonClick, buttonHandler } from '../../slack/button-click.js';
import type { FeatureDeps } from '../feature-deps.js';
import { intentInClickedThread, type ThreadIntent } from '../machines/follow-in-thread.js';
import { type Actor, createMachineOperations, type PowerOutcome } from '../machines/machine-operations.js';
import { decodeStopAll, type StopAllOutcome } from './blocks/stop-all.js';

/** Stops sent at once: a hundred machines stop in a few seconds without a burst Paperspace would refuse. */
const CONCURRENT_STOPS = 4;

type Requested = Extract<PowerOutcome, { kind: 'requested' }>;

type StopAllDeps = Parameters<typeof createMachineOperations>[0] &
  FeatureDeps<'watches', 'now' | 'watcher' | 'redrawRow'>;

interface SentStop {
  requested: Requested;
  intent: ThreadIntent;
}

/**
 * Stops every listed machine the clicker's list holds, each with its watch stored as the stop's intent
 * before the call (the person's free watch slots taken in the button's order, as the stops are sent);
 * a stop past the slots left is sent unwatched and counted in `unfollowed`. The watches follow only
 * once `follow` is called, after the message shows the stops, so no row can end before it is drawn.
 */
function createStopListedMachines(deps: StopAllDeps) {
  const operations = createMachineOperations(deps);
  return async (actor: Actor, web: WebClient, click: ButtonClick, ids: readonly string[]) => {
    const wanted = new Set(ids);
    const found = new Map<string, Machine>();
    for await (const machine of actor.client.machines.listAll()) {
      if (wanted.has(machine.id)) found.set(machine.id, machine);
    }
    const sent: SentStop[] = [];
    const outcome: StopAllOutcome = {
      stopping: [],
      unfollowed: [],
      alreadyOff: [],
      alreadyRequested: [],
      missing: ids.filter((id) => !found.has(id)),
      failed: [],
    };
    const inButtonOrder = ids.flatMap((id) => found.get(id) ?? []);
    await forEachConcurrently(inButtonOrder, CONCURRENT_STOPS, async (machine) => {
      const intent = intentInClickedThread(deps, web, click, machine, 'stop');
      try {
        const result = await operations.power(actor, machine, 'stop', intent.hooks);
        if (result.kind === 'requested') sent.push({ requested: result, intent });
        else if (result.kind === 'unchanged') outcome.alreadyOff.push(machine);
        else outcome.alreadyRequested.push(machine);
      } catch (error) {
        if (!(error instanceof PaperspaceError)) {
          click.logger.error({ err: error, machineId: machine.id }, 'a Stop all could not stop a machine');
        }
        const reason =
          error instanceof PaperspaceError ? error.message : 'an unexpected error (it was logged)';
        outcome.failed.push({ machine, reason });
      }
    });
    const order = new Map(ids.map((id, index) => [id, index]));
    sent.sort((a, b) => (order.get(a.requested.machine.id) ?? 0) - (order.get(b.requested.machine.id) ?? 0));
    for (const { requested, intent } of sent) {
      (intent.watched ? outcome.stopping : outcome.unfollowed).push(requested.machine);
    }
    const follow = async () => {
      for (const { requested, intent } of sent) await intent.follow(requested);
    };
    return { outcome, follow };
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
    const { outcome, follow } = await stopListed(
      { user: click.user, client: paperspace },
      client,
      click,
      ids,
    );
    await done(click, client, { outcome, clicker: click.user.userId, since });
    await follow();
  });
}

// Stop all on a message that lists machines (a reminder too big for one message, a forgotten-machine
// alert about several): every machine the button names, stopped with the clicker's own key as a Stop on
// a row would (the machines service: audited, claimed, refused when already off). The person's machines
// are listed once, not read one by one. No watch follows each stop (a person may hold 50, a message lists
// more): the message says exactly what happened, machine by machine and in counts.

import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { PaperspaceError } from '../../paperspace/errors.js';
import type { Machine } from '../../paperspace/schemas.js';
import { forEachConcurrently } from '../../scheduler/concurrency.js';
import { escapeMrkdwn } from '../../slack/block-kit/text.js';
import { type ButtonClick, buttonHandler } from '../../slack/button-click.js';
import type { PlatformDeps } from '../../slack/platform-deps.js';
import { type Actor, createMachineOperations } from '../machines/machine-operations.js';
import { decodeStopAll, type StopAllOutcome } from './blocks/stop-all.js';

/** Stops sent at once: a hundred machines stop in a few seconds without a burst Paperspace would refuse. */
const CONCURRENT_STOPS = 4;

function createStopListedMachines(deps: Parameters<typeof createMachineOperations>[0]) {
  const operations = createMachineOperations(deps);
  return async (actor: Actor, ids: readonly string[], logger: Pick<Logger, 'error'>) => {
    const wanted = new Set(ids);
    const found = new Map<string, Machine>();
    for await (const machine of actor.client.machines.listAll()) {
      if (wanted.has(machine.id)) found.set(machine.id, machine);
    }
    const outcome: StopAllOutcome = {
      stopping: [],
      alreadyOff: [],
      alreadyRequested: [],
      missing: ids.filter((id) => !found.has(id)),
      failed: [],
    };
    await forEachConcurrently([...found.values()], CONCURRENT_STOPS, async (machine) => {
      try {
        const result = await operations.power(actor, machine, 'stop');
        if (result.kind === 'requested') outcome.stopping.push(machine);
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
    return outcome;
  };
}

/**
 * The handler of a Stop all button (a reminder's or an alert's): the machines it names are stopped with
 * the clicker's own key, then `done` redraws the message it is on. Nothing happens for a clicker with
 * no key linked (they were told how to link one).
 */
export function stopAllButton(
  deps: Parameters<typeof createMachineOperations>[0] & PlatformDeps,
  done: (
    click: ButtonClick,
    web: WebClient,
    stopped: { outcome: StopAllOutcome; clicker: string },
  ) => Promise<void>,
) {
  const stopListed = createStopListedMachines(deps);
  return buttonHandler(deps, async (click, { client }) => {
    const ids = decodeStopAll(click.value);
    const paperspace = await click.userClient();
    if (paperspace === undefined) return;
    const outcome = await stopListed({ user: click.user, client: paperspace }, ids, click.logger);
    await done(click, client, { outcome, clicker: `<@${escapeMrkdwn(click.user.userId)}>` });
  });
}

// Stop all on a message that lists machines (a reminder too big for one message, a forgotten-machine
// alert about several): every machine the button names, stopped with the clicker's own key as a Stop on
// a row would (the machines service: audited, claimed, refused when already off). The person's machines
// are listed once, not read one by one. No watch follows each stop (a person may hold 50, a message lists
// more): the message says exactly what happened, machine by machine and in counts.

import type { Logger } from 'pino';
import { PaperspaceError } from '../../paperspace/errors.js';
import type { Machine } from '../../paperspace/schemas.js';
import { forEachConcurrently } from '../../scheduler/concurrency.js';
import { type Actor, createMachineOperations } from '../machines/machine-operations.js';
import type { StopAllOutcome } from './blocks/stop-all.js';

/** Stops sent at once: a hundred machines stop in a few seconds without a burst Paperspace would refuse. */
const CONCURRENT_STOPS = 4;

export function createStopListedMachines(deps: Parameters<typeof createMachineOperations>[0]) {
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

// Stop all on a reminder too big for one message: every machine the reminder is about (the button
// names them), the ones it could not list too, stopped with the clicker's own key as a Stop on a row
// would (the machines service: audited, claimed, refused when already off). The person's machines are
// listed once, not read one by one. No watch follows each stop (a person may hold 50, a reminder lists
// more): the reminder says exactly what happened, machine by machine and in counts.

import { PaperspaceError } from '../../../paperspace/errors.js';
import type { Machine } from '../../../paperspace/schemas.js';
import { forEachConcurrently } from '../../../scheduler/concurrency.js';
import { escapeMrkdwn } from '../../../slack/block-kit/text.js';
import { buttonHandler } from '../../../slack/button-click.js';
import { createMachineOperations } from '../../machines/machine-operations.js';
import { redrawClickedRow } from '../../watches/row-messages.js';
import { decodeStopAll, type StopAllOutcome, stopAllSummary, withStopAllDone } from '../blocks/stop-all.js';
import type { RemindersDeps } from '../reminders-deps.js';

/** Stops sent at once: a hundred machines stop in a few seconds without a burst Paperspace would refuse. */
const CONCURRENT_STOPS = 4;

export function reminderStopAllHandler(deps: RemindersDeps) {
  const operations = createMachineOperations(deps);
  return buttonHandler(deps, async (click, { client }) => {
    const ids = decodeStopAll(click.value);
    const paperspace = await click.userClient();
    if (paperspace === undefined) return;
    const wanted = new Set(ids);
    const found = new Map<string, Machine>();
    for await (const machine of paperspace.machines.listAll()) {
      if (wanted.has(machine.id)) found.set(machine.id, machine);
    }
    const outcome: StopAllOutcome = {
      stopping: [],
      alreadyOff: [],
      alreadyRequested: [],
      missing: ids.filter((id) => !found.has(id)),
      failed: [],
    };
    const actor = { user: click.user, client: paperspace };
    await forEachConcurrently([...found.values()], CONCURRENT_STOPS, async (machine) => {
      try {
        const result = await operations.power(actor, machine, 'stop');
        if (result.kind === 'requested') outcome.stopping.push(machine);
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
    // A stopped machine needs no snoozed reminder about it.
    for (const machine of outcome.stopping) await deps.store.snoozes.cancel(click.user, machine.id);
    const clicker = `<@${escapeMrkdwn(click.user.userId)}>`;
    await redrawClickedRow(client, click, deps, 'reminder', {
      done: stopAllSummary(outcome, clicker),
      what: "a reminder's Stop all",
      redraw(message) {
        const done = withStopAllDone(message.blocks, outcome, clicker);
        // The notification text starts with the header's words: it is recounted with them.
        return done && { blocks: done.blocks, text: `${done.title}${message.text.replace(/^[^:]*/, '')}` };
      },
    });
  });
}

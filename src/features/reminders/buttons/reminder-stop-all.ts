// Stop all on a reminder too big for one message: every machine the reminder is about (the button
// names them), the ones it could not list too, stopped as stop-listed-machines.ts says; the reminder
// then says exactly what happened, machine by machine and in counts.

import { escapeMrkdwn } from '../../../slack/block-kit/text.js';
import { buttonHandler } from '../../../slack/button-click.js';
import { redrawClickedRow } from '../../watches/row-messages.js';
import { decodeStopAll, stopAllSummary, withStopAllDone } from '../blocks/stop-all.js';
import type { RemindersDeps } from '../reminders-deps.js';
import { createStopListedMachines } from '../stop-listed-machines.js';

export function reminderStopAllHandler(deps: RemindersDeps) {
  const stopListed = createStopListedMachines(deps);
  return buttonHandler(deps, async (click, { client }) => {
    const ids = decodeStopAll(click.value);
    const paperspace = await click.userClient();
    if (paperspace === undefined) return;
    const outcome = await stopListed({ user: click.user, client: paperspace }, ids, click.logger);
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

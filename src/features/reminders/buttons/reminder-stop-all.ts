// Stop all on a reminder too big for one message: every machine the reminder is about (the button
// names them), the ones it could not list too, stopped as stop-listed-machines.ts says; the reminder
// then says exactly what happened, machine by machine and in counts.

import { redrawClickedRow } from '../../watches/row-messages.js';
import { stopAllSummary, withStopAllDone } from '../blocks/stop-all.js';
import type { RemindersDeps } from '../reminders-deps.js';
import { stopAllButton } from '../stop-listed-machines.js';

export function reminderStopAllHandler(deps: RemindersDeps) {
  return stopAllButton(deps, async (click, client, { outcome, clicker }) => {
    // A stopped machine needs no snoozed reminder about it.
    for (const machine of outcome.stopping) await deps.store.snoozes.cancel(click.user, machine.id);
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

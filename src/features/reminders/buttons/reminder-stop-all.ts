// Stop all on a reminder too big for one message: every machine the reminder is about (the button
// names them), the ones it could not list too, stopped as stop-listed-machines.ts says; the reminder
// then says what happened, machine by machine and in counts, and each stop's watch finishes its row and
// the counts (reminder-row.ts) as a single Stop's does.

import { redrawClickedRow } from '../../watches/row-messages.js';
import { tallyOf, withStopAllDone } from '../blocks/stop-all.js';
import { stopAllSummary } from '../blocks/stop-all-tally.js';
import type { RemindersDeps } from '../reminders-deps.js';
import { stopAllButton } from '../stop-listed-machines.js';

export function reminderStopAllHandler(deps: RemindersDeps) {
  return stopAllButton(deps, async (click, client, { outcome, clicker, since }) => {
    // A stopped machine needs no snoozed reminder about it.
    for (const machine of [...outcome.stopping, ...outcome.unfollowed]) {
      await deps.store.snoozes.cancel(click.user, machine.id);
    }
    await redrawClickedRow(client, click, deps, 'reminder', {
      done: stopAllSummary(tallyOf(outcome, clicker, since)),
      what: "a reminder's Stop all",
      redraw(message) {
        const done = withStopAllDone(message.blocks, outcome, { clicker, since });
        // The notification text starts with the header's words: it is recounted with them.
        return done && { blocks: done.blocks, text: `${done.title}${message.text.replace(/^[^:]*/, '')}` };
      },
    });
  });
}

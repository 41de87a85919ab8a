// `/ps reminders` lists pending snoozes; a machine id there means nothing to the person who
// clicked Snooze on a row that showed its name. Rows from before stay without one.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const snoozeMachineName: Migration = {
  version: 7,
  name: 'snooze_machine_name',
  sql: () => 'ALTER TABLE reminder_snoozes ADD COLUMN machine_name TEXT;',
};

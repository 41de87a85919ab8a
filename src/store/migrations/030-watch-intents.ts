// A watch is stored before the start, stop or restart it follows is sent to Paperspace: the record of
// the intent. `pending_since` is set while the outcome of that call is not recorded (the replica may
// have died or lost its database in between); the poller leaves such a watch alone, and the recovery
// asks Paperspace whether the request went out (intent-recovery.ts). `operation` names what was asked.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const watchIntents: Migration = {
  version: 30,
  name: 'watch_intents',
  sql: () => `
      ALTER TABLE watches ADD COLUMN pending_since BIGINT;
      ALTER TABLE watches ADD COLUMN operation TEXT;
      CREATE INDEX watches_pending ON watches (pending_since) WHERE pending_since IS NOT NULL;`,
};

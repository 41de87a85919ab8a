// Two lookups that read a whole team's rows to find a few. vault_entries_paperspace_user: a team
// account's /ps list names the owners of its machines in Slack (vaultEntries.linkedIn), which read
// every linked person of the team on each list. watches_active_machine: an operation sent for a
// machine finishes its active watches (watches.supersede), which read every active watch of the
// team. Found by reading every statement's query plan after the poll's read of its watches (by id)
// turned out to scan every active watch.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const ownerAndMachineLookups: Migration = {
  version: 25,
  name: 'owner_and_machine_lookups',
  sql: () => `
      CREATE INDEX vault_entries_paperspace_user ON vault_entries (slack_team_id, paperspace_user_id);
      CREATE INDEX watches_active_machine ON watches (slack_team_id, machine_id) WHERE status = 'active';`,
};

// The first table: each person's Paperspace API key, sealed (vault/), with who it belongs to on
// Paperspace.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const vaultEntries: Migration = {
  version: 1,
  name: 'vault_entries',
  sql: (t) => `
      CREATE TABLE vault_entries (
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        iv ${t.bytes} NOT NULL,
        auth_tag ${t.bytes} NOT NULL,
        ciphertext ${t.bytes} NOT NULL,
        paperspace_user_id TEXT NOT NULL,
        paperspace_email TEXT NOT NULL,
        paperspace_team_id TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, slack_user_id)
      );
      CREATE INDEX vault_entries_key_id ON vault_entries (key_id);`,
};

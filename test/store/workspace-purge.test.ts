// The uninstall purge must reach every table that holds a workspace's data. Tables are added by
// features over time; this fails the day one with a slack_team_id column (or OAuth's team_id: the
// workspace's installation) is left out of the list, so
// an uninstalled workspace's rows can never outlive it unnoticed. Audit records alone stay, by design.
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrations.js';
import { openSqliteClient } from '../../src/store/sqlite-client.js';
import { openStore, type Store } from '../../src/store/store.js';

const KEPT_ON_PURGE = new Set(['audit_records']);

describe('the workspace purge', () => {
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
  });

  it('empties every table with a slack_team_id or team_id column except the audit trail', async () => {
    store = await openStore('sqlite::memory:');
    const schema = openSqliteClient(':memory:');
    try {
      await migrate(schema, () => 0);
      const tables = await schema.all<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
      );
      const withTeam: string[] = [];
      for (const { name } of tables) {
        const columns = await schema.all<{ name: string }>(`PRAGMA table_info(${name})`);
        const keyed = columns.some((column) => column.name === 'slack_team_id' || column.name === 'team_id');
        if (keyed && !KEPT_ON_PURGE.has(name)) {
          withTeam.push(name);
        }
      }
      const purged = await store.workspaces.purge('T0GONE');
      expect(Object.keys(purged).sort()).toEqual(withTeam.sort());
    } finally {
      await schema.close();
    }
  });
});

// Rows of the key vault: one per Slack user, holding their sealed Paperspace credentials and the
// non-secret account facts /ps whoami shows. This file never sees a plaintext secret: sealing and
// opening is src/vault's job.
import { resealRow, type SealedCredentials } from './sealed-rows.js';
import type { SlackUser } from './slack-user.js';
import { placeholders, type SqlClient } from './sql-client.js';

/** Who the linked API key belongs to on Paperspace. Not secret. */
export interface PaperspaceAccount {
  userId: string;
  email: string;
  teamId: string | null;
}

export interface VaultEntry extends SlackUser {
  sealed: SealedCredentials;
  account: PaperspaceAccount;
  createdAt: number;
  updatedAt: number;
}

export interface VaultEntryRepository {
  get(user: SlackUser): Promise<VaultEntry | undefined>;
  /** Every entry, oldest first: the vault's start-up check reads them all. */
  list(): Promise<VaultEntry[]>;
  /**
   * Who in Slack workspace `teamId` linked each of `paperspaceUserIds`, oldest link first (as list()
   * orders them): reads only those rows, and no sealed credentials.
   */
  linkedIn(teamId: string, paperspaceUserIds: readonly string[]): Promise<LinkedAccount[]>;
  /** Stores the user's entry, replacing an earlier one but keeping its createdAt. */
  put(
    user: SlackUser,
    entry: { sealed: SealedCredentials; account: PaperspaceAccount; at: number },
  ): Promise<void>;
  /**
   * Replaces the sealed credentials only while they are still `expected` (same key id and IV), so
   * re-encrypting an old record never overwrites a link made in the meantime. True if it replaced.
   */
  reseal(user: SlackUser, expected: SealedCredentials, next: SealedCredentials, at: number): Promise<boolean>;
  /** True if the user had an entry. */
  delete(user: SlackUser): Promise<boolean>;
}

interface LinkedAccount {
  slackUserId: string;
  paperspaceUserId: string;
}

type VaultEntryRow = {
  slack_team_id: string;
  slack_user_id: string;
  key_id: string;
  iv: Buffer;
  auth_tag: Buffer;
  ciphertext: Buffer;
  paperspace_user_id: string;
  paperspace_email: string;
  paperspace_team_id: string | null;
  created_at: number;
  updated_at: number;
};

const fromRow = (row: VaultEntryRow): VaultEntry => ({
  teamId: row.slack_team_id,
  userId: row.slack_user_id,
  sealed: { keyId: row.key_id, iv: row.iv, authTag: row.auth_tag, ciphertext: row.ciphertext },
  account: { userId: row.paperspace_user_id, email: row.paperspace_email, teamId: row.paperspace_team_id },
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function createVaultEntryRepository(db: SqlClient): VaultEntryRepository {
  return {
    async get(user) {
      const row = await db.get<VaultEntryRow>(
        'SELECT * FROM vault_entries WHERE slack_team_id = ? AND slack_user_id = ?',
        [user.teamId, user.userId],
      );
      return row && fromRow(row);
    },

    async list() {
      const rows = await db.all<VaultEntryRow>(
        'SELECT * FROM vault_entries ORDER BY created_at, slack_team_id, slack_user_id',
      );
      return rows.map(fromRow);
    },

    async linkedIn(teamId, paperspaceUserIds) {
      if (paperspaceUserIds.length === 0) return [];
      const rows = await db.all<{ slack_user_id: string; paperspace_user_id: string }>(
        `SELECT slack_user_id, paperspace_user_id FROM vault_entries
         WHERE slack_team_id = ? AND paperspace_user_id IN (${placeholders(paperspaceUserIds.length)})
         ORDER BY created_at, slack_team_id, slack_user_id`,
        [teamId, ...paperspaceUserIds],
      );
      return rows.map((row) => ({
        slackUserId: row.slack_user_id,
        paperspaceUserId: row.paperspace_user_id,
      }));
    },

    async put(user, { sealed, account, at }) {
      await db.run(
        `INSERT INTO vault_entries (slack_team_id, slack_user_id, key_id, iv, auth_tag, ciphertext,
           paperspace_user_id, paperspace_email, paperspace_team_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (slack_team_id, slack_user_id) DO UPDATE SET
           key_id = excluded.key_id, iv = excluded.iv, auth_tag = excluded.auth_tag,
           ciphertext = excluded.ciphertext, paperspace_user_id = excluded.paperspace_user_id,
           paperspace_email = excluded.paperspace_email, paperspace_team_id = excluded.paperspace_team_id,
           updated_at = excluded.updated_at`,
        [
          user.teamId,
          user.userId,
          sealed.keyId,
          sealed.iv,
          sealed.authTag,
          sealed.ciphertext,
          account.userId,
          account.email,
          account.teamId,
          at,
          at,
        ],
      );
    },

    reseal: (user, expected, next, at) =>
      resealRow(
        db,
        'vault_entries',
        { slack_team_id: user.teamId, slack_user_id: user.userId },
        expected,
        next,
        at,
      ),

    async delete(user) {
      const { changes } = await db.run(
        'DELETE FROM vault_entries WHERE slack_team_id = ? AND slack_user_id = ?',
        [user.teamId, user.userId],
      );
      return changes === 1;
    },
  };
}

// Rows of the OAuth installations: one per workspace that installed the app, or per Enterprise Grid
// organisation that installed it org-wide, each holding the sealed installation (its bot token). This
// file never sees a plaintext token: sealing and opening is src/vault's job (installation-seal.ts).

import type { SealedCredentials } from './sealed-rows.js';
import { resealRow } from './sealed-rows.js';
import type { SqlClient } from './sql-client.js';

/**
 * Which installation: a workspace (teamId, with its organisation's enterpriseId on Enterprise Grid), or
 * an organisation's org-wide install (enterpriseId, teamId undefined).
 */
interface InstallationRowKey {
  enterpriseId: string | undefined;
  teamId: string | undefined;
}

interface StoredInstallation extends InstallationRowKey {
  isEnterpriseInstall: boolean;
  sealed: SealedCredentials;
  installedAt: number;
  updatedAt: number;
}

export interface SlackInstallationRepository {
  /** Stores an installation, replacing an earlier one of the same workspace or organisation. */
  put(
    key: InstallationRowKey,
    entry: { isEnterpriseInstall: boolean; sealed: SealedCredentials; at: number },
  ): Promise<void>;
  get(key: InstallationRowKey): Promise<StoredInstallation | undefined>;
  /** Every installation, for the vault's start-up check and its rotation. */
  list(): Promise<StoredInstallation[]>;
  /**
   * Replaces the sealed installation only while it is still `expected` (same key id and IV), so sealing
   * an old row again under a new key never overwrites a reinstall made in the meantime. True if it did.
   */
  reseal(
    key: InstallationRowKey,
    expected: SealedCredentials,
    next: SealedCredentials,
    at: number,
  ): Promise<boolean>;
  /**
   * The installation that serves a workspace: its own, or its organisation's org-wide one that served
   * it. Given an organisation's id (people of an Enterprise Grid organisation are keyed by it, see
   * slack/slack-person.ts), its org-wide install, else the workspace install of it updated last.
   */
  serving(teamOrEnterpriseId: string): Promise<StoredInstallation | undefined>;
  /** Notes that an organisation's org-wide install served one of its workspaces (see serving()). */
  noteServed(enterpriseId: string, teamId: string, at: number): Promise<void>;
  /** The workspaces an organisation's org-wide install has served. */
  servedTeams(enterpriseId: string): Promise<string[]>;
  /** Deletes the installation (and, for an org-wide one, its served workspaces); true if there was one. */
  delete(key: InstallationRowKey): Promise<boolean>;
}

type Row = {
  enterprise_id: string;
  team_id: string;
  is_enterprise_install: number;
  key_id: string;
  iv: Buffer;
  auth_tag: Buffer;
  ciphertext: Buffer;
  installed_at: number;
  updated_at: number;
};

// '' rather than NULL: a primary key column cannot be NULL, and '' is no Slack id.
const column = (id: string | undefined) => id ?? '';
const id = (value: string) => (value === '' ? undefined : value);

const fromRow = (row: Row): StoredInstallation => ({
  enterpriseId: id(row.enterprise_id),
  teamId: id(row.team_id),
  isEnterpriseInstall: row.is_enterprise_install === 1,
  sealed: { keyId: row.key_id, iv: row.iv, authTag: row.auth_tag, ciphertext: row.ciphertext },
  installedAt: Number(row.installed_at),
  updatedAt: Number(row.updated_at),
});

export function createSlackInstallationRepository(db: SqlClient): SlackInstallationRepository {
  return {
    async put(key, { isEnterpriseInstall, sealed, at }) {
      await db.run(
        `INSERT INTO slack_installations (enterprise_id, team_id, is_enterprise_install, key_id, iv, auth_tag,
           ciphertext, installed_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (enterprise_id, team_id) DO UPDATE SET
           is_enterprise_install = excluded.is_enterprise_install, key_id = excluded.key_id, iv = excluded.iv,
           auth_tag = excluded.auth_tag, ciphertext = excluded.ciphertext, updated_at = excluded.updated_at`,
        [
          column(key.enterpriseId),
          column(key.teamId),
          isEnterpriseInstall ? 1 : 0,
          sealed.keyId,
          sealed.iv,
          sealed.authTag,
          sealed.ciphertext,
          at,
          at,
        ],
      );
    },

    async get(key) {
      const row = await db.get<Row>(
        'SELECT * FROM slack_installations WHERE enterprise_id = ? AND team_id = ?',
        [column(key.enterpriseId), column(key.teamId)],
      );
      return row && fromRow(row);
    },

    async list() {
      const rows = await db.all<Row>(
        'SELECT * FROM slack_installations ORDER BY installed_at, enterprise_id, team_id',
      );
      return rows.map(fromRow);
    },

    reseal: (key, expected, next, at) =>
      resealRow(
        db,
        'slack_installations',
        { enterprise_id: column(key.enterpriseId), team_id: column(key.teamId) },
        expected,
        next,
        at,
      ),

    async serving(id) {
      const own = await db.get<Row>('SELECT * FROM slack_installations WHERE team_id = ?', [id]);
      if (own) return fromRow(own);
      const org = await db.get<Row>(
        `SELECT i.* FROM slack_installations i
         JOIN slack_installation_teams t ON t.enterprise_id = i.enterprise_id
         WHERE t.team_id = ? AND i.team_id = ''`,
        [id],
      );
      if (org) return fromRow(org);
      const ofOrganisation = await db.get<Row>(
        `SELECT * FROM slack_installations WHERE enterprise_id = ?
         ORDER BY CASE WHEN team_id = '' THEN 0 ELSE 1 END, updated_at DESC, team_id LIMIT 1`,
        [id],
      );
      return ofOrganisation && fromRow(ofOrganisation);
    },

    async noteServed(enterpriseId, teamId, at) {
      await db.run(
        `INSERT INTO slack_installation_teams (team_id, enterprise_id, first_served_at) VALUES (?, ?, ?)
         ON CONFLICT (team_id) DO UPDATE SET enterprise_id = excluded.enterprise_id`,
        [teamId, enterpriseId, at],
      );
    },

    async servedTeams(enterpriseId) {
      const rows = await db.all<{ team_id: string }>(
        'SELECT team_id FROM slack_installation_teams WHERE enterprise_id = ? ORDER BY team_id',
        [enterpriseId],
      );
      return rows.map((row) => row.team_id);
    },

    delete: (key) =>
      db.transaction(async (tx) => {
        if (key.teamId === undefined && key.enterpriseId !== undefined) {
          await tx.run('DELETE FROM slack_installation_teams WHERE enterprise_id = ?', [key.enterpriseId]);
        }
        const { changes } = await tx.run(
          'DELETE FROM slack_installations WHERE enterprise_id = ? AND team_id = ?',
          [column(key.enterpriseId), column(key.teamId)],
        );
        return changes === 1;
      }),
  };
}

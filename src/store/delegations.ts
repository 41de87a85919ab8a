// Machines shared in a channel through a resource delegation (4 hours on Paperspace). The post is
// marked expired when the delegation runs out; markExpired makes that happen once across replicas.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { SlackUser } from './slack-user.js';
import { equalityFilters, type SqlClient, StoreError } from './sql-client.js';

export interface NewDelegation extends SlackUser {
  /** Paperspace's id of the delegation (a number there, kept as text). */
  delegationId: string;
  /** Identifies the access token Paperspace issued; an id, not the token. */
  accessTokenId: string;
  channel: string;
  messageTs?: string | null;
  machineIds: string[];
  createdAt: number;
  expiresAt: number;
}

export interface Delegation extends Omit<NewDelegation, 'messageTs'> {
  id: string;
  messageTs: string | null;
  expiredNotifiedAt: number | null;
}

export interface DelegationRepository {
  create(input: NewDelegation): Promise<Delegation>;
  get(id: string): Promise<Delegation | undefined>;
  /** Remembers the channel post once it exists; false if the delegation is unknown. */
  setMessage(id: string, messageTs: string): Promise<boolean>;
  /** Delegations still running at `now`, soonest expiry first; optionally one person's or one channel's. */
  listActive(
    now: number,
    filter?: { teamId?: string; userId?: string; channel?: string },
  ): Promise<Delegation[]>;
  /** Expired delegations whose post has not been marked yet, oldest expiry first. */
  dueToExpire(now: number, limit: number): Promise<Delegation[]>;
  /** Marks a delegation's post as expired. True only for the call that marked it: that caller edits the post. */
  markExpired(id: string, at: number): Promise<boolean>;
  /**
   * Deletes up to `limit` delegations that expired before `before` and whose post was marked expired
   * (one still unmarked waits for its post to be edited); returns how many.
   */
  pruneExpiredBefore(before: number, limit: number): Promise<number>;
  /**
   * Ends a running share at `at`, before its delegation expires: it leaves listActive at once and the
   * expiry job leaves its post alone. `createdAt` still tells when Paperspace ends the delegation.
   * True only for the call that ended it.
   */
  endEarly(id: string, at: number): Promise<boolean>;
}

const machineIdsSchema = z.array(z.string());

type DelegationRow = {
  id: string;
  delegation_id: string;
  access_token_id: string;
  slack_team_id: string;
  slack_user_id: string;
  channel: string;
  message_ts: string | null;
  machine_ids: string;
  created_at: number;
  expires_at: number;
  expired_notified_at: number | null;
};

const fromRow = (row: DelegationRow): Delegation => ({
  id: row.id,
  delegationId: row.delegation_id,
  accessTokenId: row.access_token_id,
  teamId: row.slack_team_id,
  userId: row.slack_user_id,
  channel: row.channel,
  messageTs: row.message_ts,
  machineIds: machineIdsSchema.parse(JSON.parse(row.machine_ids)),
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  expiredNotifiedAt: row.expired_notified_at,
});

export function createDelegationRepository(db: SqlClient): DelegationRepository {
  return {
    async create(input) {
      const row = await db.get<DelegationRow>(
        `INSERT INTO delegations (id, delegation_id, access_token_id, slack_team_id, slack_user_id, channel,
           message_ts, machine_ids, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        [
          randomUUID(),
          input.delegationId,
          input.accessTokenId,
          input.teamId,
          input.userId,
          input.channel,
          input.messageTs ?? null,
          JSON.stringify(input.machineIds),
          input.createdAt,
          input.expiresAt,
        ],
      );
      if (row === undefined) throw new StoreError('Inserting a delegation returned no row.');
      return fromRow(row);
    },

    async get(id) {
      const row = await db.get<DelegationRow>('SELECT * FROM delegations WHERE id = ?', [id]);
      return row && fromRow(row);
    },

    async setMessage(id, messageTs) {
      const { changes } = await db.run('UPDATE delegations SET message_ts = ? WHERE id = ?', [messageTs, id]);
      return changes === 1;
    },

    async listActive(now, filter = {}) {
      const { conditions, params } = equalityFilters([
        ['slack_team_id', filter.teamId],
        ['slack_user_id', filter.userId],
        ['channel', filter.channel],
      ]);
      const rows = await db.all<DelegationRow>(
        `SELECT * FROM delegations WHERE ${['expires_at > ?', ...conditions].join(' AND ')}
         ORDER BY expires_at, id`,
        [now, ...params],
      );
      return rows.map(fromRow);
    },

    async dueToExpire(now, limit) {
      const rows = await db.all<DelegationRow>(
        `SELECT * FROM delegations WHERE expires_at <= ? AND expired_notified_at IS NULL
         ORDER BY expires_at, id LIMIT ?`,
        [now, limit],
      );
      return rows.map(fromRow);
    },

    async markExpired(id, at) {
      const { changes } = await db.run(
        'UPDATE delegations SET expired_notified_at = ? WHERE id = ? AND expired_notified_at IS NULL',
        [at, id],
      );
      return changes === 1;
    },

    async pruneExpiredBefore(before, limit) {
      const { changes } = await db.run(
        `DELETE FROM delegations WHERE id IN (
           SELECT id FROM delegations WHERE expires_at < ? AND expired_notified_at IS NOT NULL
           ORDER BY expires_at, id LIMIT ?)`,
        [before, limit],
      );
      return changes;
    },

    async endEarly(id, at) {
      const { changes } = await db.run(
        `UPDATE delegations SET expires_at = ?, expired_notified_at = ?
         WHERE id = ? AND expires_at > ? AND expired_notified_at IS NULL`,
        [at, at, id, at],
      );
      return changes === 1;
    },
  };
}

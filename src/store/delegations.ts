// Machines shared in a channel for 4 hours: by making the people named, and the members who claim
// access, accessors of the machines, whose grants are kept so they can be removed when the share ends
// (shares made before that, on the contract's API, were resource delegations). The post is marked expired when the share runs out; markExpired makes that
// happen once across replicas, and claimRevoke hands each removal attempt to one replica.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { SlackUser } from './slack-user.js';
import { equalityFilters, type SqlClient, StoreError } from './sql-client.js';

/** One teammate made an accessor of one machine by a share. */
export interface AccessorGrant {
  machineId: string;
  paperspaceUserId: string;
  slackUserId: string;
  /** Removed from the machine's accessors (or found already gone). */
  revoked: boolean;
}

export interface NewDelegation extends SlackUser {
  /** Paperspace's id of the delegation (a number there, kept as text); empty for an accessor share. */
  delegationId: string;
  /** Identifies the access token Paperspace issued; an id, not the token. Empty for an accessor share. */
  accessTokenId: string;
  /** The accessors an accessor share added; null for a delegation share. */
  grants?: AccessorGrant[] | null;
  channel: string;
  messageTs?: string | null;
  machineIds: string[];
  createdAt: number;
  expiresAt: number;
}

export interface Delegation extends Omit<NewDelegation, 'messageTs' | 'grants'> {
  id: string;
  messageTs: string | null;
  expiredNotifiedAt: number | null;
  grants: AccessorGrant[] | null;
  /** When every grant was removed; null while one remains (or for a delegation share). */
  revokedAt: number | null;
  /** Why the last attempt to remove the grants failed, as a sentence; null when none failed. */
  revokeFailure: string | null;
}

interface RevokeOutcome {
  grants: AccessorGrant[];
  /** Set when no grant remains. */
  revokedAt: number | null;
  failure: string | null;
  /** When to try again; null once revoked. */
  retryAt: number | null;
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
  /**
   * Expired delegations whose post has not been marked yet, oldest expiry first. An accessor share
   * is left out until its grants are removed: its post then says whether they were.
   */
  dueToExpire(now: number, limit: number): Promise<Delegation[]>;
  /** Accessor shares that are over (expired or ended) with grants left to remove and no attempt pending. */
  dueToRevoke(now: number, limit: number): Promise<Delegation[]>;
  /**
   * A workspace's accessor shares whose grants are not all removed yet, expired or not: what an
   * uninstall must take back on Paperspace before the keys that can are purged.
   */
  withGrantsLeft(teamId: string): Promise<Delegation[]>;
  /**
   * Takes the next removal attempt of a share until `until`, so one replica makes it. True only for
   * the caller that took it.
   */
  claimRevoke(id: string, now: number, until: number): Promise<boolean>;
  /** Records what an attempt to remove a share's grants achieved. */
  recordRevoke(id: string, outcome: RevokeOutcome): Promise<void>;
  /**
   * Adds grants to a live accessor share. Each write compares the grants it read, so two members
   * claiming at once both stay recorded, and none is added once a removal has started (claimRevoke)
   * or the share is over, so a removal never misses one. False when the share is not live any more.
   */
  addGrants(id: string, grants: AccessorGrant[], now: number): Promise<boolean>;
  /** Marks a delegation's post as expired. True only for the call that marked it: that caller edits the post. */
  markExpired(id: string, at: number): Promise<boolean>;
  /**
   * Deletes up to `limit` delegations that expired before `before` and whose post was marked expired
   * (one still unmarked waits for its post to be edited, and an accessor share for its grants to be
   * removed); returns how many.
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
const grantsSchema = z.array(
  z.object({
    machineId: z.string(),
    paperspaceUserId: z.string(),
    slackUserId: z.string(),
    revoked: z.boolean(),
  }),
);

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
  accessor_grants: string | null;
  revoked_at: number | null;
  revoke_failure: string | null;
  revoke_retry_at: number | null;
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
  grants: row.accessor_grants === null ? null : grantsSchema.parse(JSON.parse(row.accessor_grants)),
  revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  revokeFailure: row.revoke_failure,
});

export function createDelegationRepository(db: SqlClient): DelegationRepository {
  return {
    async create(input) {
      const row = await db.get<DelegationRow>(
        `INSERT INTO delegations (id, delegation_id, access_token_id, slack_team_id, slack_user_id, channel,
           message_ts, machine_ids, created_at, expires_at, accessor_grants)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
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
          input.grants ? JSON.stringify(input.grants) : null,
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
           AND (accessor_grants IS NULL OR revoked_at IS NOT NULL)
         ORDER BY expires_at, id LIMIT ?`,
        [now, limit],
      );
      return rows.map(fromRow);
    },

    async dueToRevoke(now, limit) {
      const rows = await db.all<DelegationRow>(
        `SELECT * FROM delegations WHERE expires_at <= ? AND accessor_grants IS NOT NULL
           AND revoked_at IS NULL AND (revoke_retry_at IS NULL OR revoke_retry_at <= ?)
         ORDER BY expires_at, id LIMIT ?`,
        [now, now, limit],
      );
      return rows.map(fromRow);
    },

    async withGrantsLeft(teamId) {
      const rows = await db.all<DelegationRow>(
        `SELECT * FROM delegations WHERE slack_team_id = ? AND accessor_grants IS NOT NULL AND revoked_at IS NULL
         ORDER BY expires_at, id`,
        [teamId],
      );
      return rows.map(fromRow);
    },

    async claimRevoke(id, now, until) {
      const { changes } = await db.run(
        `UPDATE delegations SET revoke_retry_at = ?
         WHERE id = ? AND revoked_at IS NULL AND (revoke_retry_at IS NULL OR revoke_retry_at <= ?)`,
        [until, id, now],
      );
      return changes === 1;
    },

    async recordRevoke(id, outcome) {
      await db.run(
        `UPDATE delegations SET accessor_grants = ?, revoked_at = ?, revoke_failure = ?, revoke_retry_at = ?
         WHERE id = ?`,
        [JSON.stringify(outcome.grants), outcome.revokedAt, outcome.failure, outcome.retryAt, id],
      );
    },

    async addGrants(id, grants, now) {
      // Concurrent claims of one share are few: a handful of attempts settles them.
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const row = await db.get<DelegationRow>('SELECT * FROM delegations WHERE id = ?', [id]);
        if (row?.accessor_grants == null) return false;
        const next = [...grantsSchema.parse(JSON.parse(row.accessor_grants)), ...grants];
        const { changes } = await db.run(
          `UPDATE delegations SET accessor_grants = ?
           WHERE id = ? AND accessor_grants = ? AND expires_at > ? AND revoke_retry_at IS NULL
             AND revoked_at IS NULL AND expired_notified_at IS NULL`,
          [JSON.stringify(next), id, row.accessor_grants, now],
        );
        if (changes === 1) return true;
        const after = await db.get<DelegationRow>('SELECT * FROM delegations WHERE id = ?', [id]);
        const live =
          after !== undefined &&
          after.expires_at > now &&
          after.revoked_at === null &&
          after.expired_notified_at === null &&
          after.revoke_retry_at === null;
        if (!live) return false;
      }
      throw new StoreError(`Could not record access claimed on share ${id}: its grants kept changing.`);
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
             AND (accessor_grants IS NULL OR revoked_at IS NOT NULL)
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

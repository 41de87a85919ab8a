// A short claim on "this operation of this machine is being sent", taken before the bot calls
// Paperspace, so that two Start clicks arriving together (a double click, the card and App Home, two
// replicas) send one start. Until Paperspace has answered, the machine still reads off and no watch
// exists yet: neither the state nor the watches can tell the second click that the first is under way.
// One row per machine in a workspace; the INSERT ... ON CONFLICT DO UPDATE ... WHERE is the claim, atomic
// on SQLite and PostgreSQL alike, so exactly one of two concurrent claimers gets a row back.
import { randomUUID } from 'node:crypto';
import type { SqlClient } from './sql-client.js';

interface PowerClaim {
  userId: string;
  operation: string;
  claimedAt: number;
  expiresAt: number;
}

type PowerClaimResult =
  /** This caller holds the claim; `claimId` releases it. */
  | { claimed: true; claimId: string }
  /** Someone asked for the same operation moments ago, and their claim still holds. */
  | { claimed: false; heldBy: PowerClaim };

export interface PowerClaimRepository {
  /**
   * Claims `operation` of the machine until `expiresAt`. A live claim of the same operation refuses it;
   * an expired one, or one of another operation (a stop after a start: the newer request counts), is
   * replaced.
   */
  claim(input: {
    teamId: string;
    machineId: string;
    operation: string;
    userId: string;
    at: number;
    expiresAt: number;
  }): Promise<PowerClaimResult>;
  /** Gives the claim back (Paperspace refused the operation), so that asking again is not refused. */
  release(claim: { teamId: string; machineId: string; claimId: string }): Promise<void>;
  /** Deletes the claims that expired before `now` (a destroyed machine's would stay for good); how many. */
  pruneExpired(now: number): Promise<number>;
}

type PowerClaimRow = {
  slack_user_id: string;
  operation: string;
  claimed_at: number | string;
  expires_at: number | string;
};

export function createPowerClaimRepository(db: SqlClient): PowerClaimRepository {
  const claim: PowerClaimRepository['claim'] = async (input) => {
    const { teamId, machineId, operation, userId, at, expiresAt } = input;
    const claimId = randomUUID();
    const won = await db.get<{ claim_id: string }>(
      `INSERT INTO power_claims (slack_team_id, machine_id, operation, slack_user_id, claim_id, claimed_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (slack_team_id, machine_id) DO UPDATE SET
           operation = excluded.operation, slack_user_id = excluded.slack_user_id,
           claim_id = excluded.claim_id, claimed_at = excluded.claimed_at, expires_at = excluded.expires_at
         WHERE power_claims.expires_at <= excluded.claimed_at OR power_claims.operation <> excluded.operation
         RETURNING claim_id`,
      [teamId, machineId, operation, userId, claimId, at, expiresAt],
    );
    if (won?.claim_id === claimId) return { claimed: true, claimId };
    const row = await db.get<PowerClaimRow>(
      'SELECT slack_user_id, operation, claimed_at, expires_at FROM power_claims WHERE slack_team_id = ? AND machine_id = ?',
      [teamId, machineId],
    );
    // Released between the two statements: the claim is free again, so try once more.
    if (row === undefined) return claim(input);
    return {
      claimed: false,
      heldBy: {
        userId: row.slack_user_id,
        operation: row.operation,
        claimedAt: Number(row.claimed_at),
        expiresAt: Number(row.expires_at),
      },
    };
  };
  return {
    claim,
    async pruneExpired(now) {
      const { changes } = await db.run('DELETE FROM power_claims WHERE expires_at < ?', [now]);
      return changes;
    },
    async release({ teamId, machineId, claimId }) {
      await db.run('DELETE FROM power_claims WHERE slack_team_id = ? AND machine_id = ? AND claim_id = ?', [
        teamId,
        machineId,
        claimId,
      ]);
    },
  };
}

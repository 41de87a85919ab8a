// Every replica runs every cron schedule (reminders, team digests), so each occurrence is claimed
// before it is posted: the first replica whose claim lands posts it, and the others skip it.
import type { SqlClient } from './sql-client.js';

export interface ScheduledRunClaims {
  /**
   * Claims the occurrence of a schedule due at `scheduledAt`. True for exactly one caller, whichever
   * replica asks first, and that one posts it; false for the rest and for a deleted schedule.
   */
  claimRun(scheduleId: string, scheduledAt: number, claim: { owner: string; at: number }): Promise<boolean>;
  /** Forgets claimed occurrences scheduled before `before`; returns how many. */
  pruneRuns(before: number): Promise<number>;
}

/** Where a kind of schedule keeps its claims: `runs.(key, scheduled_at)`, key referencing `schedules.id`. */
export interface RunTables {
  schedules: 'reminders' | 'team_digests';
  runs: 'reminder_runs' | 'team_digest_runs';
  key: 'reminder_id' | 'digest_id';
}

export function createScheduledRunClaims(
  db: SqlClient,
  { schedules, runs, key }: RunTables,
): ScheduledRunClaims {
  return {
    async claimRun(scheduleId, scheduledAt, { owner, at }) {
      // A schedule deleted meanwhile has nothing to claim. The casts tell PostgreSQL the types of
      // parameters that have no column to infer them from.
      const { changes } = await db.run(
        `INSERT INTO ${runs} (${key}, scheduled_at, claimed_by, claimed_at)
         SELECT id, CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS BIGINT) FROM ${schedules} WHERE id = ?
         ON CONFLICT (${key}, scheduled_at) DO NOTHING`,
        [scheduledAt, owner, at, scheduleId],
      );
      return changes === 1;
    },

    async pruneRuns(before) {
      const { changes } = await db.run(`DELETE FROM ${runs} WHERE scheduled_at < ?`, [before]);
      return changes;
    },
  };
}

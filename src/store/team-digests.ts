// Team digests: "every day at 09:00, tell #ops what is running, whose it is, and what the month has
// cost so far". One per Paperspace team in a Slack workspace; setting it again replaces it. Every
// replica schedules every digest; claimRun decides which one posts a given occurrence.
import { randomUUID } from 'node:crypto';
import { createScheduledRunClaims, type ScheduledRunClaims } from './scheduled-run-claims.js';
import { type SqlClient, StoreError } from './sql-client.js';

export interface NewTeamDigest {
  /** The Slack workspace. */
  teamId: string;
  paperspaceTeamId: string;
  channel: string;
  /** A node-cron expression, validated by the caller. */
  cron: string;
  /** IANA time zone the cron expression is read in. */
  timezone: string;
  /** How people read the schedule: "daily at 09:00". */
  label: string;
  /** The Slack user (an administrator) whose key lists the team's machines. */
  setBy: string;
  createdAt: number;
}

export interface TeamDigest extends NewTeamDigest {
  id: string;
}

export interface TeamDigestRepository extends ScheduledRunClaims {
  /** Stores the team's digest, replacing the one it had (which then stops firing). */
  put(input: NewTeamDigest): Promise<TeamDigest>;
  get(id: string): Promise<TeamDigest | undefined>;
  forTeam(teamId: string, paperspaceTeamId: string): Promise<TeamDigest | undefined>;
  listAll(): Promise<TeamDigest[]>;
  /** False when it was gone already (another replica, or `/ps digest off`, got there first). */
  delete(id: string): Promise<boolean>;
}

type Row = {
  id: string;
  slack_team_id: string;
  paperspace_team_id: string;
  channel: string;
  cron: string;
  timezone: string;
  label: string;
  set_by: string;
  created_at: number;
};

const fromRow = (row: Row): TeamDigest => ({
  id: row.id,
  teamId: row.slack_team_id,
  paperspaceTeamId: row.paperspace_team_id,
  channel: row.channel,
  cron: row.cron,
  timezone: row.timezone,
  label: row.label,
  setBy: row.set_by,
  createdAt: Number(row.created_at),
});

export function createTeamDigestRepository(db: SqlClient): TeamDigestRepository {
  return {
    async put(input) {
      // A new id each time: the schedulers see a changed digest as a new one, and the old occurrences
      // claimed under the old id cannot block the new schedule.
      const row = await db.transaction(async (tx) => {
        await tx.run('DELETE FROM team_digests WHERE slack_team_id = ? AND paperspace_team_id = ?', [
          input.teamId,
          input.paperspaceTeamId,
        ]);
        return tx.get<Row>(
          `INSERT INTO team_digests
             (id, slack_team_id, paperspace_team_id, channel, cron, timezone, label, set_by, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
          [
            randomUUID(),
            input.teamId,
            input.paperspaceTeamId,
            input.channel,
            input.cron,
            input.timezone,
            input.label,
            input.setBy,
            input.createdAt,
          ],
        );
      });
      if (row === undefined) throw new StoreError('Inserting a team digest returned no row.');
      return fromRow(row);
    },

    async get(id) {
      const row = await db.get<Row>('SELECT * FROM team_digests WHERE id = ?', [id]);
      return row && fromRow(row);
    },

    async forTeam(teamId, paperspaceTeamId) {
      const row = await db.get<Row>(
        'SELECT * FROM team_digests WHERE slack_team_id = ? AND paperspace_team_id = ?',
        [teamId, paperspaceTeamId],
      );
      return row && fromRow(row);
    },

    async listAll() {
      const rows = await db.all<Row>('SELECT * FROM team_digests ORDER BY created_at, id');
      return rows.map(fromRow);
    },

    async delete(id) {
      const { changes } = await db.run('DELETE FROM team_digests WHERE id = ?', [id]);
      return changes === 1;
    },

    ...createScheduledRunClaims(db, {
      schedules: 'team_digests',
      runs: 'team_digest_runs',
      key: 'digest_id',
    }),
  };
}

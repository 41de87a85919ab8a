// "Snooze 1h" on a reminder: show me this machine again later. A person has at most one pending
// snooze per machine (snoozing again moves it), and a due snooze is taken by exactly one replica.
import type { SlackUser } from './slack-user.js';
import type { SqlClient } from './sql-client.js';

export interface Snooze extends SlackUser {
  machineId: string;
  /** The name the reminder showed, for `/ps reminders`; null on snoozes stored before names were kept. */
  machineName: string | null;
  /**
   * The reminder it came from; deleting that reminder drops the snooze too. A snooze clicked on the
   * message of a reminder deleted since is kept, without the link.
   */
  reminderId: string | null;
  channel: string;
  fireAt: number;
  createdAt: number;
}

export interface SnoozeRepository {
  /** Sets the user's snooze for the machine, replacing a pending one. */
  snooze(snooze: Snooze): Promise<void>;
  /** "Keep running" or a stop: the machine needs no further reminder. True if one was pending. */
  cancel(user: SlackUser, machineId: string): Promise<boolean>;
  /**
   * `/ps remind off`: every pending snooze of the user, those whose reminder was deleted before the
   * click too. Answers how many there were.
   */
  cancelAllOf(user: SlackUser): Promise<number>;
  /** Snoozes whose time has come, earliest first. */
  due(now: number, limit: number): Promise<Snooze[]>;
  /**
   * Removes a due snooze for posting. True for exactly one caller; false if another replica took
   * it or the user snoozed again (moved fireAt) in the meantime.
   */
  take(snooze: Snooze): Promise<boolean>;
  /** The user's pending snoozes, earliest first. */
  listByUser(user: SlackUser): Promise<Snooze[]>;
}

type SnoozeRow = {
  slack_team_id: string;
  slack_user_id: string;
  machine_id: string;
  machine_name: string | null;
  reminder_id: string | null;
  channel: string;
  fire_at: number;
  created_at: number;
};

const fromRow = (row: SnoozeRow): Snooze => ({
  teamId: row.slack_team_id,
  userId: row.slack_user_id,
  machineId: row.machine_id,
  machineName: row.machine_name,
  reminderId: row.reminder_id,
  channel: row.channel,
  fireAt: row.fire_at,
  createdAt: row.created_at,
});

export function createSnoozeRepository(db: SqlClient): SnoozeRepository {
  return {
    async snooze(snooze) {
      await db.run(
        `INSERT INTO reminder_snoozes (slack_team_id, slack_user_id, machine_id, machine_name, reminder_id, channel, fire_at, created_at)
         VALUES (?, ?, ?, ?, (SELECT id FROM reminders WHERE id = ?), ?, ?, ?)
         ON CONFLICT (slack_team_id, slack_user_id, machine_id) DO UPDATE SET
           machine_name = excluded.machine_name, reminder_id = excluded.reminder_id, channel = excluded.channel,
           fire_at = excluded.fire_at, created_at = excluded.created_at`,
        [
          snooze.teamId,
          snooze.userId,
          snooze.machineId,
          snooze.machineName,
          snooze.reminderId,
          snooze.channel,
          snooze.fireAt,
          snooze.createdAt,
        ],
      );
    },

    async cancel(user, machineId) {
      const { changes } = await db.run(
        'DELETE FROM reminder_snoozes WHERE slack_team_id = ? AND slack_user_id = ? AND machine_id = ?',
        [user.teamId, user.userId, machineId],
      );
      return changes === 1;
    },

    async cancelAllOf(user) {
      const { changes } = await db.run(
        'DELETE FROM reminder_snoozes WHERE slack_team_id = ? AND slack_user_id = ?',
        [user.teamId, user.userId],
      );
      return changes;
    },

    async due(now, limit) {
      const rows = await db.all<SnoozeRow>(
        'SELECT * FROM reminder_snoozes WHERE fire_at <= ? ORDER BY fire_at, slack_team_id, slack_user_id, machine_id LIMIT ?',
        [now, limit],
      );
      return rows.map(fromRow);
    },

    async take(snooze) {
      const { changes } = await db.run(
        `DELETE FROM reminder_snoozes
         WHERE slack_team_id = ? AND slack_user_id = ? AND machine_id = ? AND fire_at = ?`,
        [snooze.teamId, snooze.userId, snooze.machineId, snooze.fireAt],
      );
      return changes === 1;
    },

    async listByUser(user) {
      const rows = await db.all<SnoozeRow>(
        'SELECT * FROM reminder_snoozes WHERE slack_team_id = ? AND slack_user_id = ? ORDER BY fire_at, machine_id',
        [user.teamId, user.userId],
      );
      return rows.map(fromRow);
    },
  };
}

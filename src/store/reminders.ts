// Shutdown reminders ("every weekday at 19:00 in my time zone, show me what is still running").
// Every replica runs every cron schedule; claimRun decides which one posts a given occurrence.
import { randomUUID } from 'node:crypto';
import { createScheduledRunClaims, type ScheduledRunClaims } from './scheduled-run-claims.js';
import type { SlackUser } from './slack-user.js';
import { type SqlClient, StoreError } from './sql-client.js';

export interface NewReminder extends SlackUser {
  /** A node-cron expression, validated by the caller. */
  cron: string;
  /** IANA time zone the cron expression is read in, e.g. Europe/Berlin. */
  timezone: string;
  label?: string | null;
  /** Where the reminder is posted: the user's DM channel or a channel. */
  channel: string;
  createdAt: number;
}

export interface Reminder extends Omit<NewReminder, 'label'> {
  id: string;
  label: string | null;
}

/**
 * Why a reminder was not stored: the person has one with the same schedule already (`existingId`), or
 * `limit` of them. The database decides, so concurrent requests cannot get past either.
 */
export class ReminderRefusedError extends StoreError {
  constructor(
    readonly reason: 'duplicate' | 'full',
    readonly detail: { existingId?: string; count: number },
  ) {
    super(
      reason === 'duplicate'
        ? 'The person already has this reminder.'
        : 'The person has reminders up to the limit.',
    );
  }
}

export interface ReminderRepository extends ScheduledRunClaims {
  /**
   * Stores a reminder unless the person already has one on the same schedule or `limit` of them
   * (no limit by default); throws ReminderRefusedError then. Each reminder holds a slot below the
   * limit that no other reminder of the person can share, so the limit holds under concurrent calls.
   */
  create(input: NewReminder, limit?: number): Promise<Reminder>;
  get(id: string): Promise<Reminder | undefined>;
  /** One person's reminders, oldest first. */
  listByUser(user: SlackUser): Promise<Reminder[]>;
  /** Every reminder, oldest first: the scheduler schedules them all at start. */
  listAll(): Promise<Reminder[]>;
  /** Deletes one of the user's reminders (with its pending snoozes); false if they have none by that id. */
  delete(user: SlackUser, id: string): Promise<boolean>;
  /** `/ps remind off`: deletes all of the user's reminders and returns how many there were. */
  deleteByUser(user: SlackUser): Promise<number>;
}

type ReminderRow = {
  id: string;
  slack_team_id: string;
  slack_user_id: string;
  cron: string;
  timezone: string;
  label: string | null;
  channel: string;
  created_at: number;
};

const fromRow = (row: ReminderRow): Reminder => ({
  id: row.id,
  teamId: row.slack_team_id,
  userId: row.slack_user_id,
  cron: row.cron,
  timezone: row.timezone,
  label: row.label,
  channel: row.channel,
  createdAt: row.created_at,
});

/** Each failed attempt means another reminder of the person was stored meanwhile, so this is ample. */
const MAX_CREATE_ATTEMPTS = 50;

export function createReminderRepository(db: SqlClient): ReminderRepository {
  return {
    async create(input, limit = Number.POSITIVE_INFINITY) {
      for (let attempt = 0; attempt < MAX_CREATE_ATTEMPTS; attempt += 1) {
        const held = await db.all<{ id: string; slot: number | null; cron: string; timezone: string }>(
          'SELECT id, slot, cron, timezone FROM reminders WHERE slack_team_id = ? AND slack_user_id = ?',
          [input.teamId, input.userId],
        );
        const same = held.find((row) => row.cron === input.cron && row.timezone === input.timezone);
        if (same) throw new ReminderRefusedError('duplicate', { existingId: same.id, count: held.length });
        const used = new Set(held.map((row) => row.slot));
        let slot = 0;
        while (used.has(slot)) slot += 1;
        if (slot >= limit) throw new ReminderRefusedError('full', { count: held.length });
        // Another request may take the slot or the schedule between the read and this insert; the
        // unique indexes refuse the second one, which then reads again.
        const row = await db.get<ReminderRow>(
          `INSERT INTO reminders (id, slack_team_id, slack_user_id, cron, timezone, label, channel, created_at, slot)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING *`,
          [
            randomUUID(),
            input.teamId,
            input.userId,
            input.cron,
            input.timezone,
            input.label ?? null,
            input.channel,
            input.createdAt,
            slot,
          ],
        );
        if (row !== undefined) return fromRow(row);
      }
      throw new StoreError(
        `Storing a reminder conflicted with others ${MAX_CREATE_ATTEMPTS} times in a row.`,
      );
    },

    async get(id) {
      const row = await db.get<ReminderRow>('SELECT * FROM reminders WHERE id = ?', [id]);
      return row && fromRow(row);
    },

    async listByUser(user) {
      const rows = await db.all<ReminderRow>(
        'SELECT * FROM reminders WHERE slack_team_id = ? AND slack_user_id = ? ORDER BY created_at, id',
        [user.teamId, user.userId],
      );
      return rows.map(fromRow);
    },

    async listAll() {
      const rows = await db.all<ReminderRow>('SELECT * FROM reminders ORDER BY created_at, id');
      return rows.map(fromRow);
    },

    async delete(user, id) {
      const { changes } = await db.run(
        'DELETE FROM reminders WHERE id = ? AND slack_team_id = ? AND slack_user_id = ?',
        [id, user.teamId, user.userId],
      );
      return changes === 1;
    },

    async deleteByUser(user) {
      const { changes } = await db.run(
        'DELETE FROM reminders WHERE slack_team_id = ? AND slack_user_id = ?',
        [user.teamId, user.userId],
      );
      return changes;
    },

    ...createScheduledRunClaims(db, { schedules: 'reminders', runs: 'reminder_runs', key: 'reminder_id' }),
  };
}

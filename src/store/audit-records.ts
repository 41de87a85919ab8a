// The audit log: every mutating action someone takes through the bot, with its outcome. Rows are
// only ever added and never changed; the retention job deletes those older than AUDIT_RETENTION_DAYS.
import type { SlackUser } from './slack-user.js';
import { equalityFilters, type SqlClient, StoreError } from './sql-client.js';

type AuditOutcome = 'ok' | 'error';

export interface AuditRecordInput extends SlackUser {
  /** What was done, e.g. `machine.start`, `delegation.create`. */
  action: string;
  /** The machine, script, drive... it was done to, when there is one. */
  resourceId?: string | null;
  outcome: AuditOutcome;
  /** Why it failed, or a short note. Callers must not put secrets here. */
  message?: string | null;
  at: number;
}

export interface AuditRecord extends SlackUser {
  id: number;
  action: string;
  resourceId: string | null;
  outcome: AuditOutcome;
  message: string | null;
  at: number;
}

interface AuditListFilter {
  teamId?: string;
  userId?: string;
  resourceId?: string;
  /** How many of the newest records to return, 1 to MAX_AUDIT_LIST. */
  limit: number;
}

export interface AuditRepository {
  record(input: AuditRecordInput): Promise<AuditRecord>;
  /** Newest first. */
  list(filter: AuditListFilter): Promise<AuditRecord[]>;
  /** Deletes up to `limit` records that happened before `before`, oldest first; returns how many. */
  pruneBefore(before: number, limit: number): Promise<number>;
}

const MAX_AUDIT_LIST = 1000;
// An error message from an API can be a whole HTML page; the audit log needs the gist.
const MAX_MESSAGE_LENGTH = 1000;

type AuditRow = {
  id: number;
  slack_team_id: string;
  slack_user_id: string;
  action: string;
  resource_id: string | null;
  outcome: AuditOutcome;
  message: string | null;
  occurred_at: number;
};

const fromRow = (row: AuditRow): AuditRecord => ({
  id: row.id,
  teamId: row.slack_team_id,
  userId: row.slack_user_id,
  action: row.action,
  resourceId: row.resource_id,
  outcome: row.outcome,
  message: row.message,
  at: row.occurred_at,
});

function truncate(message: string | null | undefined): string | null {
  if (message === undefined || message === null) return null;
  return message.length <= MAX_MESSAGE_LENGTH ? message : `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…`;
}

export function createAuditRepository(db: SqlClient): AuditRepository {
  return {
    async record(input) {
      const row = await db.get<AuditRow>(
        `INSERT INTO audit_records (slack_team_id, slack_user_id, action, resource_id, outcome, message, occurred_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        [
          input.teamId,
          input.userId,
          input.action,
          input.resourceId ?? null,
          input.outcome,
          truncate(input.message),
          input.at,
        ],
      );
      if (row === undefined) throw new StoreError('Inserting an audit record returned no row.');
      return fromRow(row);
    },

    async list({ teamId, userId, resourceId, limit }) {
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_AUDIT_LIST) {
        throw new RangeError(`Audit list limit must be a whole number from 1 to ${MAX_AUDIT_LIST}.`);
      }
      const { conditions, params } = equalityFilters([
        ['slack_team_id', teamId],
        ['slack_user_id', userId],
        ['resource_id', resourceId],
      ]);
      const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
      const rows = await db.all<AuditRow>(
        `SELECT * FROM audit_records ${where} ORDER BY occurred_at DESC, id DESC LIMIT ?`,
        [...params, limit],
      );
      return rows.map(fromRow);
    },

    async pruneBefore(before, limit) {
      const { changes } = await db.run(
        `DELETE FROM audit_records WHERE id IN (
           SELECT id FROM audit_records WHERE occurred_at < ? ORDER BY occurred_at, id LIMIT ?)`,
        [before, limit],
      );
      return changes;
    },
  };
}

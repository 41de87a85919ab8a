// Requests for what Paperspace lets only someone else do, the owner's standing grants, and each
// Paperspace team's approvals channel. A request leaves 'open' through one conditional UPDATE
// (`... WHERE status = 'open'`): when two approvers, or two replicas handling one click, decide at
// once, exactly one of them gets `true` and acts; the other is told it was already handled.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  type CreateDetails,
  type PowerDetails,
  type PowerKind,
  parseRequested,
  type RequestDetails,
  type RequestKind,
  readRequested,
} from './approval-request-details.js';
import type { SqlClient } from './sql-client.js';
import { StoreError } from './sql-client.js';

export type RequestStatus = 'open' | 'approved' | 'denied' | 'withdrawn' | 'expired' | 'failed';

/** The columns of a request, every kind alike. */
interface RequestColumns {
  teamId: string;
  requesterId: string;
  /** The requester's Paperspace team: its administrators approve a create. */
  paperspaceTeamId: string | null;
  machineId: string | null;
  machineName: string | null;
  /** The owner asked (a power request); null for a create, which any administrator may approve. */
  ownerId: string | null;
  /** Where the requester asked, to tell them there. */
  channel: string | null;
  createdAt: number;
  expiresAt: number;
  /** The Workflow Builder step run this request ends when it is decided; absent or null: none waits. */
  functionExecutionId?: string | null;
}

export interface NewApprovalRequest extends RequestColumns {
  kind: RequestKind;
  /** What the approver needs to act, of the request's kind; checked before it is stored. Never a secret. */
  details: RequestDetails;
}

export interface PostedRequest {
  channel: string;
  ts: string;
  /** The approvers' copy (Approve / Deny) or the requester's receipt (Withdraw). */
  to: 'approver' | 'requester';
}

interface ApprovalSettings {
  channel: string | null;
  /** How long a request stays open; null: the default. */
  lifetimeMs: number | null;
}

/** What the store keeps of a request beyond what it was asked for: its decision and its copies. */
interface RequestState {
  id: string;
  status: RequestStatus;
  decidedBy: string | null;
  decidedAt: number | null;
  reason: string | null;
  /** The messages the request was posted as to approvers, updated once it is decided. */
  messages: PostedRequest[];
}

/**
 * A request whose type does not tie its details to its kind: what a message is drawn from, whoever
 * built it. What the store reads is a ReadableRequest (or an UnreadableRequest), where kind narrows.
 */
export interface ApprovalRequest extends NewApprovalRequest, RequestState {}
export interface CreateRequest extends RequestColumns, RequestState {
  kind: 'create';
  details: CreateDetails;
}
export interface PowerRequest extends RequestColumns, RequestState {
  kind: PowerKind;
  details: PowerDetails;
}
/** A request as the store reads it: its details parsed by its kind, so `kind` narrows them. */
export type ReadableRequest = CreateRequest | PowerRequest;
/**
 * A stored request whose details do not parse (a bug wrote them, or a hand): its columns and why, so
 * the person can be told it cannot be read and it can still expire, instead of a failure per read.
 */
interface UnreadableRequest extends RequestColumns, RequestState {
  kind: RequestKind;
  details: null;
  problem: string;
}
export type StoredRequest = ReadableRequest | UnreadableRequest;

export interface Decision {
  status: Exclude<RequestStatus, 'open'>;
  by: string;
  at: number;
  reason?: string | null;
}

export interface ApprovalRequestRepository {
  /** Stores a new open request; its details must parse by its kind (a StoreError otherwise). */
  create(input: NewApprovalRequest): Promise<ReadableRequest>;
  get(id: string): Promise<StoredRequest | undefined>;
  addMessage(id: string, message: PostedRequest): Promise<void>;
  /** Moves an open, unexpired request to the decision. True only for the one caller that moved it. */
  decide(id: string, decision: Decision): Promise<boolean>;
  /** After an approval: what came of it ('approved' stays, or 'failed' with the reason). */
  settle(id: string, status: 'approved' | 'failed', reason: string | null): Promise<void>;
  /** Gives an approved request back to 'open' (the approver turned out not to be allowed either). */
  reopen(id: string, decidedBy: string): Promise<boolean>;
  /** Open requests past their expiry, oldest first. */
  dueToExpire(now: number, limit: number): Promise<StoredRequest[]>;
  /** A person's own open requests, newest first. */
  openBy(teamId: string, requesterId: string, now: number): Promise<StoredRequest[]>;
  /**
   * Open requests this person may be asked to decide: power requests to them, and of their Paperspace
   * team the creates and the power requests no linked owner was found for (the caller narrows these).
   */
  openFor(
    teamId: string,
    approver: { userId: string; paperspaceTeamId: string | null },
    now: number,
  ): Promise<StoredRequest[]>;

  /** Lets `requesterId` power `machineId` with the owner's key until `expiresAt`. */
  grant(input: {
    teamId: string;
    ownerId: string;
    requesterId: string;
    machineId: string;
    expiresAt: number;
  }): Promise<void>;
  /** The owner who granted `requesterId` power over `machineId` and whose grant still runs at `now`. */
  grantedBy(teamId: string, requesterId: string, machineId: string, now: number): Promise<string | undefined>;
  /**
   * Deletes up to `limit` requests decided (approved, denied, withdrawn, expired or failed) before
   * `before`, oldest first; an open request is never deleted. Returns how many.
   */
  pruneDecidedBefore(before: number, limit: number): Promise<number>;
  /** Deletes up to `limit` standing grants that ran out before `before`, oldest first; returns how many. */
  pruneGrantsExpiredBefore(before: number, limit: number): Promise<number>;

  setSettings(input: {
    teamId: string;
    paperspaceTeamId: string;
    settings: ApprovalSettings;
    setBy: string;
    at: number;
  }): Promise<void>;
  settingsOf(teamId: string, paperspaceTeamId: string): Promise<ApprovalSettings | undefined>;

  /** Remembers what Paperspace showed of a person's role: a create it accepted or refused. */
  noteRole(teamId: string, paperspaceUserId: string, isAdmin: boolean, at: number): Promise<void>;
  /** The roles learned so far in the workspace, by Paperspace user id (true: administrator). */
  knownRoles(teamId: string): Promise<Map<string, boolean>>;
}

const messagesSchema = z.array(
  z.object({ channel: z.string(), ts: z.string(), to: z.enum(['approver', 'requester']) }),
);

type RequestRow = {
  id: string;
  slack_team_id: string;
  requester_id: string;
  paperspace_team_id: string | null;
  kind: RequestKind;
  machine_id: string | null;
  machine_name: string | null;
  owner_id: string | null;
  details: string;
  channel: string | null;
  status: RequestStatus;
  created_at: number;
  expires_at: number;
  decided_by: string | null;
  decided_at: number | null;
  reason: string | null;
  messages: string;
  function_execution_id?: string | null;
};

function fromRow(row: RequestRow): StoredRequest {
  const columns = {
    id: row.id,
    teamId: row.slack_team_id,
    requesterId: row.requester_id,
    paperspaceTeamId: row.paperspace_team_id,
    machineId: row.machine_id,
    machineName: row.machine_name,
    ownerId: row.owner_id,
    channel: row.channel,
    status: row.status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at,
    reason: row.reason,
    messages: messagesSchema.parse(JSON.parse(row.messages)),
    functionExecutionId: row.function_execution_id ?? null,
  };
  const requested = readRequested(row.kind, row.details);
  if (!requested.ok) return { ...columns, kind: row.kind, details: null, problem: requested.problem };
  return { ...columns, ...requested.value };
}

export function createApprovalRequestRepository(db: SqlClient): ApprovalRequestRepository {
  return {
    async create(input) {
      const requested = parseRequested(input.kind, input.details);
      if (!requested.ok) {
        throw new StoreError(`An approval request's details do not fit its kind (${requested.problem}).`);
      }
      const row = await db.get<RequestRow>(
        `INSERT INTO approval_requests (id, slack_team_id, requester_id, paperspace_team_id, kind, machine_id,
           machine_name, owner_id, details, channel, status, created_at, expires_at, messages,
           function_execution_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, '[]', ?) RETURNING *`,
        [
          randomUUID(),
          input.teamId,
          input.requesterId,
          input.paperspaceTeamId,
          requested.value.kind,
          input.machineId,
          input.machineName,
          input.ownerId,
          JSON.stringify(requested.value.details),
          input.channel,
          input.createdAt,
          input.expiresAt,
          input.functionExecutionId ?? null,
        ],
      );
      if (row === undefined) throw new StoreError('Inserting an approval request returned no row.');
      const created = fromRow(row);
      if (created.details === null)
        throw new StoreError(`A new approval request reads back as ${created.problem}.`);
      return created;
    },

    async get(id) {
      const row = await db.get<RequestRow>('SELECT * FROM approval_requests WHERE id = ?', [id]);
      return row && fromRow(row);
    },

    async addMessage(id, message) {
      // Read and write in one transaction so two posts recorded at once both stay.
      await db.transaction(async (tx) => {
        const row = await tx.get<{ messages: string }>(
          'SELECT messages FROM approval_requests WHERE id = ?',
          [id],
        );
        if (row === undefined) return;
        const messages = [...messagesSchema.parse(JSON.parse(row.messages)), message];
        await tx.run('UPDATE approval_requests SET messages = ? WHERE id = ?', [
          JSON.stringify(messages),
          id,
        ]);
      });
    },

    async decide(id, { status, by, at, reason = null }) {
      // Nobody may approve, deny or withdraw a request once its time is up; only the expiry closes it.
      const inTime = status === 'expired' ? 'expires_at <= ?' : 'expires_at > ?';
      const { changes } = await db.run(
        `UPDATE approval_requests SET status = ?, decided_by = ?, decided_at = ?, reason = ?
         WHERE id = ? AND status = 'open' AND ${inTime}`,
        [status, by, at, reason, id, at],
      );
      return changes === 1;
    },

    async settle(id, status, reason) {
      await db.run(
        `UPDATE approval_requests SET status = ?, reason = ? WHERE id = ? AND status = 'approved'`,
        [status, reason, id],
      );
    },

    async reopen(id, decidedBy) {
      const { changes } = await db.run(
        `UPDATE approval_requests SET status = 'open', decided_by = NULL, decided_at = NULL
         WHERE id = ? AND status = 'approved' AND decided_by = ?`,
        [id, decidedBy],
      );
      return changes === 1;
    },

    async dueToExpire(now, limit) {
      const rows = await db.all<RequestRow>(
        `SELECT * FROM approval_requests WHERE status = 'open' AND expires_at <= ?
         ORDER BY expires_at, id LIMIT ?`,
        [now, limit],
      );
      return rows.map(fromRow);
    },

    async openBy(teamId, requesterId, now) {
      const rows = await db.all<RequestRow>(
        `SELECT * FROM approval_requests
         WHERE slack_team_id = ? AND requester_id = ? AND status = 'open' AND expires_at > ?
         ORDER BY created_at DESC, id`,
        [teamId, requesterId, now],
      );
      return rows.map(fromRow);
    },

    async openFor(teamId, { userId, paperspaceTeamId }, now) {
      const rows = await db.all<RequestRow>(
        `SELECT * FROM approval_requests
         WHERE slack_team_id = ? AND status = 'open' AND expires_at > ? AND requester_id <> ?
           AND (owner_id = ? OR (paperspace_team_id = ? AND (kind = 'create' OR owner_id IS NULL)))
         ORDER BY created_at DESC, id`,
        [teamId, now, userId, userId, paperspaceTeamId ?? ''],
      );
      return rows.map(fromRow);
    },

    async grant({ teamId, ownerId, requesterId, machineId, expiresAt }) {
      await db.run(
        `INSERT INTO approval_grants (slack_team_id, owner_id, requester_id, machine_id, expires_at)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (slack_team_id, owner_id, requester_id, machine_id) DO UPDATE SET expires_at = excluded.expires_at`,
        [teamId, ownerId, requesterId, machineId, expiresAt],
      );
    },

    async grantedBy(teamId, requesterId, machineId, now) {
      const row = await db.get<{ owner_id: string }>(
        `SELECT owner_id FROM approval_grants
         WHERE slack_team_id = ? AND requester_id = ? AND machine_id = ? AND expires_at > ?
         ORDER BY expires_at DESC LIMIT 1`,
        [teamId, requesterId, machineId, now],
      );
      return row?.owner_id;
    },

    async pruneDecidedBefore(before, limit) {
      // An expiry decides with decided_at too; expires_at only stands in for a row that somehow lacks one.
      const { changes } = await db.run(
        `DELETE FROM approval_requests WHERE id IN (
           SELECT id FROM approval_requests WHERE status <> 'open' AND COALESCE(decided_at, expires_at) < ?
           ORDER BY COALESCE(decided_at, expires_at), id LIMIT ?)`,
        [before, limit],
      );
      return changes;
    },

    async pruneGrantsExpiredBefore(before, limit) {
      const { changes } = await db.run(
        `DELETE FROM approval_grants WHERE (slack_team_id, owner_id, requester_id, machine_id) IN (
           SELECT slack_team_id, owner_id, requester_id, machine_id FROM approval_grants WHERE expires_at < ?
           ORDER BY expires_at LIMIT ?)`,
        [before, limit],
      );
      return changes;
    },

    async setSettings({ teamId, paperspaceTeamId, settings, setBy, at }) {
      await db.run(
        `INSERT INTO approval_settings (slack_team_id, paperspace_team_id, channel, lifetime_ms, set_by, set_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (slack_team_id, paperspace_team_id)
         DO UPDATE SET channel = excluded.channel, lifetime_ms = excluded.lifetime_ms,
           set_by = excluded.set_by, set_at = excluded.set_at`,
        [teamId, paperspaceTeamId, settings.channel, settings.lifetimeMs, setBy, at],
      );
    },

    async settingsOf(teamId, paperspaceTeamId) {
      const row = await db.get<{ channel: string | null; lifetime_ms: number | null }>(
        'SELECT channel, lifetime_ms FROM approval_settings WHERE slack_team_id = ? AND paperspace_team_id = ?',
        [teamId, paperspaceTeamId],
      );
      return row && { channel: row.channel, lifetimeMs: row.lifetime_ms };
    },

    async noteRole(teamId, paperspaceUserId, isAdmin, at) {
      await db.run(
        `INSERT INTO approval_roles (slack_team_id, paperspace_user_id, is_admin, learned_at)
         VALUES (?, ?, ?, ?)
         ON CONFLICT (slack_team_id, paperspace_user_id)
         DO UPDATE SET is_admin = excluded.is_admin, learned_at = excluded.learned_at`,
        [teamId, paperspaceUserId, isAdmin ? 1 : 0, at],
      );
    },

    async knownRoles(teamId) {
      const rows = await db.all<{ paperspace_user_id: string; is_admin: number }>(
        'SELECT paperspace_user_id, is_admin FROM approval_roles WHERE slack_team_id = ?',
        [teamId],
      );
      return new Map(rows.map((row) => [row.paperspace_user_id, Number(row.is_admin) === 1]));
    },
  };
}

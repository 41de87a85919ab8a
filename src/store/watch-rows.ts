// How a watch is stored: the columns of a row of `watches` and the Watch read from one. Shared by
// the repository (watches.ts) and the storing of a new watch (watch-creation.ts), which both read
// rows back.
import { type TimelineEntry, timelineSchema, type Watch, type WatchStatus } from './watch-types.js';

export type WatchRow = {
  id: string;
  slack_team_id: string;
  slack_user_id: string;
  machine_id: string;
  machine_name: string;
  target_state: string;
  channel: string;
  message_ts: string | null;
  thread_ts: string | null;
  created_at: number;
  deadline_at: number;
  last_state: string | null;
  event_id?: string | null;
  function_execution_id?: string | null;
  operation?: string | null;
  pending_since?: number | null;
  timeline: string;
  status: WatchStatus;
  detail: string | null;
  completed_at: number | null;
  report: string | null;
  report_due_at: number | null;
  report_sent_at?: number | null;
  slot?: number | null;
};

export const fromRow = (row: WatchRow): Watch => ({
  id: row.id,
  teamId: row.slack_team_id,
  userId: row.slack_user_id,
  machineId: row.machine_id,
  machineName: row.machine_name,
  targetState: row.target_state,
  channel: row.channel,
  messageTs: row.message_ts,
  threadTs: row.thread_ts,
  createdAt: row.created_at,
  deadlineAt: row.deadline_at,
  lastState: row.last_state,
  eventId: row.event_id ?? null,
  functionExecutionId: row.function_execution_id ?? null,
  operation: row.operation ?? null,
  pendingSince: row.pending_since ?? null,
  timeline: timelineSchema.parse(JSON.parse(row.timeline)),
  status: row.status,
  detail: row.detail,
  completedAt: row.completed_at,
});

/** A timeline as its column holds it; null leaves the column as it is (COALESCE). */
export const timelineJson = (timeline: TimelineEntry[] | undefined) =>
  timeline === undefined ? null : JSON.stringify(timeline);

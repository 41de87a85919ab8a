// Watches: a machine being polled until it reaches a state ("gpu-1 is ready, 2m14s"). They live in
// the database so a restart resumes them, and every transition is a conditional update so that,
// with several replicas, one replica polls a watch at a time and its completion is posted once.
import { randomUUID } from 'node:crypto';
import { gatherStatements } from './gathered-statements.js';
import { equalityFilters, placeholders, type SqlClient, StoreError } from './sql-client.js';
import {
  type CreatedWatch,
  type DueReport,
  type NewWatch,
  type TimelineEntry,
  timelineSchema,
  type Watch,
  type WatchCompletion,
  type WatchProgress,
  type WatchStatus,
} from './watch-types.js';

export type * from './watch-types.js';

/** The person already has `limit` active watches: nothing was stored or finished. */
export class WatchSlotsFullError extends StoreError {
  constructor(readonly active: number) {
    super(`The person already has ${active} active watches.`);
  }
}

export interface WatchRepository {
  /**
   * Stores a new active watch. A card (team, channel and messageTs) has one active watch at most: one
   * already there is finished as failed, replaced by this one, in the same transaction. Two requests
   * about one card at once (a double click, two replicas) leave exactly one of them active.
   * With `supersedes`, the older active watches of the machine are finished too, and returned.
   * With `limit`, throws WatchSlotsFullError (and changes nothing) when the person already has that
   * many active watches: each active watch holds a numbered slot below the limit that no other active
   * watch of the person can share, so the limit holds under concurrent calls on every replica.
   */
  create(input: NewWatch, limit?: number): Promise<CreatedWatch>;
  get(id: string): Promise<Watch | undefined>;
  /**
   * Finishes every active watch of a machine as failed with `detail`, and returns them: an operation
   * sent without a watch of its own (--no-wait) still decides where the machine is heading.
   */
  supersede(machine: { teamId: string; machineId: string; at: number; detail: string }): Promise<Watch[]>;
  /** Active watches, oldest first, optionally only one person's or one machine's. */
  listActive(filter?: { teamId?: string; userId?: string; machineId?: string }): Promise<Watch[]>;
  /**
   * The watches among `ids` (at most ACTIVE_IDS_PER_QUERY) that are still active, in no particular
   * order: one query answers many people's polls (watch-reads.ts).
   */
  listActiveByIds(ids: readonly string[]): Promise<Watch[]>;
  /** Records progress on an active watch; false if it is no longer active. */
  updateProgress(id: string, progress: WatchProgress): Promise<boolean>;
  /** Finishes an active watch. True only for the one call that finished it: that caller posts the result. */
  complete(id: string, completion: WatchCompletion): Promise<boolean>;
  /** How many watches are active, counted in the database (for the /metrics gauge). */
  /** Active watches, of everyone or of one person. */
  countActive(filter?: { teamId: string; userId: string }): Promise<number>;
  /** Finished watches whose report is due (`report.retryAt` passed), longest due first. */
  dueReports(now: number, limit: number): Promise<DueReport[]>;
  /**
   * Takes a due report for posting, moving its next try to `retryAt`. True for exactly one caller: false
   * if another replica took it, or it was reported, since `dueAt` was read.
   */
  claimReport(id: string, dueAt: number, retryAt: number): Promise<boolean>;
  /**
   * A post of the report is being handed to Slack now (`at`), or (null) Slack refused it everywhere:
   * kept until reported(), so a later post of it knows whether it may be a repeat.
   */
  reportSending(id: string, at: number | null): Promise<void>;
  /** The report was posted (or given up on): nothing is due for this watch any more. */
  reported(id: string): Promise<void>;
  /** Deletes watches that finished before `before`, except those whose report is still due; returns how many. */
  purgeFinished(before: number): Promise<number>;
}

type WatchRow = {
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
  timeline: string;
  status: WatchStatus;
  detail: string | null;
  completed_at: number | null;
  report: string | null;
  report_due_at: number | null;
  report_sent_at?: number | null;
  slot?: number | null;
};

const fromRow = (row: WatchRow): Watch => ({
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
  timeline: timelineSchema.parse(JSON.parse(row.timeline)),
  status: row.status,
  detail: row.detail,
  completedAt: row.completed_at,
});

const json = (timeline: TimelineEntry[] | undefined) =>
  timeline === undefined ? null : JSON.stringify(timeline);

/** Why a watch was finished without a result of its own: the newer watch of its card posts instead. */
const REPLACED_ON_CARD = 'replaced by a newer request on the same card';
/**
 * Each attempt fails only because another request committed a watch of the same card (which the next
 * attempt replaces) or took the free slot it picked; each such request is a watch stored, so the
 * attempts are bounded by the limit plus a few clicks on one card.
 */
const MAX_ATTEMPTS = 100;

/**
 * A newer operation decides where the machine is heading: a stop card still waiting for off after a
 * start would otherwise take credit for whatever stop comes next.
 */
async function supersedeIn(
  client: SqlClient,
  { teamId, machineId, at, detail }: { teamId: string; machineId: string; at: number; detail: string },
): Promise<Watch[]> {
  const rows = await client.all<WatchRow>(
    `UPDATE watches SET status = 'failed', completed_at = ?, detail = ?
     WHERE slack_team_id = ? AND machine_id = ? AND status = 'active'
     RETURNING *`,
    [at, detail, teamId, machineId],
  );
  return rows.map(fromRow);
}

/**
 * A slot below `limit` that no active watch of the person holds; throws WatchSlotsFullError when there
 * is none. Under a limit it is picked at random among the lowest free ones, so that concurrent requests
 * rarely pick the same one; without one it is the lowest, so that the slots of watches stored without a
 * limit stay below it and count against it.
 */
async function freeSlot(client: SqlClient, person: { teamId: string; userId: string }, limit: number) {
  const held = await client.all<{ slot: number | null }>(
    `SELECT slot FROM watches WHERE status = 'active' AND slack_team_id = ? AND slack_user_id = ?`,
    [person.teamId, person.userId],
  );
  const used = new Set(held.map((row) => row.slot));
  const free: number[] = [];
  const choices = Number.isFinite(limit) ? 8 : 1;
  for (let slot = 0; slot < limit && free.length < choices; slot++) if (!used.has(slot)) free.push(slot);
  if (free.length === 0) throw new WatchSlotsFullError(held.length);
  return free[Math.floor(Math.random() * free.length)] as number;
}

/**
 * Most ids one listActiveByIds takes: a statement's parameters are bounded (PostgreSQL 65,535, SQLite
 * 32,766), and a few hundred ids make a query that still takes under a millisecond.
 */
export const ACTIVE_IDS_PER_QUERY = 500;

/**
 * Most rows one gathered write takes (gathered-statements.ts): eight parameters each stays far below
 * either database's bound, and a statement of a few hundred rows still takes milliseconds.
 */
const WRITES_PER_STATEMENT = 250;

/** The last of each id's items: the one whose write would stand had they gone one after another. */
function lastPerId<Item extends { id: string }>(items: readonly Item[]): Item[] {
  return [...new Map(items.map((item) => [item.id, item])).values()];
}

export function createWatchRepository(db: SqlClient): WatchRepository {
  const get = async (id: string) => {
    const row = await db.get<WatchRow>('SELECT * FROM watches WHERE id = ?', [id]);
    return row && fromRow(row);
  };

  // The writes each completion makes, gathered across the completions finishing at once: one statement
  // finishes, marks sending or marks reported a whole burst (VALUES columns are column1, column2, … in
  // both databases; the casts give PostgreSQL the types its placeholders cannot). The ids are named
  // again in an IN list for PostgreSQL's planner: joined to the VALUES alone, it scanned the whole
  // table (1.3 s for 250 rows of 20,000 with half their reports due; 41 ms through the primary key).
  const complete = gatherStatements<{ id: string; completion: WatchCompletion }, boolean>(async (items) => {
    // One call finishes a watch: of two asked for the same one together, the first wins, as it would
    // have alone.
    const first = new Map<string, (typeof items)[number]>();
    for (const item of items) if (!first.has(item.id)) first.set(item.id, item);
    const rows = [...first.values()];
    const finished = await db.all<{ id: string }>(
      `UPDATE watches SET status = v.column2, completed_at = v.column3, detail = v.column4,
         last_state = COALESCE(v.column5, watches.last_state), timeline = COALESCE(v.column6, watches.timeline),
         report = v.column7, report_due_at = v.column8
       FROM (VALUES ${placeholders(rows.length, '(?, ?, CAST(? AS BIGINT), ?, ?, ?, ?, CAST(? AS BIGINT))')}) AS v
       WHERE watches.id = v.column1 AND watches.id IN (${placeholders(rows.length)}) AND watches.status = 'active'
       RETURNING watches.id AS id`,
      [
        ...rows.flatMap(({ id, completion: { status, at, detail, lastState, timeline, report } }) => [
          id,
          status,
          at,
          detail ?? null,
          lastState ?? null,
          json(timeline),
          report?.body ?? null,
          report?.retryAt ?? null,
        ]),
        ...rows.map(({ id }) => id),
      ],
    );
    const won = new Set(finished.map((row) => row.id));
    return items.map((item) => first.get(item.id) === item && won.has(item.id));
  }, WRITES_PER_STATEMENT);

  const reportSending = gatherStatements<{ id: string; at: number | null }, void>(async (items) => {
    const rows = lastPerId(items);
    await db.run(
      `UPDATE watches SET report_sent_at = v.column2
       FROM (VALUES ${placeholders(rows.length, '(?, CAST(? AS BIGINT))')}) AS v
       WHERE watches.id = v.column1 AND watches.id IN (${placeholders(rows.length)}) AND watches.report IS NOT NULL`,
      [...rows.flatMap(({ id, at }) => [id, at]), ...rows.map(({ id }) => id)],
    );
    return items.map(() => undefined);
  }, WRITES_PER_STATEMENT);

  const reported = gatherStatements<string, void>(async (ids) => {
    await db.run(
      `UPDATE watches SET report = NULL, report_due_at = NULL, report_sent_at = NULL
       WHERE id IN (${placeholders(ids.length)})`,
      [...ids],
    );
    return ids.map(() => undefined);
  }, WRITES_PER_STATEMENT);

  return {
    async create(input, limit = Number.POSITIVE_INFINITY) {
      const timeline = input.lastState ? [{ state: input.lastState, at: input.createdAt }] : [];
      const messageTs = input.messageTs ?? null;
      // On a conflict with the card's active watch (watches_active_card) or with another active watch of
      // the person in the same slot (watches_active_slot) nothing is inserted and no row comes back.
      const insert = (client: SqlClient, slot: number) =>
        client.get<WatchRow>(
          `INSERT INTO watches (id, slack_team_id, slack_user_id, machine_id, machine_name, target_state, channel,
             message_ts, thread_ts, created_at, deadline_at, last_state, timeline, status, event_id, slot,
             function_execution_id)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?)
           ON CONFLICT DO NOTHING
           RETURNING *`,
          [
            randomUUID(),
            input.teamId,
            input.userId,
            input.machineId,
            input.machineName,
            input.targetState,
            input.channel,
            messageTs,
            input.threadTs ?? null,
            input.createdAt,
            input.deadlineAt,
            input.lastState ?? null,
            JSON.stringify(timeline),
            input.eventId ?? null,
            slot,
            input.functionExecutionId ?? null,
          ],
        );
      // Finished before the insert, so the new watch is never among them.
      const supersede = (client: SqlClient): Promise<Watch[]> =>
        input.supersedes === undefined
          ? Promise.resolve([])
          : supersedeIn(client, { ...input, at: input.createdAt, detail: input.supersedes });
      let superseded: Watch[] = [];
      const row = await db.transaction(async (tx) => {
        for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
          if (messageTs !== null) {
            await tx.run(
              `UPDATE watches SET status = 'failed', completed_at = ?, detail = ?
               WHERE slack_team_id = ? AND channel = ? AND message_ts = ? AND status = 'active'`,
              [input.createdAt, REPLACED_ON_CARD, input.teamId, input.channel, messageTs],
            );
          }
          // The card's own older watch was finished just above: the card is being redrawn anyway.
          superseded = [...superseded, ...(await supersede(tx))];
          // Read after the updates above, so the watches they finished free their slots. Throwing here
          // rolls them back: a refused watch changes nothing.
          const slot = await freeSlot(tx, input, limit);
          // PostgreSQL: a watch of the card or of this slot that another transaction inserted after
          // this one read the table makes the insert wait for that transaction and then do nothing; the
          // next attempt (statements of its own, so they see that watch) replaces it or picks another slot.
          const inserted = await insert(tx, slot);
          if (inserted !== undefined) return inserted;
        }
        throw new StoreError(`${MAX_ATTEMPTS} attempts to store a watch conflicted with others; gave up.`);
      });
      return { ...fromRow(row), superseded };
    },

    get,

    supersede: (machine) => supersedeIn(db, machine),

    async listActive(filter = {}) {
      const { conditions, params } = equalityFilters([
        ['slack_team_id', filter.teamId],
        ['slack_user_id', filter.userId],
        ['machine_id', filter.machineId],
      ]);
      const rows = await db.all<WatchRow>(
        `SELECT * FROM watches WHERE ${["status = 'active'", ...conditions].join(' AND ')} ORDER BY created_at, id`,
        params,
      );
      return rows.map(fromRow);
    },

    async listActiveByIds(ids) {
      if (ids.length > ACTIVE_IDS_PER_QUERY) {
        throw new StoreError(`listActiveByIds takes at most ${ACTIVE_IDS_PER_QUERY} ids, not ${ids.length}.`);
      }
      if (ids.length === 0) return [];
      // By primary key alone, the status checked here: with `status = 'active'` in the query, SQLite's
      // planner (which has no statistics) took the status index and read every active watch for each
      // query: 3.7 ms a query at 10,000 active watches, 17 s of CPU in nine ticks of the polling
      // benchmark's v1 row, whose ticks then ran into their deadline and dropped people.
      const rows = await db.all<WatchRow>(`SELECT * FROM watches WHERE id IN (${placeholders(ids.length)})`, [
        ...ids,
      ]);
      return rows.filter((row) => row.status === 'active').map(fromRow);
    },

    async updateProgress(id, progress) {
      const { changes } = await db.run(
        `UPDATE watches SET last_state = COALESCE(?, last_state), timeline = COALESCE(?, timeline),
           message_ts = COALESCE(?, message_ts), thread_ts = COALESCE(?, thread_ts)
         WHERE id = ? AND status = 'active'`,
        [
          progress.lastState ?? null,
          json(progress.timeline),
          progress.messageTs ?? null,
          progress.threadTs ?? null,
          id,
        ],
      );
      return changes === 1;
    },

    complete: (id, completion) => complete({ id, completion }),

    async dueReports(now, limit) {
      const rows = await db.all<WatchRow>(
        `SELECT * FROM watches WHERE report_due_at IS NOT NULL AND report_due_at <= ?
         ORDER BY report_due_at, id LIMIT ?`,
        [now, limit],
      );
      return rows.flatMap((row) =>
        row.report === null || row.report_due_at === null
          ? []
          : [
              {
                watch: fromRow(row),
                body: row.report,
                dueAt: row.report_due_at,
                sentAt: row.report_sent_at ?? null,
              },
            ],
      );
    },

    async claimReport(id, dueAt, retryAt) {
      const { changes } = await db.run(
        'UPDATE watches SET report_due_at = ? WHERE id = ? AND report_due_at = ?',
        [retryAt, id, dueAt],
      );
      return changes === 1;
    },

    reportSending: (id, at) => reportSending({ id, at }),

    reported: (id) => reported(id),

    async countActive(filter) {
      const row =
        filter === undefined
          ? await db.get<{ active: number }>("SELECT COUNT(*) AS active FROM watches WHERE status = 'active'")
          : await db.get<{ active: number }>(
              `SELECT COUNT(*) AS active FROM watches
               WHERE status = 'active' AND slack_team_id = ? AND slack_user_id = ?`,
              [filter.teamId, filter.userId],
            );
      return Number(row?.active ?? 0);
    },

    async purgeFinished(before) {
      const { changes } = await db.run(
        "DELETE FROM watches WHERE status <> 'active' AND completed_at < ? AND report_due_at IS NULL",
        [before],
      );
      return changes;
    },
  };
}

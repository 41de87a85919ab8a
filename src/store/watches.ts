// Watches: a machine being polled until it reaches a state ("gpu-1 is ready, 2m14s"). They live in
// the database so a restart resumes them, and every transition is a conditional update so that,
// with several replicas, one replica polls a watch at a time and its completion is posted once.
//
// Storing a new watch, with its rules, is in watch-creation.ts; a row's columns in watch-rows.ts.
import { gatherStatements } from './gathered-statements.js';
import { equalityFilters, placeholders, type SqlClient, StoreError } from './sql-client.js';
import { markSent, storeWatch, supersedeIn, WatchSlotsFullError } from './watch-creation.js';
import { fromRow, timelineJson, type WatchRow } from './watch-rows.js';
import type {
  CreatedWatch,
  DueReport,
  NewWatch,
  SentOperation,
  Watch,
  WatchCompletion,
  WatchProgress,
} from './watch-types.js';

export type * from './watch-types.js';

// The features catch it from here, beside the repository that throws it.
export { WatchSlotsFullError };

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
   * Records that the operation of an intent (a watch stored with `pendingSince`) was answered by
   * Paperspace, with what the answer and the card add, and supersedes the machine's older watches when
   * asked. Also records a later card of a watch the recovery already marked sent. `recorded` is false
   * when the watch is no longer active (the recovery finished it, or a newer operation took over).
   */
  markSent(id: string, sent: SentOperation): Promise<{ recorded: boolean; superseded: Watch[] }>;
  /** Active intents recorded (or last claimed) at `before` or earlier, oldest first, at most `limit`. */
  pendingIntents(before: number, limit: number): Promise<Watch[]>;
  /**
   * Takes an intent for recovery until the next grace passes (its pendingSince becomes `now`). True for
   * exactly one caller: false when another replica took it, or it was sent, since `pendingSince` was read.
   */
  claimIntent(id: string, pendingSince: number, now: number): Promise<boolean>;
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
          timelineJson(timeline),
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
    create: (input, limit) => storeWatch(db, input, limit),

    get,

    markSent: (id, sent) => markSent(db, id, sent),

    async pendingIntents(before, limit) {
      const rows = await db.all<WatchRow>(
        `SELECT * FROM watches WHERE pending_since IS NOT NULL AND pending_since <= ? AND status = 'active'
         ORDER BY pending_since, id LIMIT ?`,
        [before, limit],
      );
      return rows.map(fromRow);
    },

    async claimIntent(id, pendingSince, now) {
      const { changes } = await db.run(
        `UPDATE watches SET pending_since = ? WHERE id = ? AND pending_since = ? AND status = 'active'`,
        [now, id, pendingSince],
      );
      return changes === 1;
    },

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
          timelineJson(progress.timeline),
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

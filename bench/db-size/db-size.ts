// The database after a year of use, table by table: 500 people's year (year-of-use.ts: what each does
// in a day), written day by day on a fake clock through the store's functions, with the bot's own
// housekeeping jobs run as production runs them. Every table's rows are read at the end against the
// most its retention (or its nature: one row per person, per machine, per team) lets it hold at these
// rates: the goal is every table within its bound. A table without a stated bound fails, so a new
// table must say what keeps it from growing. Rows are read half-way through too: a bounded table
// stops growing once its retention is full.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_RETENTION } from '../../src/config.js';
import { KEEP_REMINDER_RUNS_MS } from '../../src/features/reminders/jobs.js';
import { KEEP_ROW_MESSAGES_MS, KEEP_STEP_RUNS_MS } from '../../src/features/retention/jobs.js';
import { KEEP_DIGEST_RUNS_MS } from '../../src/features/spend/jobs.js';
import { KEEP_FINISHED_WATCHES_MS } from '../../src/features/watches/jobs.js';
import { openStore } from '../../src/store/store.js';
import type { BenchmarkResult, ResultRow } from '../report.js';
import { createBenchSchema } from '../support/postgres-schema.js';
import { formatCount, formatMb, formatMs } from '../support/stats.js';
import { type TableSize, tableSizes } from './table-sizes.js';
import { DAILY, simulateYear } from './year-of-use.js';

const QUICK = process.env.BENCH_QUICK === '1';
/**
 * SQLite runs the goal's size unless BENCH_DB_SIZE says otherwise: about 9 minutes on this shared
 * 2-core machine. PostgreSQL writes a person's day about seven times slower (21 ms against 3): every
 * statement is a round trip over TCP, and the socket writes alone take a third of the writer's CPU, so
 * the goal's size would take over an hour. A tenth of the people over the same year shows its tables
 * held alike in about 6 minutes.
 */
const GOAL_SIZE = { people: 500, days: 365 };
const POSTGRES_SIZE = { people: 50, days: 365 };
/** BENCH_DB_SIZE=<people>x<days> writes a smaller SQLite year (the goal's size is 182,500 person-days). */
const override = /^(\d+)x(\d+)$/.exec(process.env.BENCH_DB_SIZE ?? '');
const SQLITE_SIZE = override
  ? { people: Number(override[1]), days: Number(override[2]) }
  : QUICK
    ? { people: 40, days: 45 }
    : GOAL_SIZE;
const RUNS: readonly Size[] = [
  { dialect: 'SQLite', ...SQLITE_SIZE },
  { dialect: 'PostgreSQL', ...(QUICK ? { people: 10, days: 35 } : POSTGRES_SIZE) },
];
const START = Date.UTC(2025, 0, 1);
const REPLICAS = 2;
const DAY_MS = 24 * 60 * 60_000;
/** The housekeeping runs once a day or once an hour: a day's worth past the retention may be there. */
const SLACK = 1;
// Each bound is read from the retention the code applies, so a changed retention moves its bound.
const { auditDays, delegationDays } = DEFAULT_RETENTION;
const WATCH_KEEP_DAYS = KEEP_FINISHED_WATCHES_MS / DAY_MS;
const REMINDER_RUN_KEEP_DAYS = KEEP_REMINDER_RUNS_MS / DAY_MS;
const DIGEST_RUN_KEEP_DAYS = KEEP_DIGEST_RUNS_MS / DAY_MS;
const ROW_MESSAGE_KEEP_DAYS = KEEP_ROW_MESSAGES_MS / DAY_MS;
const STEP_RUN_KEEP_DAYS = KEEP_STEP_RUNS_MS / DAY_MS;
/**
 * Where SQLite's file is written: a RAM disk when the machine has one. The bench reads rows and bytes,
 * which are the same on any disk; a real disk's syncs at each WAL checkpoint only slow the writing.
 */
const SQLITE_DIRECTORY = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

interface Size {
  dialect: 'SQLite' | 'PostgreSQL';
  people: number;
  days: number;
}

/** The most rows each table may hold after the year for `people`, and why. */
function boundsFor(people: number): Record<string, { rows: number; why: string }> {
  const every = (n: number) => Math.ceil(people / n);
  const teams = Math.ceil(people / 100);
  const auditsPerDay =
    people * (DAILY.powerOperations + DAILY.otherAuditedActions) +
    every(DAILY.shareEvery) +
    every(DAILY.requestEvery);
  return {
    vault_entries: { rows: people, why: 'one key per person' },
    audit_records: {
      rows: (auditDays + SLACK) * auditsPerDay,
      why: `${auditDays} days of ${formatCount(auditsPerDay)} a day`,
    },
    watches: {
      rows: (WATCH_KEEP_DAYS + SLACK) * people * DAILY.powerOperations,
      why: `${WATCH_KEEP_DAYS} days of finished watches`,
    },
    reminders: { rows: people, why: 'one reminder per person here' },
    reminder_runs: {
      rows: (REMINDER_RUN_KEEP_DAYS + SLACK) * people * DAILY.reminderRuns,
      why: `${REMINDER_RUN_KEEP_DAYS} days of claimed occurrences`,
    },
    reminder_snoozes: { rows: people, why: 'pending snoozes only, one per machine' },
    delegations: {
      rows: (delegationDays + SLACK + 1) * every(DAILY.shareEvery),
      why: `shares expired under ${delegationDays} days ago`,
    },
    approval_requests: {
      rows: (auditDays + SLACK + 1) * every(DAILY.requestEvery),
      why: `${auditDays} days of decided requests, and open ones`,
    },
    approval_grants: {
      rows: (delegationDays + SLACK + 1) * every(DAILY.requestEvery),
      why: `grants run out under ${delegationDays} days ago`,
    },
    approval_settings: { rows: teams, why: 'one per Paperspace team' },
    approval_roles: { rows: people, why: 'one per Paperspace user seen' },
    slack_request_replays: {
      rows: people * DAILY.slackRequests,
      why: 'signatures of the last 5 minutes (at most a day of them)',
    },
    team_digests: { rows: teams, why: 'one per Paperspace team' },
    team_digest_runs: {
      rows: (DIGEST_RUN_KEEP_DAYS + SLACK) * teams,
      why: `${DIGEST_RUN_KEEP_DAYS} days of claimed occurrences`,
    },
    cost_alert_settings: { rows: people, why: 'one threshold per person' },
    cost_alert_runs: { rows: people, why: 'one per running machine' },
    cost_alert_exclusions: { rows: people, why: 'one per excluded machine' },
    cost_alerts: {
      rows: (delegationDays + SLACK + 1) * every(DAILY.forgottenEvery) + people,
      why: `alerts of the last ${delegationDays} days, and one per run still followed`,
    },
    power_claims: { rows: people, why: 'one per machine' },
    // Written by the pacer, which the year (store functions alone) does not run: the bound is its shape.
    channel_post_slots: {
      rows: people + teams + 100,
      why: 'one per conversation posted in since the daily prune: each DM, and the channels',
    },
    row_messages: {
      rows: (ROW_MESSAGE_KEEP_DAYS + SLACK) * every(DAILY.snoozeEvery),
      why: `${ROW_MESSAGE_KEEP_DAYS} days of clicked reminders`,
    },
    watch_poll_leases: { rows: people, why: 'one per person' },
    scheduler_replicas: { rows: REPLICAS, why: 'one per live replica' },
    workflow_step_settings: { rows: people, why: 'one per person' },
    workflow_step_runs: {
      rows: (STEP_RUN_KEEP_DAYS + SLACK) * every(DAILY.stepsOnEvery),
      why: `${STEP_RUN_KEEP_DAYS} day of claimed step runs`,
    },
    slack_installations: { rows: 1, why: 'one per workspace (OAuth mode; none here)' },
    slack_installation_teams: { rows: 1, why: 'one per workspace (OAuth mode; none here)' },
    schema_migrations: { rows: 100, why: 'one per migration' },
  };
}

/**
 * The bench's own sessions do not wait for each commit's WAL flush (synchronous_commit off: a crash of
 * the server could lose the last moments, never corrupt). Rows and bytes are the same; the writing took
 * about a third less time (1.7 s against 1.2 s a day for 50 people).
 */
function withoutCommitWait(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(
    'options',
    `${parsed.searchParams.get('options') ?? ''} -c synchronous_commit=off`.trim(),
  );
  return parsed.toString();
}

interface Measured extends Size {
  half: Map<string, TableSize>;
  end: Map<string, TableSize>;
  seconds: number;
}

async function measure(size: Size): Promise<Measured> {
  const { dialect, people, days } = size;
  const directory = await mkdtemp(join(SQLITE_DIRECTORY, 'ps-bot-bench-db-size-'));
  const schema = dialect === 'PostgreSQL' ? await createBenchSchema() : undefined;
  const url = schema ? withoutCommitWait(schema.url) : `sqlite:${join(directory, 'bot.db')}`;
  const store = await openStore(url, { now: () => START });
  try {
    let half = new Map<string, TableSize>();
    const started = Date.now();
    await simulateYear(store, { people, days, start: START }, async (day) => {
      if (day === Math.floor(days / 2) - 1) half = await tableSizes(url);
    });
    const seconds = (Date.now() - started) / 1000;
    return { ...size, half, end: await tableSizes(url), seconds };
  } finally {
    await store.close();
    await schema?.drop();
    await rm(directory, { recursive: true, force: true });
  }
}

function rows({ dialect, people, days, half, end }: Measured): ResultRow[] {
  const bounds = boundsFor(people);
  return [...end].map(([table, size]) => {
    const bound = bounds[table];
    const halfRows = half.get(table)?.rows ?? 0;
    return {
      metric: `${table}, ${dialect}, ${formatCount(people)} people, ${days} days`,
      measured: `${formatCount(size.rows)} rows, ${formatMb(size.bytes)} (half-way: ${formatCount(halfRows)})`,
      reference: bound ? `${formatCount(bound.rows)} rows: ${bound.why}` : 'no bound stated',
      ...(bound && bound.rows > 0 ? { ratio: size.rows / bound.rows } : {}),
      goal: '<= bound',
      pass: bound !== undefined && size.rows <= bound.rows,
    };
  });
}

export async function runDbSize(): Promise<BenchmarkResult> {
  const runs: Measured[] = [];
  for (const size of RUNS) runs.push(await measure(size));
  const total = (run: Measured) => [...run.end.values()].reduce((sum, size) => sum + size.bytes, 0);
  return {
    name: 'db-size',
    title: 'The database after a year of use, every table against its retention',
    setup:
      `${RUNS.map((run) => `${run.dialect}: ${formatCount(run.people)} people over ${run.days} days`).join('; ')}; one workspace, Paperspace teams of 100, on a fake clock, written through the ` +
      `store's own functions. Each person a day: ${DAILY.powerOperations} power operations (a start and a stop: a power ` +
      `claim, a watch finished and reported, an audit record, a cost-alert run each), ${DAILY.otherAuditedActions} more ` +
      `audited action, ${DAILY.slackRequests} Slack requests (replay claims), ${DAILY.reminderRuns} reminder occurrence; ` +
      `every ${DAILY.shareEvery}th day a 4-hour share, every ${DAILY.snoozeEvery}th a snooze from a click on the reminder's row, every ` +
      `${DAILY.requestEvery}th an approved request with an 8-hour grant, every ${DAILY.forgottenEvery}th a machine left ` +
      `running and alerted. Once a day the bot's own housekeeping jobs run (retention with the default ` +
      `${auditDays}/${delegationDays} days, finished watches, claimed occurrences) and the request guard's prune. ` +
      `Bound = the most rows the table may hold at these rates under its retention.` +
      (QUICK ? ' QUICK MODE (BENCH_QUICK=1): small sizes.' : '') +
      (SQLITE_SIZE === GOAL_SIZE
        ? ''
        : ` Not the goal's size (${GOAL_SIZE.people} people over ${GOAL_SIZE.days} days): BENCH_DB_SIZE chose it.`),
    rows: runs.flatMap(rows),
    notes: runs.map(
      (run) =>
        `${run.dialect}: ${formatMb(total(run))} in all after the year; the year took ${formatMs(run.seconds * 1000)} to write.`,
    ),
  };
}

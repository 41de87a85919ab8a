// A year of what a workspace of people writes to the database, day by day on a fake clock, through the
// store's own functions (the calls the bot's flows make), with the bot's own housekeeping jobs run as
// they run in production: the daily retention prune, the hourly purges of finished watches and of
// claimed reminder and digest occurrences, the request guard's prune of seen signatures. What each
// person does in a day is in DAILY below; the bounds in db-size.ts are derived from the same figures.
import { randomBytes } from 'node:crypto';
import { DEFAULT_RETENTION } from '../../src/config.js';
import { handOut, type JobResources } from '../../src/features/job-needs.js';
import { reminderJobPlan } from '../../src/features/reminders/jobs.js';
import { retentionJobPlan } from '../../src/features/retention/jobs.js';
import { spendJobPlan } from '../../src/features/spend/jobs.js';
import { watchJobPlan } from '../../src/features/watches/jobs.js';
import type { RowFinishers } from '../../src/features/watches/row-messages.js';
import { createLogger } from '../../src/logger.js';
import { forEachConcurrently } from '../../src/scheduler/concurrency.js';
import type { SchedulerJob } from '../../src/scheduler/job.js';
import { REPLAY_WINDOW_MS } from '../../src/slack/request-guard.js';
import type { SlackUser } from '../../src/store/slack-user.js';
import type { Store } from '../../src/store/store.js';
import { createKeyVault } from '../../src/vault/key-vault.js';

const DAY_MS = 24 * 60 * 60_000;
const HOUR_MS = 60 * 60_000;
const TEAM_ID = 'T0YEAR';
/** People per Paperspace team (the workspace's people are split into teams of this size). */
const TEAM_SIZE = 100;
/**
 * People whose day is written at once. SQLite runs statements in turn, but commits the plain writes
 * made in one turn of the event loop together (store/sqlite-client.ts): with everyone at once, more of
 * them share a commit (3,600 person-days took 13,600 explicit commits with 8 at once, 7,900 with
 * everyone). PostgreSQL's pool (10 connections) serves that many at a time; more would only queue.
 */
const PEOPLE_AT_ONCE = { sqlite: Number.POSITIVE_INFINITY, postgres: 10 } as const;

/** What one person does on a day, or how often they do it (every nth day). */
export const DAILY = {
  /** A start in the morning and a stop in the evening: a power claim, a watch, an audit record each. */
  powerOperations: 2,
  /** One more audited action (an update, an access change, a script) a day. */
  otherAuditedActions: 1,
  /** Slack requests (commands, clicks), each claiming its signature against replays (kept 5 minutes). */
  slackRequests: 2,
  /** One reminder occurrence claimed a day (a daily shutdown reminder). */
  reminderRuns: 1,
  /**
   * Every nth day: a snooze of the reminder, taken when due. The click on the reminder's row keeps a
   * copy of the message (row_messages) for the rows it redraws.
   */
  snoozeEvery: 10,
  /** Every nth day: a 4-hour channel share (audited), marked expired when it ends. */
  shareEvery: 5,
  /** Every nth day: an approval request (audited), approved, with an 8-hour standing grant. */
  requestEvery: 20,
  /** Every nth day: a machine left running past the threshold, alerted once. */
  forgottenEvery: 20,
  /** Every nth person turned workflow steps on; each of them runs a step a day (its run claimed once). */
  stepsOnEvery: 10,
} as const;
const SHARE_MS = 4 * HOUR_MS;
const GRANT_MS = 8 * HOUR_MS;

export interface YearOptions {
  people: number;
  days: number;
  /** Day 0, midnight UTC. */
  start: number;
}

const pad = (n: number) => String(n).padStart(4, '0');
const personOf = (index: number): SlackUser => ({ teamId: TEAM_ID, userId: `U0YEAR${pad(index)}` });
const machineOf = (index: number) => `psyear${pad(index)}`;
const paperspaceTeamOf = (index: number) => `teyear${Math.floor(index / TEAM_SIZE)}`;

/** Refuses any use: the housekeeping jobs picked below never reach for the Slack or Paperspace side. */
const unused = (what: string) =>
  new Proxy(
    {},
    {
      get: (_target, property) => {
        throw new Error(`the year of use has no ${what} (asked for ${String(property)})`);
      },
    },
  );

/** The bot's own housekeeping jobs, taken from the features that run them, on the fake clock. */
function housekeepingJobs(store: Store, now: () => number): SchedulerJob[] {
  const resources = {
    store,
    now,
    logger: createLogger({ level: 'silent' }),
    retention: DEFAULT_RETENTION,
    vault: unused('vault'),
    clients: unused('Paperspace'),
    slack: unused('Slack'),
    cron: unused('cron'),
    pollIntervalMs: 5000,
    pollConcurrency: 1,
    pacer: unused('Slack pacer'),
    replicaId: 'year',
    observer: unused('observer'),
    machineChecks: [],
  } as unknown as JobResources; // the unused parts above throw if a housekeeping job ever reaches for them
  const names = ['retention', 'watch housekeeping', 'reminder housekeeping', 'team digest housekeeping'];
  const plans = [
    retentionJobPlan,
    watchJobPlan(async () => undefined, unused('row finishers') as RowFinishers),
    reminderJobPlan,
    spendJobPlan,
  ];
  // Each handed what it declares, as the bot's wiring does (features/index.ts).
  const all = plans.flatMap((plan) => plan.build(handOut(resources, plan.needs)));
  const picked = all.filter((job) => names.includes(job.name));
  if (picked.length !== names.length)
    throw new Error(`housekeeping jobs missing: found ${picked.map((job) => job.name)}`);
  return picked;
}

/** What is made once: people linked, their reminder, threshold, roles; the teams' settings and digests. */
async function setUp(store: Store, people: number, at: number): Promise<string[]> {
  const vault = createKeyVault({ keys: [randomBytes(32)], store, now: () => at });
  const reminderIds: string[] = [];
  for (let index = 0; index < people; index += 1) {
    const user = personOf(index);
    await vault.link(user, {
      apiKey: `year-key-${randomBytes(12).toString('hex')}`,
      account: {
        userId: `u1year${pad(index)}`,
        email: `year${pad(index)}@example.com`,
        teamId: paperspaceTeamOf(index),
      },
    });
    const reminder = await store.reminders.create({
      ...user,
      cron: '0 19 * * 1-5',
      timezone: 'Europe/Berlin',
      label: null,
      channel: `D0YEAR${pad(index)}`,
      createdAt: at,
    });
    reminderIds.push(reminder.id);
    await store.costAlerts.setThreshold(user, 8 * HOUR_MS, at);
    await store.approvals.noteRole(TEAM_ID, `u1year${pad(index)}`, index % TEAM_SIZE === 0, at);
    if (index % DAILY.stepsOnEvery === 0) await store.workflowSteps.setEnabled(user, true, at);
    if (index % 10 === 0) await store.costAlerts.exclude(user, { id: machineOf(index), name: null }, at);
  }
  for (let team = 0; team * TEAM_SIZE < people; team += 1) {
    const paperspaceTeamId = paperspaceTeamOf(team * TEAM_SIZE);
    const setBy = personOf(team * TEAM_SIZE).userId;
    await store.approvals.setSettings({
      teamId: TEAM_ID,
      paperspaceTeamId,
      settings: { channel: 'C0YEARAPPROVALS', lifetimeMs: null },
      setBy,
      at,
    });
    await store.teamDigests.put({
      teamId: TEAM_ID,
      paperspaceTeamId,
      channel: 'C0YEARSPEND',
      cron: '0 9 * * *',
      timezone: 'UTC',
      label: 'daily',
      setBy,
      createdAt: at,
    });
  }
  return reminderIds;
}

async function powerOperation(
  store: Store,
  index: number,
  operation: 'start' | 'stop',
  at: number,
): Promise<void> {
  const user = personOf(index);
  const machineId = machineOf(index);
  await store.powerClaims.claim({
    teamId: TEAM_ID,
    machineId,
    operation,
    userId: user.userId,
    at,
    expiresAt: at + 30_000,
  });
  await store.audit.record({
    ...user,
    action: `machine.${operation}`,
    resourceId: machineId,
    outcome: 'ok',
    at,
  });
  const target = operation === 'start' ? 'serviceready' : 'off';
  const watch = await store.watches.create({
    ...user,
    machineId,
    machineName: `year-gpu-${pad(index)}`,
    targetState: target,
    channel: `C0YEAR${pad(index % 50)}`,
    messageTs: `${Math.floor(at / 1000)}.${pad(index)}00`,
    createdAt: at,
    deadlineAt: at + 30 * 60_000,
    lastState: operation === 'start' ? 'off' : 'ready',
    supersedes: `a newer ${operation} took over`,
  });
  const done = at + 2 * 60_000;
  const timeline = [
    { state: operation === 'start' ? 'starting' : 'stopping', at },
    { state: target, at: done },
  ];
  await store.watches.complete(watch.id, {
    status: 'done',
    at: done,
    lastState: target,
    timeline,
    report: { body: `year-gpu-${pad(index)} is ${target}, 2m00s`, retryAt: done + 2 * 60_000 },
  });
  await store.watches.reported(watch.id);
  if (operation === 'start')
    await store.costAlerts.beginRun({ machineId, owner: user, runningSince: at, sinceEstimated: false });
  else await store.costAlerts.endRuns(user.teamId, [machineId]);
}

/** A click on the day's reminder keeps its drawing and redraws the clicked row (store/row-messages.ts). */
async function clickReminderRow(store: Store, index: number, at: number): Promise<void> {
  const row = (state: string) => ({
    type: 'section' as const,
    block_id: machineOf(index),
    text: { type: 'mrkdwn' as const, text: `*year-gpu-${pad(index)}* ${state}` },
  });
  await store.rowMessages.redraw(
    { teamId: TEAM_ID, channel: `D0YEAR${pad(index)}`, ts: `${Math.floor(at / 1000)}.${pad(index)}00` },
    { kind: 'reminder', current: { blocks: [row('is running')], text: 'Still running: 1 machine' } },
    (message) => ({ ...message, blocks: [row('snoozed for 1h')] }),
    at,
  );
}

async function personDay(
  store: Store,
  index: number,
  day: number,
  at: number,
  reminderId: string,
): Promise<void> {
  const user = personOf(index);
  for (let request = 0; request < DAILY.slackRequests; request += 1)
    await store.requestReplays.claim(
      randomBytes(32).toString('hex'),
      at + 9 * HOUR_MS + request * 60_000 + REPLAY_WINDOW_MS,
    );
  await powerOperation(store, index, 'start', at + 9 * HOUR_MS);
  await store.audit.record({
    ...user,
    action: 'machine.update',
    resourceId: machineOf(index),
    outcome: 'ok',
    at: at + 11 * HOUR_MS,
  });
  if ((index + day) % DAILY.shareEvery === 0) {
    const createdAt = at + 10 * HOUR_MS;
    const share = await store.delegations.create({
      ...user,
      delegationId: `dl${day}-${index}`,
      accessTokenId: `atk${day}-${index}`,
      channel: 'C0YEARML',
      machineIds: [machineOf(index)],
      createdAt,
      expiresAt: createdAt + SHARE_MS,
    });
    await store.audit.record({
      ...user,
      action: 'share.create',
      resourceId: machineOf(index),
      outcome: 'ok',
      at: createdAt,
    });
    await store.delegations.markExpired(share.id, createdAt + SHARE_MS + 60_000);
  }
  if ((index + day) % DAILY.requestEvery === 0) {
    const createdAt = at + 12 * HOUR_MS;
    const owner = personOf((index + 1) % TEAM_SIZE);
    const request = await store.approvals.create({
      teamId: TEAM_ID,
      requesterId: user.userId,
      paperspaceTeamId: paperspaceTeamOf(index),
      kind: 'start',
      machineId: machineOf(index + 1),
      machineName: `year-gpu-${pad(index + 1)}`,
      ownerId: owner.userId,
      details: { ownerPaperspaceId: `u1year${pad((index + 1) % TEAM_SIZE)}`, asked: `<@${owner.userId}>` },
      channel: 'C0YEARML',
      createdAt,
      expiresAt: createdAt + DAY_MS,
    });
    await store.approvals.decide(request.id, {
      status: 'approved',
      by: owner.userId,
      at: createdAt + 10 * 60_000,
    });
    await store.approvals.grant({
      teamId: TEAM_ID,
      ownerId: owner.userId,
      requesterId: user.userId,
      machineId: machineOf(index + 1),
      expiresAt: createdAt + GRANT_MS,
    });
    await store.audit.record({
      ...user,
      action: 'approval.request',
      resourceId: request.id,
      outcome: 'ok',
      at: createdAt,
    });
  }
  if ((index + day) % DAILY.forgottenEvery === 0) {
    await store.costAlerts.claimAlert(machineOf(index), at + 9 * HOUR_MS, user, at + 17 * HOUR_MS);
  } else {
    await powerOperation(store, index, 'stop', at + 18 * HOUR_MS);
  }
  await store.reminders.claimRun(reminderId, at + 19 * HOUR_MS, { owner: 'year', at: at + 19 * HOUR_MS });
  if (index % DAILY.stepsOnEvery === 0) {
    const executionId = `Fx${pad(index)}d${day}`;
    await store.workflowStepRuns.claim({ teamId: TEAM_ID, executionId, at: at + 19 * HOUR_MS });
  }
  if ((index + day) % DAILY.snoozeEvery === 0) {
    const snooze = {
      ...user,
      machineId: machineOf(index),
      machineName: `year-gpu-${pad(index)}`,
      reminderId,
      channel: `D0YEAR${pad(index)}`,
      fireAt: at + 20 * HOUR_MS,
      createdAt: at + 19 * HOUR_MS,
    };
    await clickReminderRow(store, index, snooze.createdAt);
    await store.snoozes.snooze(snooze);
    await store.snoozes.take(snooze);
  }
}

/** Runs the year; `onDay` is called after each day's housekeeping, with the day's index. */
export async function simulateYear(
  store: Store,
  { people, days, start }: YearOptions,
  onDay: (day: number) => Promise<void> = async () => undefined,
): Promise<void> {
  let clock = start;
  const now = () => clock;
  const jobs = housekeepingJobs(store, now);
  const reminderIds = await setUp(store, people, start);
  for (let day = 0; day < days; day += 1) {
    const at = start + day * DAY_MS;
    const everyone = Array.from({ length: people }, (_, index) => index);
    await forEachConcurrently(everyone, Math.min(people, PEOPLE_AT_ONCE[store.dialect]), (index) =>
      personDay(store, index, day, at, reminderIds[index] ?? ''),
    );
    for (let team = 0; team * TEAM_SIZE < people; team += 1) {
      const digest = await store.teamDigests.forTeam(TEAM_ID, paperspaceTeamOf(team * TEAM_SIZE));
      if (digest)
        await store.teamDigests.claimRun(digest.id, at + 9 * HOUR_MS, {
          owner: 'year',
          at: at + 9 * HOUR_MS,
        });
    }
    // Both replicas renew their leases; the day ends with the housekeeping of its last hour.
    for (const owner of ['year-a', 'year-b'])
      await store.watchLeases.claimPeople({ owner, now: at + 23 * HOUR_MS, leaseMs: 30_000 });
    clock = at + DAY_MS - 1;
    for (const job of jobs) await job.tick();
    await store.requestReplays.prune(clock);
    await onDay(day);
  }
}

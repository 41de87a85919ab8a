// What a feature gives the scheduler: work to run on every tick, and optionally when the scheduler
// starts and stops. The engine (scheduler.ts) owns the timing, the order and the failure handling; a
// job owns what it does and the state it keeps in the store.
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import type { PaperspaceClient } from '../paperspace/client.js';
import type { Machine } from '../paperspace/schemas.js';
import type { SlackUser } from '../store/slack-user.js';
import type { CronEngine } from './cron-engine.js';
import type { SpreadTimer } from './interval-spread.js';

export interface SchedulerJob {
  /** Names the job in logs when a step fails. */
  name: string;
  /** Before the first tick (e.g. scheduling cron entries from the store). */
  start?(): Promise<void>;
  /**
   * Every POLL_INTERVAL_MS. Ticks never overlap; a failure is logged and the next tick tries again. A
   * tick hands off what may take long (a person's poll, a post), so that no tick waits on one person.
   */
  tick(cause?: TickCause): Promise<void>;
  /** After the last tick (e.g. giving up this replica's leases). */
  stop?(): Promise<void>;
  /**
   * When the scheduler stops, before settled(): drops the work a tick left for later in its interval
   * (a person's poll due at their moment of it), so that stopping waits only for what has started.
   */
  halt?(): void;
  /**
   * Resolves when the work a tick handed off has ended (polls under way, posts waiting on Slack's
   * pace). The timer's ticks do not wait for it, so a slow person or channel never delays the next poll; stop() and an explicit
   * tick() do, so nothing is cut off at shutdown and a test sees the tick's posts.
   */
  settled?(): Promise<void>;
}

/**
 * Where a tick came from: the interval's timer, whose work may be spread over the interval it starts,
 * or an explicit Scheduler.tick() (a test, the sandbox's clock), which wants its work done now. A job
 * ticked without one takes it as explicit.
 */
export interface TickCause {
  fromTimer: boolean;
}

/**
 * Work a feature does with a person's machines, read from the one list the tick already makes for
 * that person (the watch poller's, under the person's lease): a check costs Paperspace no list call of
 * its own, and two replicas never check one person in the same tick.
 */
export interface PersonMachineCheck {
  name: string;
  /**
   * Whether this person's machines must be listed this tick for this check. A person with watches is
   * listed every tick anyway, and every check is handed that list; one without watches is listed only
   * when some check is due.
   */
  due(user: SlackUser, now: number): boolean;
  /** Every machine the person's key lists, as listed this tick, with the client that listed them. */
  check(user: SlackUser, machines: readonly Machine[], client: PaperspaceClient): Promise<void>;
  /**
   * A machine of workspace `teamId` a watch saw reach off (a stop the bot sent, followed to its end):
   * told at once, whoever's key listed it and whichever replica follows it, so the check need not wait
   * for its next list (five minutes for a person without watches) to act on the stop.
   */
  machineOff?(teamId: string, machine: { id: string; name: string }): Promise<void>;
}

/** What the scheduler reports as it runs (the bot counts it in /metrics). */
export interface SchedulerObserver {
  /** A reminder was delivered by this replica: a cron fire, or a snoozed one asked again. */
  reminderFired(kind: 'scheduled' | 'snoozed'): void;
  /**
   * A tick step failed (`scheduler`), a reminder could not be delivered (`reminder`), or the outcome of
   * a watch could not be posted this time (`completion`).
   */
  failed(source: 'scheduler' | 'reminder' | 'completion'): void;
  /**
   * A person was not polled this interval: their last poll had not answered yet (`unanswered`), or their
   * poll waited for a place under POLL_CONCURRENCY past its deadline (`no_slot`).
   */
  pollSkipped(reason: PollSkipReason): void;
}

/** Why a person was not polled in an interval (SchedulerObserver.pollSkipped). */
export type PollSkipReason = 'unanswered' | 'no_slot';

export const NO_OBSERVER: SchedulerObserver = {
  reminderFired: () => undefined,
  failed: () => undefined,
  pollSkipped: () => undefined,
};

/**
 * The Web API client carrying the bot token of one workspace (the single bot token, or the workspace's
 * OAuth installation). Rejects when the bot is not installed there: nothing is posted with another
 * workspace's token.
 */
export type WorkspaceSlack = (teamId: string) => Promise<WebClient>;

/**
 * What the engine gives every job: its clock, log, pace, cron engine, name and observer. What a job
 * does its work with (the store's repositories, Slack, Paperspace) is the bot's, handed to each job by
 * the features' wiring (features/job-needs.ts), never through the engine.
 */
export interface JobDeps {
  logger: Logger;
  now: () => number;
  pollIntervalMs: number;
  /** People polled at the same time (POLL_CONCURRENCY). */
  pollConcurrency: number;
  /**
   * The scheduler's clock and timer for work spread across an interval (each person's poll at a moment
   * of their own); absent when a test fires the ticks by hand, and that work then starts with the tick.
   */
  spread?: SpreadTimer;
  cron: CronEngine;
  /** Names this replica in leases and claims. */
  replicaId: string;
  observer: SchedulerObserver;
}

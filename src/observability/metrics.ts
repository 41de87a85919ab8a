// The bot's Prometheus metrics. Each bot has its own Registry (never prom-client's global one), so two
// bots in one process (tests, a sandbox beside a real bot) count separately and never clash over names.
import type { Logger } from 'pino';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { describeError } from '../errors/describe-error.js';
import type { ResponseEvent } from '../paperspace/http.js';
import { withinDeadline } from './deadline.js';

const METRIC_PREFIX = 'psbot_';

/** What Slack asked for: slash command, interaction (button, menu), modal, Events API, or other. */
export type SlackRequestKind = 'command' | 'action' | 'view' | 'event' | 'options' | 'shortcut' | 'other';

/**
 * How a Slack request ended: `acked` and finished, `error` when a listener or middleware threw (before or
 * after the ack), `unacked` when nothing acknowledged it (no listener matched).
 */
export type SlackRequestOutcome = 'acked' | 'error' | 'unacked';

/**
 * Where an error counted in `psbot_errors_total` happened: `slack` a failure that escaped the listeners
 * (Bolt's error handler saw it), `scheduler` a failed step of a tick, `reminder` a reminder or snoozed
 * reminder that could not be delivered, `completion` the outcome of a watch that could not be posted
 * (it is posted again later).
 */
type ErrorSource = 'slack' | 'scheduler' | 'reminder' | 'completion';
const ERROR_SOURCES: readonly ErrorSource[] = ['slack', 'scheduler', 'reminder', 'completion'];

/** `scheduled` fires of a reminder's cron, and `snoozed` reminders asked again after Snooze 1h. */
type ReminderKind = 'scheduled' | 'snoozed';
type PollSkipReason = 'unanswered' | 'no_slot';
const REMINDER_KINDS: readonly ReminderKind[] = ['scheduled', 'snoozed'];

/** Slack wants an ack within 3 s; the buckets are dense below that. */
const ACK_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5];
const PAPERSPACE_BUCKETS_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const DEFAULT_COLLECT_TIMEOUT_MS = 2_000;

export interface BotMetricsDeps {
  /** Watches not finished yet, read at each scrape. */
  countActiveWatches: () => Promise<number>;
  logger: Logger;
  /** Bounds the store read of a scrape; default 2 s. */
  collectTimeoutMs?: number;
  /** prom-client's process and Node.js metrics (memory, CPU, event loop lag, GC) on this registry. Default true. */
  processMetrics?: boolean;
}

export interface BotMetrics {
  readonly registry: Registry;
  /** The Prometheus text exposition of every metric of this bot. */
  exposition(): Promise<string>;
  readonly contentType: string;
  slackRequestStarted(): void;
  /** `seconds` from the request's arrival to its ack. */
  slackRequestAcked(kind: SlackRequestKind, seconds: number): void;
  slackRequestFinished(kind: SlackRequestKind, outcome: SlackRequestOutcome): void;
  /** Every attempt of every Paperspace call: the client factory's onResponse hook. */
  paperspaceResponse(event: ResponseEvent): void;
  reminderFired(kind: ReminderKind): void;
  /**
   * A person's watch poll was skipped for an interval: their last one had not answered (`unanswered`),
   * or it waited for a place under POLL_CONCURRENCY past its deadline (`no_slot`).
   */
  pollSkipped(reason: PollSkipReason): void;
  errorOccurred(source: ErrorSource): void;
}

export function createBotMetrics(deps: BotMetricsDeps): BotMetrics {
  const registry = new Registry();
  const registers = [registry];
  if (deps.processMetrics ?? true) collectDefaultMetrics({ register: registry });

  const slackRequests = new Counter({
    name: `${METRIC_PREFIX}slack_requests_total`,
    help: 'Slack requests received, by kind (command, action, view, event, ...) and outcome (acked, error, unacked).',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });
  const slackInFlight = new Gauge({
    name: `${METRIC_PREFIX}slack_requests_in_flight`,
    help: 'Slack requests whose listeners are still running (acked or not).',
    registers,
  });
  const ackDuration = new Histogram({
    name: `${METRIC_PREFIX}slack_ack_duration_seconds`,
    help: 'Time from a Slack request reaching the app to its ack; Slack gives up after 3 s.',
    labelNames: ['kind'] as const,
    buckets: ACK_BUCKETS_SECONDS,
    registers,
  });
  const paperspaceRequests = new Counter({
    name: `${METRIC_PREFIX}paperspace_requests_total`,
    help: 'HTTP requests to the Paperspace API (each retry counts), by client operation and HTTP status ("error" when no answer came).',
    labelNames: ['operation', 'status'] as const,
    registers,
  });
  const paperspaceDuration = new Histogram({
    name: `${METRIC_PREFIX}paperspace_request_duration_seconds`,
    help: 'Duration of HTTP requests to the Paperspace API, by client operation.',
    labelNames: ['operation'] as const,
    buckets: PAPERSPACE_BUCKETS_SECONDS,
    registers,
  });
  const collectTimeoutMs = deps.collectTimeoutMs ?? DEFAULT_COLLECT_TIMEOUT_MS;
  new Gauge({
    name: `${METRIC_PREFIX}watches_active`,
    help: 'Watches (waits for a machine state) not finished yet, across all replicas sharing the store; NaN when the store could not be read.',
    registers,
    async collect() {
      try {
        this.set(await withinDeadline('the store', collectTimeoutMs, deps.countActiveWatches));
      } catch (error) {
        // A scrape must still answer when the store does not; NaN says "unknown" rather than a stale count.
        deps.logger.warn({ error: describeError(error) }, 'could not count active watches for /metrics');
        this.set(Number.NaN);
      }
    },
  });
  const remindersFired = new Counter({
    name: `${METRIC_PREFIX}reminders_fired_total`,
    help: 'Shutdown reminders delivered by this replica (each occurrence is delivered by one replica only).',
    labelNames: ['kind'] as const,
    registers,
  });
  const pollsSkipped = new Counter({
    name: `${METRIC_PREFIX}watch_polls_skipped_total`,
    help: 'Watch polls of a person skipped for an interval: reason "unanswered" when their previous poll had not answered (a slow or hanging Paperspace account, nobody else waits for it), "no_slot" when their poll waited for a place under POLL_CONCURRENCY past its deadline (raise POLL_CONCURRENCY).',
    labelNames: ['reason'] as const,
    registers,
  });
  const errors = new Counter({
    name: `${METRIC_PREFIX}errors_total`,
    help: 'Failures by source: slack (a request failed in a listener or middleware), scheduler (a tick step failed), reminder (delivery failed), completion (a watch outcome could not be posted yet).',
    labelNames: ['source'] as const,
    registers,
  });
  // Series that exist from the start, so rate() and increase() see the first failure as a change from zero.
  for (const source of ERROR_SOURCES) errors.inc({ source }, 0);
  for (const kind of REMINDER_KINDS) remindersFired.inc({ kind }, 0);

  return {
    registry,
    contentType: registry.contentType,
    exposition: () => registry.metrics(),
    slackRequestStarted: () => slackInFlight.inc(),
    slackRequestAcked: (kind, seconds) => ackDuration.observe({ kind }, seconds),
    slackRequestFinished(kind, outcome) {
      slackInFlight.dec();
      slackRequests.inc({ kind, outcome });
    },
    paperspaceResponse(event) {
      paperspaceRequests.inc({ operation: event.operation, status: String(event.status) });
      paperspaceDuration.observe({ operation: event.operation }, event.durationMs / 1000);
    },
    reminderFired: (kind) => remindersFired.inc({ kind }),
    pollSkipped: (reason) => pollsSkipped.inc({ reason }),
    errorOccurred: (source) => errors.inc({ source }),
  };
}

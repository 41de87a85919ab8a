// The running bot, assembled from parts that main.ts (or a test) has already opened: the store and the
// vault. Everything that talks to Slack or Paperspace is built here, so production and the end-to-end
// tests run the same wiring.
import type { CustomRoute } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { Agent } from 'undici';
import { DEFAULT_POLL_CONCURRENCY, type RetentionConfig, type SlackPacing } from './config.js';
import { describeError } from './errors/describe-error.js';
import type { ListenerWiring } from './features/feature-deps.js';
import {
  attachListeners,
  createBotScheduler,
  pacingOf,
  rowRedrawOf,
  slackbotHost,
} from './features/index.js';
import { createMachineWatcher, type MachineWatcher } from './features/machines/machine-watcher.js';
import type { Logger } from './logger.js';
import { type BotMetrics, createBotMetrics } from './observability/metrics.js';
import { createRequestScope, type RequestScope } from './observability/request-scope.js';
import { createObservabilityRoutes } from './observability/routes.js';
import { instrumentSlackRequests } from './observability/slack-requests.js';
import type { CronEngine } from './scheduler/cron-engine.js';
import type { WorkspaceSlack } from './scheduler/job.js';
import type { Scheduler, SchedulerTimers } from './scheduler/scheduler.js';
import { createSlackApp, type SlackApp, type SlackOAuthOptions } from './slack/app.js';
import { createChannelPacer } from './slack/channel-pacer.js';
import {
  type BotInstallationStore,
  createInstallationStore,
  NotInstalledError,
} from './slack/installation-store.js';
import { mcpRoutes } from './slack/mcp/mcp-endpoint.js';
import { slackbotWorkspaces } from './slack/mcp/slackbot-workspaces.js';
import { METADATA_SEAL_PURPOSE } from './slack/metadata-seal.js';
import { BOT_SCOPES } from './slack/scopes.js';
import { createAuditTrail } from './store/audit-trail.js';
import type { Store } from './store/store.js';
import { createInstallationSeal } from './vault/installation-seal.js';
import type { KeyVault } from './vault/key-vault.js';
import { createPaperspaceClientFactory } from './vault/paperspace-clients.js';

type SlackConnection =
  | { mode: 'http'; botToken: string; signingSecret: string; apiUrl: string }
  | { mode: 'socket'; botToken: string; appToken: string; apiUrl: string }
  | {
      /** Installed in many workspaces by OAuth; each installation's token is kept in the store, sealed. */
      mode: 'oauth';
      clientId: string;
      clientSecret: string;
      stateSecret: string;
      signingSecret: string;
      apiUrl: string;
      /** Slack's authorize page; tests point it at the fake Slack. */
      authorizationUrl?: string;
    };

export interface BotOptions {
  slack: SlackConnection;
  paperspace: { apiUrl: string; graphqlUrl: string };
  /** HTTP port (Slack requests in HTTP mode, health routes in both); 0 picks a free one. */
  port: number;
  /** Address the HTTP server binds to; undefined: every interface. */
  host?: string | undefined;
  store: Store;
  vault: KeyVault;
  logger: Logger;
  /** Watches, reminders, snoozes and share expiry; POLL_INTERVAL_MS and the seams tests replace. */
  scheduler: {
    pollIntervalMs: number;
    /** POLL_CONCURRENCY; DEFAULT_POLL_CONCURRENCY by default. */
    pollConcurrency?: number;
    /** AUDIT_RETENTION_DAYS and DELEGATION_RETENTION_DAYS; DEFAULT_RETENTION by default. */
    retention?: RetentionConfig;
    /** SLACK_PACING by default; null when Slack is a stand-in that imposes no limits (tests). */
    slackPacing?: SlackPacing | null;
    /** Real intervals by default; tests pass manualTimers and call tick(). */
    timers?: SchedulerTimers;
    /** node-cron by default. */
    cron?: CronEngine;
    replicaId?: string;
  };
  /** Wraps the listeners' watcher (tests record the requests). */
  wrapWatcher?: (watcher: MachineWatcher) => MachineWatcher;
  now?: () => number;
  /** Routes served beside the bot's own GET /livez, /readyz, /healthz and /metrics. */
  customRoutes?: CustomRoute[];
  /**
   * The scope Slack requests are served in. Pass the one given to createLogger, so that every line
   * logged while serving a request carries its id; without it the bot makes its own, and the ids still
   * reach the listeners (`context.requestId`) and Paperspace (X-Request-Id), but not every log line.
   */
  requestScope?: RequestScope;
  /** Observability settings; the defaults suit production. */
  observability?: {
    /** How long GET /healthz waits for `store.ping()`; default 2000. */
    pingTimeoutMs?: number;
    /** Process and Node.js metrics (memory, CPU, event loop, GC) in /metrics; default true. */
    processMetrics?: boolean;
    /** Bearer token GET /metrics asks for (METRICS_TOKEN); without it /metrics is open. */
    metricsToken?: string;
  };
  /** How long stop() lets Slack requests under way finish before giving up on them; default 10000. */
  shutdownGraceMs?: number;
}

export interface RunningBot {
  port: number;
  slackApp: SlackApp;
  scheduler: Scheduler;
  /** What listeners ask to follow a machine to a state (tests and benchmarks watch through it too). */
  watcher: MachineWatcher;
  /** This bot's metrics (its own Prometheus registry), as GET /metrics serves them. */
  metrics: BotMetrics;
  /**
   * Shuts down in order: GET /readyz answers 503 from the first moment; in HTTP mode the bot then keeps
   * serving for `drainMs` (default 0), so a load balancer that probes readiness stops sending here before
   * the port closes; then it stops taking Slack requests (closes the HTTP server or the socket), lets the
   * requests under way finish (at most shutdownGraceMs) while the scheduler stops (its tick under way
   * ends and its watch leases are given up), then closes the Paperspace connection pool. The store is
   * the caller's to close, afterwards. Calling it again returns the same promise.
   */
  stop(options?: { drainMs?: number }): Promise<void>;
}

const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
/**
 * Sockets to Paperspace at once. Every request past the cap waits for a free socket, a whole API round
 * trip, so the cap is set for a burst of commands rather than for the average. Idle sockets close after
 * keepAliveTimeout.
 */
const PAPERSPACE_CONNECTIONS = DEFAULT_POLL_CONCURRENCY;
/**
 * The post-slot row that holds the deployment's chat.update budget (no channel id has a dot). Tier 3
 * counts per workspace; the pacer keeps one budget for all the workspaces it serves, as it did alone,
 * which holds each workspace within its own.
 */
const CARD_UPDATES_SLOT = 'chat.update';

export async function startBot(options: BotOptions): Promise<RunningBot> {
  const now = options.now ?? Date.now;
  const { logger } = options;
  const requestScope = options.requestScope ?? createRequestScope();
  const metrics = createBotMetrics({
    // Every replica sees the same count: the gauge says how many watches the deployment is following.
    // One COUNT(*) in the database, not the rows: a scrape at 10,000 watches must not load them all.
    countActiveWatches: () => options.store.watches.countActive(),
    logger,
    ...(options.observability?.processMetrics === undefined
      ? {}
      : { processMetrics: options.observability.processMetrics }),
  });
  // One connection pool for every user's client: keys differ per request, sockets need not.
  const dispatcher = new Agent({ connections: PAPERSPACE_CONNECTIONS, keepAliveTimeout: 10_000 });
  const clients = createPaperspaceClientFactory({
    vault: options.vault,
    baseUrl: options.paperspace.apiUrl,
    graphqlUrl: options.paperspace.graphqlUrl,
    dispatcher,
    now,
    onResponse: (event) => metrics.paperspaceResponse(event),
    currentRequestId: () => requestScope.currentId(),
  });
  const watcher = createMachineWatcher({ store: options.store, now });
  // One per bot: a channel has one lane whether a command or the scheduler posts in it. On PostgreSQL
  // (where replicas share the store) each message also claims its channel's slot for the deployment,
  // and each card update the app's update slot; SQLite has one replica, whose own pace is the
  // deployment's, so it skips the write.
  const pacer = createChannelPacer({
    ...pacingOf(options.scheduler),
    ...(options.store.dialect === 'postgres'
      ? {
          claimSlot: (channel: string, at: number, spacingMs: number) =>
            options.store.postSlots.claim(channel, at, spacingMs),
          slotUnclaimed: (channel: string, error: unknown) =>
            options.logger.warn(
              { channel, error: describeError(error) },
              'could not claim a post slot in the store; this message keeps this replica’s pace alone',
            ),
          claimUpdate: (at: number, spacingMs: number) =>
            options.store.postSlots.claim(CARD_UPDATES_SLOT, at, spacingMs),
          updateUnclaimed: (error: unknown) =>
            options.logger.warn(
              { error: describeError(error) },
              'could not claim a card update in the store; this update keeps this replica’s budget alone',
            ),
        }
      : {}),
  });
  // The listeners' wiring: each feature is handed only its declared part of it (features/index.ts).
  const wiring: ListenerWiring = {
    clients,
    vault: options.vault,
    store: options.store,
    audit: createAuditTrail({ audit: options.store.audit, now, logger: options.logger }),
    watcher: options.wrapWatcher ? options.wrapWatcher(watcher) : watcher,
    logger: options.logger,
    now,
    pacer,
    redrawRow: rowRedrawOf({ store: options.store, pacer, logger: options.logger, now }),
  };
  const { slack } = options;
  let stopping: Promise<void> | undefined;
  const observabilityRoutes = createObservabilityRoutes({
    store: options.store,
    metrics,
    logger,
    shuttingDown: () => stopping !== undefined,
    ...(options.observability?.pingTimeoutMs === undefined
      ? {}
      : { pingTimeoutMs: options.observability.pingTimeoutMs }),
    ...(options.observability?.metricsToken === undefined
      ? {}
      : { metricsToken: options.observability.metricsToken }),
  });
  const installationStore =
    slack.mode === 'oauth'
      ? createInstallationStore({
          installations: options.store.slackInstallations,
          seal: createInstallationSeal(options.vault),
          now,
        })
      : undefined;
  const common = {
    botToken: slack.mode === 'oauth' ? undefined : slack.botToken,
    slackApiUrl: slack.apiUrl,
    logger,
    port: options.port,
    ...(options.host === undefined ? {} : { host: options.host }),
    metadataKeys: options.vault.derivedKeys(METADATA_SEAL_PURPOSE),
    register: (app: Parameters<typeof attachListeners>[0]) => attachListeners(app, wiring),
    customRoutes: [
      ...observabilityRoutes,
      // Slackbot's MCP client signs with the signing secret, which Socket Mode does without.
      ...(slack.mode === 'socket'
        ? []
        : mcpRoutes(
            slackbotHost(wiring, (caller) => slackbotWorkspace(caller)),
            logger,
          )),
      ...(options.customRoutes ?? []),
    ],
  };
  const slackApp =
    slack.mode === 'socket'
      ? createSlackApp({ ...common, mode: 'socket', appToken: slack.appToken })
      : createSlackApp({
          ...common,
          mode: 'http',
          signingSecret: slack.signingSecret,
          seenSignatures: options.store.requestReplays,
          ...(slack.mode === 'oauth' && installationStore !== undefined
            ? { oauth: oauthOptions(slack, installationStore) }
            : {}),
        });
  // Read when a tool is called, which is only once the app has started.
  const slackbotWorkspace = slackbotWorkspaces(
    slackApp,
    slack.mode === 'oauth' ? { installations: installationStore } : { botToken: slack.botToken },
  );
  const slackRequests = instrumentSlackRequests(slackApp.app, { metrics, scope: requestScope, logger });
  const running = createBotScheduler({
    store: options.store,
    vault: options.vault,
    clients,
    slack: scheduledSlack(slackApp, slack, installationStore),
    logger: logger.child({ component: 'scheduler' }),
    now,
    observer: {
      reminderFired: (kind) => metrics.reminderFired(kind),
      failed: (source) => metrics.errorOccurred(source),
      pollSkipped: (reason) => metrics.pollSkipped(reason),
    },
    ...options.scheduler,
    pacer,
  });
  const { port } = await slackApp.start();
  await running.start();

  const shutdownGraceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  const shutdown = async (drainMs: number) => {
    // Socket Mode has no load balancer in front of it: Slack moves to another replica's socket itself.
    if (slack.mode !== 'socket' && drainMs > 0) {
      logger.info({ drainMs }, 'not ready: serving on while load balancers stop sending here');
      await new Promise((resolve) => setTimeout(resolve, drainMs));
    }
    logger.info({ inFlight: slackRequests.inFlight() }, 'bot stopping');
    // Whatever happens to the server or the socket, the rest of the shutdown still runs.
    await slackApp.stop().catch((error: unknown) => {
      logger.warn({ error: describeError(error) }, 'stopping the Slack app failed');
    });
    // Listeners and the scheduler are independent (a watch a listener asks for after the scheduler has
    // stopped is stored and taken up by the next run), so both wind down at once.
    const [drained] = await Promise.all([slackRequests.drain(shutdownGraceMs), running.stop()]);
    if (drained.unfinished > 0) {
      // Their Paperspace calls are cut off rather than waited for: the grace period is over.
      await dispatcher.destroy().catch((error: unknown) => {
        logger.warn({ error: describeError(error) }, 'closing the Paperspace connections failed');
      });
    } else {
      await dispatcher.close();
    }
    await slackApp.closeConnections({ force: drained.unfinished > 0 }).catch((error: unknown) => {
      logger.warn({ error: describeError(error) }, 'closing the Slack connections failed');
    });
    logger.info({ abandonedRequests: drained.unfinished }, 'bot stopped');
  };
  return {
    port,
    slackApp,
    scheduler: running,
    watcher,
    metrics,
    stop(stopOptions) {
      stopping ??= shutdown(stopOptions?.drainMs ?? 0);
      return stopping;
    },
  };
}

function oauthOptions(
  slack: Extract<SlackConnection, { mode: 'oauth' }>,
  installationStore: BotInstallationStore,
): SlackOAuthOptions {
  return {
    clientId: slack.clientId,
    clientSecret: slack.clientSecret,
    stateSecret: slack.stateSecret,
    installationStore,
    scopes: BOT_SCOPES,
    ...(slack.authorizationUrl === undefined ? {} : { authorizationUrl: slack.authorizationUrl }),
  };
}

/** The scheduler's Web API clients: the one workspace's, or each installed workspace's. */
function scheduledSlack(
  slackApp: SlackApp,
  slack: SlackConnection,
  installationStore: BotInstallationStore | undefined,
): WorkspaceSlack {
  if (installationStore !== undefined) {
    return installedWorkspaceSlack(installationStore, (token) => slackApp.backgroundClient(token));
  }
  if (slack.mode === 'oauth') throw new Error('an OAuth installation needs its installation store');
  const client = slackApp.backgroundClient(slack.botToken);
  return async () => client;
}

/**
 * The scheduler's Web API client for a workspace, with the token of the installation that serves it,
 * read from the store each time (an uninstall on another replica takes effect at once); one client per
 * token, not per call. A workspace without one gets no client at all: the job's step fails and is logged.
 */
function installedWorkspaceSlack(
  installations: BotInstallationStore,
  clientFor: (token: string) => WebClient,
): WorkspaceSlack {
  const clients = new Map<string, WebClient>();
  return async (teamId) => {
    const token = await installations.botTokenFor(teamId);
    if (token === undefined) throw new NotInstalledError(`The app is not installed in workspace ${teamId}`);
    let client = clients.get(token);
    if (client === undefined) {
      client = clientFor(token);
      clients.set(token, client);
    }
    return client;
  };
}

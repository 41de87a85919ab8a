// The running bot, assembled from parts that main.ts (or a test) has already opened: the store and the
// vault. Everything that talks to Slack or Paperspace is built here, so production and the end-to-end
// tests run the same wiring.
import type { CustomRoute } from '@slack/bolt';
import { Agent } from 'undici';
import type { Logger } from './logger.js';
import type { CronEngine } from './scheduler/cron-engine.js';
import { createScheduler, type Scheduler, type SchedulerTimers } from './scheduler/scheduler.js';
import { createAuditTrail } from './services/audit-trail.js';
import type { MachineWatcher } from './services/machine-watches.js';
import { createPaperspaceClientFactory } from './services/paperspace-clients.js';
import { createSlackApp, type SlackApp } from './slack/app.js';
import type { ListenerDeps } from './slack/listeners/deps.js';
import { registerListeners } from './slack/listeners/index.js';
import type { Store } from './store/store.js';
import type { KeyVault } from './vault/key-vault.js';

export type SlackConnection =
  | { mode: 'http'; botToken: string; signingSecret: string; apiUrl: string }
  | { mode: 'socket'; botToken: string; appToken: string; apiUrl: string };

export interface BotOptions {
  slack: SlackConnection;
  paperspace: { apiUrl: string; graphqlUrl: string };
  /** HTTP port (Slack requests in HTTP mode, health routes in both); 0 picks a free one. */
  port: number;
  store: Store;
  vault: KeyVault;
  logger: Logger;
  /** Watches, reminders, snoozes and share expiry; POLL_INTERVAL_MS and the seams tests replace. */
  scheduler: {
    pollIntervalMs: number;
    /** Real intervals by default; tests pass manualTimers and call tick(). */
    timers?: SchedulerTimers;
    /** node-cron by default. */
    cron?: CronEngine;
    replicaId?: string;
  };
  /** Wraps the scheduler as the listeners' watcher (tests record the requests). */
  wrapWatcher?: (scheduler: MachineWatcher) => MachineWatcher;
  now?: () => number;
  customRoutes?: CustomRoute[];
}

export interface RunningBot {
  port: number;
  slackApp: SlackApp;
  scheduler: Scheduler;
  stop(): Promise<void>;
}

export async function startBot(options: BotOptions): Promise<RunningBot> {
  const now = options.now ?? Date.now;
  // One connection pool for every user's client: keys differ per request, sockets need not.
  const dispatcher = new Agent({ connections: 64, keepAliveTimeout: 10_000 });
  const clients = createPaperspaceClientFactory({
    vault: options.vault,
    baseUrl: options.paperspace.apiUrl,
    graphqlUrl: options.paperspace.graphqlUrl,
    dispatcher,
    now,
  });
  // Listeners are registered while the Slack app is built, and the scheduler needs that app's Web API
  // client: watch requests reach the scheduler through this forwarder, bound once both exist (before
  // the app starts taking requests).
  let scheduler: Scheduler | undefined;
  const forwarder: MachineWatcher = {
    watch(request) {
      if (scheduler === undefined) throw new Error('a watch was requested before the scheduler was built');
      return scheduler.watch(request);
    },
  };
  const deps: ListenerDeps = {
    clients,
    vault: options.vault,
    store: options.store,
    audit: createAuditTrail({ audit: options.store.audit, now, logger: options.logger }),
    watcher: options.wrapWatcher ? options.wrapWatcher(forwarder) : forwarder,
    logger: options.logger,
    now,
  };
  const { slack } = options;
  const common = {
    botToken: slack.botToken,
    slackApiUrl: slack.apiUrl,
    logger: options.logger,
    port: options.port,
    register: (app: Parameters<typeof registerListeners>[0]) => registerListeners(app, deps),
    ...(options.customRoutes ? { customRoutes: options.customRoutes } : {}),
  };
  const slackApp =
    slack.mode === 'http'
      ? createSlackApp({ ...common, mode: 'http', signingSecret: slack.signingSecret })
      : createSlackApp({ ...common, mode: 'socket', appToken: slack.appToken });
  const running = createScheduler({
    store: options.store,
    vault: options.vault,
    clients,
    slack: slackApp.app.client,
    logger: options.logger.child({ component: 'scheduler' }),
    now,
    ...options.scheduler,
  });
  scheduler = running;
  const { port } = await slackApp.start();
  await running.start();
  return {
    port,
    slackApp,
    scheduler: running,
    async stop() {
      // The scheduler first: a tick under way may still post to Slack and call Paperspace.
      await running.stop();
      await slackApp.stop();
      await dispatcher.close();
    },
  };
}

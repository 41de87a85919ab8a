// The running bot, assembled from parts that main.ts (or a test) has already opened: the store and the
// vault. Everything that talks to Slack or Paperspace is built here, so production and the end-to-end
// tests run the same wiring.
import type { CustomRoute } from '@slack/bolt';
import { Agent } from 'undici';
import type { Logger } from './logger.js';
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
  watcher: MachineWatcher;
  now?: () => number;
  customRoutes?: CustomRoute[];
}

export interface RunningBot {
  port: number;
  slackApp: SlackApp;
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
  const deps: ListenerDeps = {
    clients,
    vault: options.vault,
    store: options.store,
    audit: createAuditTrail({ audit: options.store.audit, now, logger: options.logger }),
    watcher: options.watcher,
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
  const { port } = await slackApp.start();
  return {
    port,
    slackApp,
    async stop() {
      await slackApp.stop();
      await dispatcher.close();
    },
  };
}

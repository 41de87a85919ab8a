// Entry point: only wiring. config -> logger -> store -> vault -> bot (client factory, Slack app,
// scheduler). Without Slack credentials it says what to set: the sandbox is `npm start` (tools/start.ts).
import { type RunningBot, startBot } from './bot.js';
import type { Config } from './config.js';
import { describeError } from './errors/describe-error.js';
import { createLogger, type Logger } from './logger.js';
import { createRequestScope, type RequestScope } from './observability/request-scope.js';
import { loadConfigOrExit, stopOnSignal } from './process-lifecycle.js';
import { openStore, type Store } from './store/store.js';
import { createKeyVault } from './vault/key-vault.js';

/**
 * After SIGTERM (what an orchestrator sends: Kubernetes, `docker stop`), GET /readyz answers 503 at once
 * and an HTTP-mode bot keeps serving this long, so that load balancers probing readiness (every few
 * seconds) stop sending here before the port closes. SIGINT is someone at a terminal: no wait.
 */
const LOAD_BALANCER_DRAIN_MS = 5_000;
/**
 * Then the bot waits this long for requests under way, gives up its watch leases and the store closes.
 * The process exits anyway a little after that, should anything hang. Deployments must allow it this
 * long before killing it (compose.yaml's stop_grace_period, Kubernetes' terminationGracePeriodSeconds).
 */
const SHUTDOWN_GRACE_MS = 10_000;
const FORCED_EXIT_AFTER_MS = LOAD_BALANCER_DRAIN_MS + SHUTDOWN_GRACE_MS + 5_000;

async function main(): Promise<void> {
  const config = loadConfigOrExit(process.env);
  // One scope for the logger and the bot, so every log line of a Slack request carries its id.
  const requestScope = createRequestScope();
  const logger = createLogger({ level: config.logLevel, requestScope });
  // A promise no one awaited (a library's, or a listener's fire-and-forget) must not take every other
  // person's requests and watches down with it: it is logged, without its request, and the bot goes on.
  process.on('unhandledRejection', (reason) => {
    logger.error({ error: describeError(reason) }, 'unhandled promise rejection');
  });

  if (config.mode === 'sandbox') {
    // The compiled bot carries no sandbox: `npm start` (tools/start.ts) runs it from the source tree.
    process.stderr.write(
      'No Slack credentials: set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (or SLACK_APP_TOKEN for Socket Mode), ' +
        'or SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET and SLACK_SIGNING_SECRET to install in many workspaces, ' +
        'or run `npm start` from the source tree for the local sandbox.\n',
    );
    process.exit(1);
  }

  const store = await openStore(config.database);
  const stopped = await startConnectedBot(config, logger, requestScope, store).catch(
    async (error: unknown) => {
      await store.close();
      throw error;
    },
  );
  stopOnSignal(
    logger,
    async (signal) => {
      await stopped({ drainMs: signal === 'SIGTERM' ? LOAD_BALANCER_DRAIN_MS : 0 });
      await store.close();
    },
    FORCED_EXIT_AFTER_MS,
  );
}

async function startConnectedBot(
  config: Exclude<Config, { mode: 'sandbox' }>,
  logger: Logger,
  requestScope: RequestScope,
  store: Store,
): Promise<RunningBot['stop']> {
  const vault = createKeyVault({ keys: config.vaultKeys, store, now: Date.now });
  // A wrong VAULT_KEY stops the bot here, before anyone's stored key is touched.
  const status = await vault.verify();
  logger.info(
    { linkedUsers: status.records, installations: status.installations, staleRecords: status.staleRecords },
    'key vault verified',
  );

  const slack =
    config.mode === 'http'
      ? ({ mode: 'http', ...config.slack } as const)
      : config.mode === 'oauth'
        ? ({ mode: 'oauth', ...config.slack } as const)
        : ({
            mode: 'socket',
            botToken: config.slack.botToken,
            appToken: config.slack.appToken,
            apiUrl: config.slack.apiUrl,
          } as const);
  const bot = await startBot({
    slack,
    paperspace: config.paperspace,
    port: config.port,
    host: config.host,
    store,
    vault,
    logger,
    requestScope,
    shutdownGraceMs: SHUTDOWN_GRACE_MS,
    scheduler: {
      pollIntervalMs: config.pollIntervalMs,
      pollConcurrency: config.pollConcurrency,
      retention: config.retention,
    },
    ...(config.metricsToken === undefined ? {} : { observability: { metricsToken: config.metricsToken } }),
  });
  logger.info({ mode: config.mode, port: bot.port }, 'Paperspace bot is running');
  return (options) => bot.stop(options);
}

main().catch((error: unknown) => {
  // Start-up failures (unreachable database, wrong VAULT_KEY, refused Slack token) are written for the
  // operator and carry no secret; print the message, not a stack of framework frames.
  process.stderr.write(`Cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

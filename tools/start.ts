// `npm start`: the bot when Slack credentials are configured, otherwise the local sandbox (the real bot,
// the Paperspace emulator and a Slack stand-in page). The choice is made here, outside src/, so that the
// production entry point (src/main.ts) never loads development tooling.
import { ConfigError, loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { createRequestScope } from '../src/observability/request-scope.js';
import { startSandbox } from './sandbox/start-sandbox.js';

async function start(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  if (config.mode !== 'sandbox') {
    await import('../src/main.js');
    return;
  }
  const logger = createLogger({ level: config.logLevel, requestScope: createRequestScope() });
  // SANDBOX_PAPERSPACE_DIALECT=v1 makes the sandbox's bot speak today's API to the emulator's /v1.
  const dialect = process.env.SANDBOX_PAPERSPACE_DIALECT;
  if (dialect !== undefined && dialect !== '' && dialect !== 'v1' && dialect !== 'contract') {
    process.stderr.write(`SANDBOX_PAPERSPACE_DIALECT must be v1 or contract, not "${dialect}".\n`);
    process.exit(1);
  }
  const sandbox = await startSandbox({
    logger,
    ...(dialect === 'v1' || dialect === 'contract' ? { dialect } : {}),
    port: config.port,
    dataDir: 'data',
    ...(config.vaultKeys.length > 0 ? { vaultKeys: config.vaultKeys } : {}),
  });
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

start().catch((error: unknown) => {
  process.stderr.write(`Cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

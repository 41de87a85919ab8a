// `npm start`: the bot when Slack credentials are configured, otherwise the local sandbox (the real bot,
// the Paperspace emulator and a Slack stand-in page). The choice is made here, outside src/, so that the
// production entry point (src/main.ts) never loads development tooling.
import { createLogger } from '../src/logger.js';
import { createRequestScope } from '../src/observability/request-scope.js';
import { loadConfigOrExit, stopOnSignal } from '../src/process-lifecycle.js';
import { startSandbox } from './sandbox/start-sandbox.js';

/** The sandbox has no load balancer to drain: it closes its servers, and exits anyway after this. */
const SANDBOX_FORCED_EXIT_AFTER_MS = 15_000;

async function start(): Promise<void> {
  const config = loadConfigOrExit(process.env);
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
  stopOnSignal(logger, () => sandbox.close(), SANDBOX_FORCED_EXIT_AFTER_MS);
}

start().catch((error: unknown) => {
  process.stderr.write(`Cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

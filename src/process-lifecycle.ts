// What an entry point does around the bot's life: read the configuration or exit with the one message
// that names every bad variable, and stop gracefully on SIGTERM/SIGINT. Shared by src/main.ts (the
// bot) and tools/start.ts (`npm start`, which may run the sandbox instead).
import { type Config, ConfigError, loadConfig } from './config.js';
import type { Logger } from './logger.js';

/** The configuration, or, before any logger exists, one plain message naming every bad variable and exit 1. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

/**
 * On the first SIGTERM or SIGINT, runs `stop` and exits 0 (1 if it fails). Should anything hang, the
 * process exits anyway after `forcedExitAfterMs`.
 */
export function stopOnSignal(
  logger: Logger,
  stop: (signal: NodeJS.Signals) => Promise<void>,
  forcedExitAfterMs: number,
): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const forced = setTimeout(() => {
      logger.error('in-flight work did not finish in time; exiting anyway');
      process.exit(1);
    }, forcedExitAfterMs);
    forced.unref();
    stop(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

import { inspect } from 'node:util';
import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from 'pino';
import { describeError, redactSlackTokens } from '../errors/describe-error.js';

type BoltMethod = 'debug' | 'info' | 'warn' | 'error';

/**
 * Bolt, its Web API client and the Socket Mode client log at debug the raw traffic: request and response
 * bodies, and in Socket Mode every payload received, including a modal where a user pasted an API key.
 * So their debug output is never forwarded, whatever LOG_LEVEL says; info and above is.
 */
const MOST_VERBOSE_LEVEL = 'info';

/** Adapts our pino logger to the Logger interface that Bolt, @slack/web-api and @slack/socket-mode call. */
export function createBoltLogger(logger: Logger): BoltLogger {
  const child = logger.child({ component: 'slack-bolt' });
  const clamp = (level: string): string => {
    const value = child.levels.values[level];
    const floor = child.levels.values[MOST_VERBOSE_LEVEL] ?? 30;
    return value !== undefined && value < floor ? MOST_VERBOSE_LEVEL : level;
  };
  child.level = clamp(logger.level);

  const write = (method: BoltMethod, args: unknown[]): void => {
    if (!child.isLevelEnabled(method)) return;
    const error = args.find((arg): arg is Error => arg instanceof Error);
    const text = args
      .filter((arg) => !(arg instanceof Error))
      .map((arg) =>
        typeof arg === 'string' ? arg : inspect(arg, { depth: 2, breakLength: Number.POSITIVE_INFINITY }),
      )
      .join(' ');
    const message = redactSlackTokens(text) || (error ? redactSlackTokens(error.message) : '');
    if (error) child[method]({ error: describeError(error) }, message);
    else child[method](message);
  };

  return {
    debug: (...msg: unknown[]) => write('debug', msg),
    info: (...msg: unknown[]) => write('info', msg),
    warn: (...msg: unknown[]) => write('warn', msg),
    error: (...msg: unknown[]) => write('error', msg),
    setLevel(level: LogLevel) {
      child.level = clamp(level);
    },
    getLevel(): LogLevel {
      switch (child.level) {
        case 'trace':
        case 'debug':
          return LogLevel.DEBUG;
        case 'info':
          return LogLevel.INFO;
        case 'warn':
          return LogLevel.WARN;
        default:
          return LogLevel.ERROR;
      }
    },
    setName(name: string) {
      child.setBindings({ boltLogger: name });
    },
  };
}

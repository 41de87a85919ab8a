// One pino logger for the whole bot. Secrets must never reach a log line, and code that logs an
// object (a request, a config, an error with context) rarely checks what is inside it, so every
// field named like a secret is censored at any depth up to CENSOR_DEPTH (censorSecrets).
import { type DestinationStream, type Logger, pino } from 'pino';
import type { LogLevel } from './config.js';
import type { RequestScope } from './observability/request-scope.js';

export type { Logger } from 'pino';

export const REDACTED = '[redacted]';

/** Field names whose values are secrets wherever they appear. */
const SECRET_FIELDS = [
  'apiKey',
  'api_key',
  'accessToken',
  'access_token',
  'token',
  'botToken',
  'appToken',
  'signingSecret',
  'secret',
  'password',
  'authorization',
  'Authorization',
  'x-api-key',
  'X-Api-Key',
  'X-API-Key',
  'cookie',
  'VAULT_KEY',
  'vaultKey',
  'vaultKeys',
  'SLACK_BOT_TOKEN',
  'SLACK_APP_TOKEN',
  'SLACK_SIGNING_SECRET',
  // A PostgreSQL URL carries its password (DatabaseConfig's postgres variant).
  'connectionString',
  'DATABASE_URL',
  // GET /metrics' bearer token (config.metricsToken).
  'metricsToken',
  'METRICS_TOKEN',
  // Slack's OAuth credentials, should the app ever be distributed.
  'clientSecret',
  'client_secret',
  'refreshToken',
  'refresh_token',
];

/** Matched without regard to case: HTTP header names come in any case. */
const SECRET_NAMES: ReadonlySet<string> = new Set(SECRET_FIELDS.map((field) => field.toLowerCase()));

/**
 * How deep into a logged object secrets are looked for. Deeper than any object the bot logs; the
 * limit is what stops a cycle.
 */
const CENSOR_DEPTH = 8;

const isSecretName = (key: string) => SECRET_NAMES.has(key) || SECRET_NAMES.has(key.toLowerCase());

/**
 * `value` with every secret field censored, walked once. What holds no secret is returned as it is,
 * so the common line (a few ids) allocates nothing; what does is copied, never changed in place, as
 * the caller still holds it. pino's own path redaction would need one path per field per depth, and
 * would match neither any case nor any depth.
 */
function censorSecrets(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > CENSOR_DEPTH) return value;
  if (value instanceof Error) return censorError(value, depth);
  // Written as its toJSON() says (a Date, a Buffer, a URL): the secrets, if any, are in that.
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return censorSecrets(toJSON.call(value), depth + 1);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const censored = censorSecrets(item, depth + 1);
      if (censored === item) return;
      copy ??= [...value];
      copy[index] = censored;
    });
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  const fields = value as Record<string, unknown>;
  // for...in rather than Object.entries: every line of every request is walked, and a pair array per
  // field was garbage even when nothing is censored. Object.hasOwn keeps to the same own fields.
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    const field = fields[key];
    const censored = isSecretName(key)
      ? field === undefined
        ? field
        : REDACTED
      : censorSecrets(field, depth + 1);
    if (censored === field) continue;
    copy ??= { ...value };
    copy[key] = censored;
  }
  return copy ?? value;
}

/**
 * An error with its secrets censored. Still an error of the same class, so that pino's `err`
 * serializer writes its type, message, stack and causes as before; only its own fields and its
 * cause are walked.
 */
function censorError(error: Error, depth: number): Error {
  let copy: Error | undefined;
  const copyOf = (): Error => {
    if (copy) return copy;
    copy = Object.create(Object.getPrototypeOf(error)) as Error;
    for (const key of ['message', 'stack', 'cause', 'errors'] as const) {
      if (key in error)
        Object.defineProperty(copy, key, { value: error[key as keyof Error], writable: true });
    }
    Object.assign(copy, error);
    return copy;
  };
  for (const [key, field] of Object.entries(error)) {
    const censored = isSecretName(key) ? REDACTED : censorSecrets(field, depth + 1);
    if (censored !== field) (copyOf() as unknown as Record<string, unknown>)[key] = censored;
  }
  if ('cause' in error) {
    const censored = censorSecrets(error.cause, depth + 1);
    if (censored !== error.cause)
      Object.defineProperty(copyOf(), 'cause', { value: censored, writable: true });
  }
  return copy ?? error;
}

export interface LoggerOptions {
  level: LogLevel;
  /** Where lines go; stdout when omitted. Tests pass a stream that captures them. */
  destination?: DestinationStream;
  /**
   * The scope startBot serves Slack requests in: every line logged while serving one carries its
   * `requestId`, including lines from code that knows nothing about requests (services, Bolt's error
   * handler). Pass the same scope to startBot.
   */
  requestScope?: Pick<RequestScope, 'currentId'>;
}

export function createLogger({ level, destination, requestScope }: LoggerOptions): Logger {
  const options = {
    level,
    // Every line's fields; a child's bindings are censored by censorChildBindings.
    formatters: {
      log: (object: Record<string, unknown>) => censorSecrets(object) as Record<string, unknown>,
    },
    ...(requestScope === undefined
      ? {}
      : {
          mixin: () => {
            const requestId = requestScope.currentId();
            return requestId === undefined ? {} : { requestId };
          },
        }),
  };
  return censorChildBindings(destination === undefined ? pino(options) : pino(options, destination));
}

/**
 * pino writes a child's bindings (logger.child({ ... })) without its log formatter, so they are
 * censored on the way in. Children inherit the root's methods, so this covers grandchildren too.
 */
function censorChildBindings(logger: Logger): Logger {
  const pinoChild = logger.child;
  logger.child = function child(this: Logger, bindings, options) {
    return pinoChild.call(this, censorSecrets(bindings) as typeof bindings, options);
  } as Logger['child'];
  return logger;
}

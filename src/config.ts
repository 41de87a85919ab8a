// The environment is parsed once, here, with one zod schema per variable. A bad start lists every
// bad or missing variable at once (fixing them one restart at a time is miserable), and no message
// ever repeats a value: most of these variables are secrets.
import { z } from 'zod';
import { crossVariableProblems } from './config/cross-variable-rules.js';
import { type DatabaseConfig, parseDatabaseUrl } from './config/database-url.js';
import { CONFIG_VARIABLES, type Variable } from './config/variables.js';
import { parseVaultKeys } from './config/vault-keys.js';

// The store and the tests parse database URLs and list the variables through this module, which
// owns the configuration; each piece lives in config/.
export { CONFIG_VARIABLES, type DatabaseConfig, parseDatabaseUrl };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

interface CommonConfig {
  port: number;
  /** Address the HTTP server binds to; undefined: every interface. */
  host: string | undefined;
  paperspace: { apiUrl: string; graphqlUrl: string };
  database: DatabaseConfig;
  pollIntervalMs: number;
  /** People whose machines are listed at the same time (POLL_CONCURRENCY); a poll's store work comes after. */
  pollConcurrency: number;
  retention: RetentionConfig;
  logLevel: LogLevel;
  /** Bearer token GET /metrics asks for; undefined leaves /metrics open (restrict it at the ingress). */
  metricsToken: string | undefined;
}

/** How long rows that only grow are kept before the prune job deletes them. */
export interface RetentionConfig {
  /** Audit records older than this many days (AUDIT_RETENTION_DAYS). */
  auditDays: number;
  /**
   * Delegations that expired (and were marked so), standing grants that ran out and claims of alerts
   * whose run is over, more than this many days ago (DELEGATION_RETENTION_DAYS).
   */
  delegationDays: number;
}

/**
 * People whose machines are being listed at the same moment. Each person's poll comes at a moment of
 * their own in the interval (scheduler/interval-spread.ts), so at 250 ms of API latency a replica with
 * 5,000 people keeps about 250 lists in flight; the cap counts when Paperspace slows down (at 1 s, about
 * 1,000) or stops answering, bounding the connections and the polls waiting on them. A place is held
 * for the list call only. It matches the Paperspace connection pool (bot.ts); rate limits are per API
 * key, i.e. per person, and are honoured per person (watch-poller.ts).
 */
export const DEFAULT_POLL_CONCURRENCY = 1024;
/** Half a year of "who stopped gpu-1?" answers; about 200 MB of audit rows at 500 people. */
const DEFAULT_AUDIT_RETENTION_DAYS = 180;
/** An expired share is history once its post says so; a month covers "who had access last week?". */
const DEFAULT_DELEGATION_RETENTION_DAYS = 30;
export const DEFAULT_RETENTION: RetentionConfig = {
  auditDays: DEFAULT_AUDIT_RETENTION_DAYS,
  delegationDays: DEFAULT_DELEGATION_RETENTION_DAYS,
};

/** How fast the bot posts on its own (src/slack/channel-pacer.ts); Slack's limits, not a setting. */
export interface SlackPacing {
  /** Least time between two messages posted in one channel. */
  messageSpacingMs: number;
  /** chat.update calls allowed per minute, workspace-wide, after the burst. */
  updatesPerMinute: number;
  /** chat.update calls allowed at once before the per-minute rate applies. */
  updateBurst: number;
}

/**
 * Slack's documented limits: 1 message per second per channel; chat.update Tier 3 (50+ per minute).
 * Slack counts an update when it arrives, the bot when it takes the moment; an update that arrives late
 * while Slack's bucket is full loses its refill, so the burst keeps a few of the minute's 50 in hand.
 */
export const SLACK_PACING: SlackPacing = { messageSpacingMs: 1000, updatesPerMinute: 50, updateBurst: 45 };

/** Slack settings by mode: without a bot token the local sandbox stands in for Slack. */
type SlackModeConfig =
  | {
      mode: 'sandbox';
      slack: { apiUrl: string };
      /** Empty when VAULT_KEY is unset: the sandbox then has to bring its own throwaway key. */
      vaultKeys: Buffer[];
    }
  | {
      mode: 'socket';
      slack: { apiUrl: string; botToken: string; appToken: string; signingSecret: string | undefined };
      vaultKeys: [Buffer, ...Buffer[]];
    }
  | {
      mode: 'http';
      slack: { apiUrl: string; botToken: string; signingSecret: string };
      vaultKeys: [Buffer, ...Buffer[]];
    }
  | {
      /** Distribution: any workspace (or Enterprise Grid organisation) installs it from GET /slack/install. */
      mode: 'oauth';
      slack: OAuthSlackConfig;
      vaultKeys: [Buffer, ...Buffer[]];
    };

/** The Slack app's OAuth credentials (Basic Information > App Credentials) and the state's HMAC secret. */
interface OAuthSlackConfig {
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  stateSecret: string;
  signingSecret: string;
}

export type Config = CommonConfig & SlackModeConfig;

/** The configuration is unusable; `problems` holds one line per variable, never a value. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Invalid configuration (see .env.example):\n${problems.map((line) => `  ${line}`).join('\n')}`);
  }
}

// A guessable token would be worse than none: it looks like protection.
const MIN_METRICS_TOKEN_LENGTH = 16;
// The state secret signs the install flow's state (CSRF protection): as guessable as the metrics token would be.
const MIN_STATE_SECRET_LENGTH = 16;
const MIN_POLL_INTERVAL_MS = 500;
// setTimeout fires at once for delays beyond 2^31-1 ms; an hour is already far past any useful poll.
const MAX_POLL_INTERVAL_MS = 3_600_000;

// Each poll holds a socket; far more than the connection pool only queues behind it.
const MAX_POLL_CONCURRENCY = 4096;
// Ten years: beyond that "forever" is the honest answer, and day counts stay far from overflow.
const MAX_RETENTION_DAYS = 3650;

const httpUrl = (example: string) =>
  z.url({ protocol: /^https?$/, error: `must be an http(s) URL such as ${example}` });

const wholeNumber = (message: string) => z.string().regex(/^\d+$/, message).transform(Number);

const retentionDays = wholeNumber('must be a whole number of days').pipe(
  z
    .number()
    .min(1, 'must be at least 1 day')
    .max(MAX_RETENTION_DAYS, `must be at most ${MAX_RETENTION_DAYS} days`),
);

const vaultKeysSchema = z.string().transform((value, ctx) => {
  const parsed = parseVaultKeys(value);
  if (Array.isArray(parsed)) return parsed;
  for (const error of parsed.errors) ctx.addIssue({ code: 'custom', message: error });
  return z.NEVER;
});

const databaseSchema = z.string().transform((value, ctx): DatabaseConfig => {
  const parsed = parseDatabaseUrl(value);
  if (!('error' in parsed)) return parsed;
  ctx.addIssue({ code: 'custom', message: parsed.error });
  return z.NEVER;
});

const envSchema = z.object({
  SLACK_BOT_TOKEN: z
    .string()
    .startsWith('xoxb-', 'must be a bot token starting with xoxb- (Slack app settings > OAuth & Permissions)')
    .optional(),
  SLACK_SIGNING_SECRET: z.string().optional(),
  SLACK_APP_TOKEN: z
    .string()
    .startsWith(
      'xapp-',
      'must be an app-level token starting with xapp- (Slack app settings > Basic Information)',
    )
    .optional(),
  // Slack's client ids are two numbers joined by a dot: 1234567890.9876543210.
  SLACK_CLIENT_ID: z
    .string()
    .regex(/^\d+\.\d+$/, 'must be the Client ID (digits.digits) from Slack app settings > Basic Information')
    .optional(),
  SLACK_CLIENT_SECRET: z.string().optional(),
  SLACK_STATE_SECRET: z
    .string()
    .min(
      MIN_STATE_SECRET_LENGTH,
      `must be at least ${MIN_STATE_SECRET_LENGTH} characters; generate one with \`openssl rand -hex 32\``,
    )
    .optional(),
  SLACK_API_URL: httpUrl('https://slack.com/api/').default('https://slack.com/api/'),
  PORT: wholeNumber('must be a whole number from 0 to 65535')
    .pipe(z.number().max(65535, 'must be a whole number from 0 to 65535'))
    .default(3000),
  HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:[\]-]+$/, 'must be an address to bind to, such as 127.0.0.1, 0.0.0.0 or ::1')
    .optional(),
  // Today's API: the legacy one (https://api.paperspace.io) was retired for Paperspace's users in
  // July 2024. A base URL whose path ends in /v1 speaks v1; any other speaks the legacy contract.
  PAPERSPACE_API_URL: httpUrl('https://api.paperspace.com/v1').default('https://api.paperspace.com/v1'),
  PAPERSPACE_GRAPHQL_URL: httpUrl('https://api.paperspace.com/graphql').default(
    'https://api.paperspace.com/graphql',
  ),
  VAULT_KEY: vaultKeysSchema.optional(),
  DATABASE_URL: databaseSchema.default({ kind: 'sqlite', path: 'data/bot.db' }),
  POLL_INTERVAL_MS: wholeNumber(`must be a whole number of milliseconds`)
    .pipe(
      z
        .number()
        .min(MIN_POLL_INTERVAL_MS, `must be at least ${MIN_POLL_INTERVAL_MS} ms`)
        .max(MAX_POLL_INTERVAL_MS, `must be at most ${MAX_POLL_INTERVAL_MS} ms (one hour)`),
    )
    .default(5000),
  POLL_CONCURRENCY: wholeNumber('must be a whole number of people polled at once')
    .pipe(
      z
        .number()
        .min(1, 'must be at least 1')
        .max(MAX_POLL_CONCURRENCY, `must be at most ${MAX_POLL_CONCURRENCY}`),
    )
    .default(DEFAULT_POLL_CONCURRENCY),
  AUDIT_RETENTION_DAYS: retentionDays.default(DEFAULT_AUDIT_RETENTION_DAYS),
  DELEGATION_RETENTION_DAYS: retentionDays.default(DEFAULT_DELEGATION_RETENTION_DAYS),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  METRICS_TOKEN: z
    .string()
    .min(
      MIN_METRICS_TOKEN_LENGTH,
      `must be at least ${MIN_METRICS_TOKEN_LENGTH} characters; generate one with \`openssl rand -hex 32\``,
    )
    .optional(),
});

/** Empty or blank values count as unset, so `FOO=` in a .env file means "use the default". */
function normalize(env: Record<string, string | undefined>): Partial<Record<Variable, string>> {
  const normalized: Partial<Record<Variable, string>> = {};
  for (const variable of CONFIG_VARIABLES) {
    const value = env[variable]?.trim();
    if (value !== undefined && value !== '') normalized[variable] = value;
  }
  return normalized;
}

/** Parses the environment once; throws a ConfigError naming every bad or missing variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const raw = normalize(env);
  const parsed = envSchema.safeParse(raw);
  const problems: [Variable, string][] = crossVariableProblems(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push([issue.path[0] as Variable, issue.message]);
  }
  if (problems.length > 0 || !parsed.success) {
    problems.sort(([a], [b]) => CONFIG_VARIABLES.indexOf(a) - CONFIG_VARIABLES.indexOf(b));
    throw new ConfigError(problems.map(([variable, message]) => `${variable}: ${message}`));
  }
  const values = parsed.data;
  const common: CommonConfig = {
    port: values.PORT,
    host: values.HOST,
    paperspace: { apiUrl: values.PAPERSPACE_API_URL, graphqlUrl: values.PAPERSPACE_GRAPHQL_URL },
    database: values.DATABASE_URL,
    pollIntervalMs: values.POLL_INTERVAL_MS,
    pollConcurrency: values.POLL_CONCURRENCY,
    retention: { auditDays: values.AUDIT_RETENTION_DAYS, delegationDays: values.DELEGATION_RETENTION_DAYS },
    logLevel: values.LOG_LEVEL,
    metricsToken: values.METRICS_TOKEN,
  };
  const apiUrl = values.SLACK_API_URL;
  const botToken = values.SLACK_BOT_TOKEN;
  if (values.SLACK_CLIENT_ID !== undefined) {
    const slack: OAuthSlackConfig = {
      apiUrl,
      clientId: values.SLACK_CLIENT_ID,
      clientSecret: checked(values.SLACK_CLIENT_SECRET, 'SLACK_CLIENT_SECRET'),
      stateSecret: checked(values.SLACK_STATE_SECRET, 'SLACK_STATE_SECRET'),
      signingSecret: checked(values.SLACK_SIGNING_SECRET, 'SLACK_SIGNING_SECRET'),
    };
    return { ...common, mode: 'oauth', slack, vaultKeys: requiredVaultKeys(values.VAULT_KEY) };
  }
  if (botToken === undefined) {
    return { ...common, mode: 'sandbox', slack: { apiUrl }, vaultKeys: values.VAULT_KEY ?? [] };
  }
  const vaultKeys = requiredVaultKeys(values.VAULT_KEY);
  if (values.SLACK_APP_TOKEN !== undefined) {
    const slack = {
      apiUrl,
      botToken,
      appToken: values.SLACK_APP_TOKEN,
      signingSecret: values.SLACK_SIGNING_SECRET,
    };
    return { ...common, mode: 'socket', slack, vaultKeys };
  }
  const signingSecret = checked(values.SLACK_SIGNING_SECRET, 'SLACK_SIGNING_SECRET');
  return { ...common, mode: 'http', slack: { apiUrl, botToken, signingSecret }, vaultKeys };
}

function requiredVaultKeys(keys: Buffer[] | undefined): [Buffer, ...Buffer[]] {
  const [primaryKey, ...olderKeys] = checked(keys, 'VAULT_KEY');
  return [checked(primaryKey, 'VAULT_KEY'), ...olderKeys];
}

/** Narrows a value that crossVariableProblems has already required; a miss is a bug in this file. */
function checked<T>(value: T | undefined, variable: Variable): T {
  if (value === undefined) throw new Error(`config.ts bug: ${variable} passed validation but is missing`);
  return value;
}

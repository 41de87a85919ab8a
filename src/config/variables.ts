// The names of the environment variables the bot reads: config.ts validates them, and the rules that
// judge several of them together (cross-variable-rules.ts) name them, without importing config.ts.

/** Every variable the bot reads, in the order .env.example documents them. */
export const CONFIG_VARIABLES = [
  'SLACK_BOT_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_APP_TOKEN',
  'SLACK_CLIENT_ID',
  'SLACK_CLIENT_SECRET',
  'SLACK_STATE_SECRET',
  'SLACK_API_URL',
  'PORT',
  'HOST',
  'PAPERSPACE_API_URL',
  'PAPERSPACE_GRAPHQL_URL',
  'VAULT_KEY',
  'DATABASE_URL',
  'POLL_INTERVAL_MS',
  'POLL_CONCURRENCY',
  'AUDIT_RETENTION_DAYS',
  'DELEGATION_RETENTION_DAYS',
  'LOG_LEVEL',
  'METRICS_TOKEN',
] as const;
export type Variable = (typeof CONFIG_VARIABLES)[number];

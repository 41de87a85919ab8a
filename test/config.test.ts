import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../src/config.js';

const key = () => randomBytes(32).toString('base64');
const BOT_TOKEN = 'xoxb-1111-2222-bottokensecret';
const APP_TOKEN = 'xapp-1-A111-apptokensecret';
const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';

/** Runs loadConfig and returns the ConfigError it throws (failing the test if it does not throw). */
function configError(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected loadConfig to throw a ConfigError');
}

describe('loadConfig', () => {
  it('runs the sandbox with every default when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      mode: 'sandbox',
      slack: { apiUrl: 'https://slack.com/api/' },
      vaultKeys: [],
      port: 3000,
      host: undefined,
      paperspace: {
        apiUrl: 'https://api.paperspace.com/v1',
        graphqlUrl: 'https://api.paperspace.com/graphql',
      },
      database: { kind: 'sqlite', path: 'data/bot.db' },
      pollIntervalMs: 5000,
      pollConcurrency: 1024,
      retention: { auditDays: 180, delegationDays: 30 },
      logLevel: 'info',
      metricsToken: undefined,
    });
  });

  it('treats empty and blank values as unset, as a copied .env.example leaves them', () => {
    const config = loadConfig({ SLACK_BOT_TOKEN: '', PORT: '  ', LOG_LEVEL: '', DATABASE_URL: '' });
    expect(config.mode).toBe('sandbox');
    expect(config.port).toBe(3000);
    expect(config.logLevel).toBe('info');
    expect(config.database).toEqual({ kind: 'sqlite', path: 'data/bot.db' });
  });

  it('uses Socket Mode when an app token is set, without needing a signing secret', () => {
    const vaultKey = key();
    const config = loadConfig({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_APP_TOKEN: APP_TOKEN,
      VAULT_KEY: vaultKey,
    });
    expect(config.mode).toBe('socket');
    if (config.mode !== 'socket') return;
    expect(config.slack).toEqual({
      apiUrl: 'https://slack.com/api/',
      botToken: BOT_TOKEN,
      appToken: APP_TOKEN,
      signingSecret: undefined,
    });
    expect(config.vaultKeys).toEqual([Buffer.from(vaultKey, 'base64')]);
  });

  it('uses HTTP mode when only the bot token and signing secret are set', () => {
    const config = loadConfig({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      VAULT_KEY: key(),
      PORT: '8080',
    });
    expect(config.mode).toBe('http');
    if (config.mode !== 'http') return;
    expect(config.slack.signingSecret).toBe(SIGNING_SECRET);
    expect(config.port).toBe(8080);
  });

  it('reads every non-secret setting it is given', () => {
    const config = loadConfig({
      SLACK_API_URL: 'http://127.0.0.1:4000/api/',
      PORT: '0',
      PAPERSPACE_API_URL: 'http://127.0.0.1:4001',
      PAPERSPACE_GRAPHQL_URL: 'http://127.0.0.1:4001/graphql',
      DATABASE_URL: 'sqlite::memory:',
      POLL_INTERVAL_MS: '500',
      POLL_CONCURRENCY: '32',
      AUDIT_RETENTION_DAYS: '365',
      DELEGATION_RETENTION_DAYS: '7',
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      slack: { apiUrl: 'http://127.0.0.1:4000/api/' },
      port: 0,
      paperspace: { apiUrl: 'http://127.0.0.1:4001', graphqlUrl: 'http://127.0.0.1:4001/graphql' },
      database: { kind: 'sqlite', path: ':memory:' },
      pollIntervalMs: 500,
      pollConcurrency: 32,
      retention: { auditDays: 365, delegationDays: 7 },
      logLevel: 'debug',
    });
  });

  it('keeps every VAULT_KEY in order: the first encrypts, the others only decrypt', () => {
    const [newKey, oldKey] = [key(), key()];
    const config = loadConfig({ VAULT_KEY: ` ${newKey} , ${oldKey}` });
    expect(config.vaultKeys).toEqual([Buffer.from(newKey, 'base64'), Buffer.from(oldKey, 'base64')]);
  });

  it.each([['postgres://bot:pw@db.internal:5432/bot'], ['postgresql://db.internal/bot?sslmode=require']])(
    'accepts the PostgreSQL URL %s',
    (url) => {
      expect(loadConfig({ DATABASE_URL: url }).database).toEqual({ kind: 'postgres', connectionString: url });
    },
  );

  it('lists every bad variable in one error, one line each, in the order of .env.example', () => {
    const error = configError({
      SLACK_BOT_TOKEN: 'xoxp-user-token',
      SLACK_APP_TOKEN: 'not-an-app-token',
      SLACK_API_URL: 'ftp://slack.example',
      PORT: '70000',
      PAPERSPACE_API_URL: 'api.paperspace.io',
      PAPERSPACE_GRAPHQL_URL: 'nonsense',
      VAULT_KEY: key(),
      DATABASE_URL: 'mysql://root@localhost/bot',
      POLL_INTERVAL_MS: '100',
      LOG_LEVEL: 'verbose',
    });
    expect(error.problems.map((line) => line.split(':')[0])).toEqual([
      'SLACK_BOT_TOKEN',
      'SLACK_APP_TOKEN',
      'SLACK_API_URL',
      'PORT',
      'PAPERSPACE_API_URL',
      'PAPERSPACE_GRAPHQL_URL',
      'DATABASE_URL',
      'POLL_INTERVAL_MS',
      'LOG_LEVEL',
    ]);
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(1 + error.problems.length);
    expect(lines[0]).toMatch(/invalid configuration/i);
    expect(error.message).toContain('SLACK_BOT_TOKEN: must be a bot token starting with xoxb-');
    expect(error.message).toContain('SLACK_APP_TOKEN: must be an app-level token starting with xapp-');
    expect(error.message).toContain('PORT: must be a whole number from 0 to 65535');
    expect(error.message).toContain('POLL_INTERVAL_MS: must be at least 500 ms');
    expect(error.message).toContain(
      'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent',
    );
    expect(error.message).toMatch(/DATABASE_URL: .*expected sqlite:PATH/);
  });

  it('never repeats a secret or a database URL in its message', () => {
    const error = configError({
      SLACK_BOT_TOKEN: 'xoxp-a-user-token-by-mistake',
      SLACK_APP_TOKEN: 'xoxb-bot-token-in-the-wrong-place',
      VAULT_KEY: 'c2hvcnQtc2VjcmV0LXZhdWx0LWtleQ==',
      DATABASE_URL: 'postgres://bot:hunter2@',
    });
    for (const secret of [
      'xoxp-a-user-token-by-mistake',
      'xoxb-bot-token-in-the-wrong-place',
      'c2hvcnQtc2VjcmV0LXZhdWx0LWtleQ==',
      'short-secret-vault-key',
      'hunter2',
    ]) {
      expect(error.message).not.toContain(secret);
      expect(JSON.stringify(error)).not.toContain(secret);
    }
    expect(error.message).toContain('VAULT_KEY: the key decodes to 22 bytes, expected 32');
    expect(error.message).toContain('DATABASE_URL: is not a valid PostgreSQL URL');
  });

  it('takes a METRICS_TOKEN long enough not to be guessed, and never repeats a short one', () => {
    const token = 'a3f1c9d27b6e4f0a8c5d1e2f3a4b5c6d';
    expect(loadConfig({ METRICS_TOKEN: token }).metricsToken).toBe(token);
    const error = configError({ METRICS_TOKEN: 'hunter2hunter2' });
    expect(error.problems).toEqual([
      'METRICS_TOKEN: must be at least 16 characters; generate one with `openssl rand -hex 32`',
    ]);
    expect(error.message).not.toContain('hunter2');
  });

  it('names each bad VAULT_KEY entry by position', () => {
    const good = key();
    const error = configError({
      VAULT_KEY: `${good},not base64!,${good},,${randomBytes(16).toString('base64')}`,
    });
    expect(error.problems).toEqual([
      'VAULT_KEY: key 2 of 5 is not valid base64',
      'VAULT_KEY: key 3 of 5 repeats an earlier key',
      'VAULT_KEY: key 4 of 5 is empty',
      'VAULT_KEY: key 5 of 5 decodes to 16 bytes, expected 32',
    ]);
  });

  it('requires VAULT_KEY and the signing secret in HTTP mode, and explains how to get them', () => {
    const error = configError({ SLACK_BOT_TOKEN: BOT_TOKEN });
    expect(error.problems).toHaveLength(2);
    expect(error.problems[0]).toMatch(/^SLACK_SIGNING_SECRET: is required in HTTP mode/);
    expect(error.problems[1]).toMatch(/^VAULT_KEY: is required .*openssl rand -base64 32/);
  });

  it('requires VAULT_KEY in Socket Mode as well', () => {
    const error = configError({ SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_APP_TOKEN: APP_TOKEN });
    expect(error.problems).toEqual([expect.stringMatching(/^VAULT_KEY: is required/)]);
  });

  it('refuses Slack settings without a bot token instead of silently falling back to the sandbox', () => {
    const error = configError({ SLACK_APP_TOKEN: APP_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET });
    expect(error.problems).toEqual([
      expect.stringMatching(/^SLACK_BOT_TOKEN: is missing but SLACK_APP_TOKEN/),
    ]);
  });

  describe('installing in many workspaces (OAuth)', () => {
    const CLIENT_ID = '1234567890123.9876543210987';
    const CLIENT_SECRET = 'c1e2n3t4s5e6c7r8e9t0';
    const STATE_SECRET = 'state-secret-for-the-install-flow';
    const oauthEnv = {
      SLACK_CLIENT_ID: CLIENT_ID,
      SLACK_CLIENT_SECRET: CLIENT_SECRET,
      SLACK_STATE_SECRET: STATE_SECRET,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
    };

    it('runs in OAuth mode with the client id, client secret, state secret, signing secret and VAULT_KEY', () => {
      const config = loadConfig({ ...oauthEnv, VAULT_KEY: key() });
      expect(config.mode).toBe('oauth');
      if (config.mode !== 'oauth') return;
      expect(config.slack).toEqual({
        apiUrl: 'https://slack.com/api/',
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        stateSecret: STATE_SECRET,
        signingSecret: SIGNING_SECRET,
      });
    });

    it('refuses a bot token beside the OAuth credentials in one message, naming both ways', () => {
      const error = configError({ ...oauthEnv, VAULT_KEY: key(), SLACK_BOT_TOKEN: BOT_TOKEN });
      expect(error.problems).toEqual([
        expect.stringMatching(
          /^SLACK_BOT_TOKEN: is set beside SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET; .* not both$/,
        ),
      ]);
      expect(error.message).not.toContain(BOT_TOKEN);
      expect(error.message).not.toContain(CLIENT_SECRET);
    });

    it('lists every missing OAuth variable, the signing secret and VAULT_KEY at once', () => {
      const error = configError({ SLACK_CLIENT_ID: CLIENT_ID });
      expect(error.problems).toEqual([
        expect.stringMatching(/^SLACK_SIGNING_SECRET: is required to install in many workspaces/),
        expect.stringMatching(/^SLACK_CLIENT_SECRET: is missing but SLACK_CLIENT_ID is set/),
        expect.stringMatching(/^SLACK_STATE_SECRET: is missing but SLACK_CLIENT_ID is set/),
        expect.stringMatching(
          /^VAULT_KEY: is required to install in many workspaces \(it encrypts their bot tokens\)/,
        ),
      ]);
    });

    it('refuses Socket Mode with OAuth, a malformed client id and a short state secret', () => {
      const error = configError({
        ...oauthEnv,
        SLACK_CLIENT_ID: 'my-app',
        SLACK_STATE_SECRET: 'short',
        SLACK_APP_TOKEN: APP_TOKEN,
        VAULT_KEY: key(),
      });
      expect(error.problems).toEqual([
        expect.stringMatching(
          /^SLACK_APP_TOKEN: is set, but installing in many workspaces takes Slack requests over HTTP/,
        ),
        expect.stringMatching(/^SLACK_CLIENT_ID: must be the Client ID/),
        expect.stringMatching(/^SLACK_STATE_SECRET: must be at least 16 characters/),
      ]);
    });
  });

  it('still validates a VAULT_KEY given to the sandbox', () => {
    expect(configError({ VAULT_KEY: 'abcd' }).problems).toEqual([
      'VAULT_KEY: the key decodes to 3 bytes, expected 32',
    ]);
  });

  it('rejects a polling interval long enough to overflow a timer', () => {
    expect(configError({ POLL_INTERVAL_MS: '99999999999' }).problems).toEqual([
      'POLL_INTERVAL_MS: must be at most 3600000 ms (one hour)',
    ]);
  });

  it('rejects a poll concurrency of nobody and retentions that are not whole days', () => {
    expect(
      configError({ POLL_CONCURRENCY: '0', AUDIT_RETENTION_DAYS: '0.5', DELEGATION_RETENTION_DAYS: '0' })
        .problems,
    ).toEqual([
      'POLL_CONCURRENCY: must be at least 1',
      'AUDIT_RETENTION_DAYS: must be a whole number of days',
      'DELEGATION_RETENTION_DAYS: must be at least 1 day',
    ]);
  });

  it.each([['sqlite:'], ['postgres://'], ['data/bot.db']])('rejects the database URL %s', (url) => {
    expect(configError({ DATABASE_URL: url }).problems).toEqual([expect.stringMatching(/^DATABASE_URL: /)]);
  });

  it('is documented: .env.example lists every variable it reads, each with a comment', () => {
    const example = readFileSync(new URL('../.env.example', import.meta.url), 'utf8');
    const lines = example.split('\n');
    const variables = lines.flatMap((line, index) => {
      const match = /^([A-Z_]+)=/.exec(line);
      return match?.[1] ? [{ name: match[1], comment: lines[index - 1] ?? '' }] : [];
    });
    expect(variables.map((variable) => variable.name)).toEqual([...CONFIG_VARIABLES]);
    for (const variable of variables) expect(variable.comment, variable.name).toMatch(/^# /);
    expect(example).toContain('openssl rand -base64 32');
    // Everything in the example is empty, so loading it as-is gives the defaults (the sandbox).
    const env = Object.fromEntries(variables.map((variable) => [variable.name, '']));
    expect(loadConfig(env).mode).toBe('sandbox');
  });
});

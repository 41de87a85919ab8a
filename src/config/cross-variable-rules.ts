// Which Slack mode the environment asks for (sandbox, Socket Mode, HTTP, OAuth distribution) and what
// each mode requires beside it. Judged on which variables are set, never on their values, so that a
// bad start lists these problems beside the per-variable ones (config.ts) rather than after a fix.

import type { Variable } from './variables.js';
import { VAULT_KEY_BYTES } from './vault-keys.js';

const OAUTH_VARIABLES = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'] as const;

/** Rules that involve several variables; judged on presence only, so they hold even beside bad values. */
export function crossVariableProblems(env: Partial<Record<Variable, string>>): [Variable, string][] {
  const problems: [Variable, string][] = [];
  const generateKey = 'generate one with `openssl rand -base64 32`';
  const oauthSet = OAUTH_VARIABLES.filter((name) => env[name] !== undefined);
  if (oauthSet.length > 0) {
    if (env.SLACK_BOT_TOKEN !== undefined) {
      problems.push([
        'SLACK_BOT_TOKEN',
        `is set beside ${oauthSet.join(', ')}; set SLACK_BOT_TOKEN for one workspace, or SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET to install in many, not both`,
      ]);
    }
    for (const name of OAUTH_VARIABLES.filter((variable) => env[variable] === undefined)) {
      problems.push([
        name,
        `is missing but ${oauthSet.join(', ')} is set; installing in many workspaces needs all three`,
      ]);
    }
    if (env.SLACK_APP_TOKEN !== undefined) {
      problems.push([
        'SLACK_APP_TOKEN',
        'is set, but installing in many workspaces takes Slack requests over HTTP (the install page and the OAuth redirect are web pages); unset it',
      ]);
    }
    if (env.SLACK_SIGNING_SECRET === undefined) {
      problems.push([
        'SLACK_SIGNING_SECRET',
        'is required to install in many workspaces; find it under Slack app settings > Basic Information',
      ]);
    }
    if (env.VAULT_KEY === undefined) {
      problems.push([
        'VAULT_KEY',
        `is required to install in many workspaces (it encrypts their bot tokens): a base64 ${VAULT_KEY_BYTES}-byte key (${generateKey})`,
      ]);
    }
    return problems;
  }
  if (env.SLACK_BOT_TOKEN === undefined) {
    const dependent = (['SLACK_APP_TOKEN', 'SLACK_SIGNING_SECRET'] as const).find(
      (name) => env[name] !== undefined,
    );
    if (dependent !== undefined) {
      problems.push([
        'SLACK_BOT_TOKEN',
        `is missing but ${dependent} is set; set the bot token (xoxb-...), or SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET to install in many workspaces, or unset ${dependent} to run the local sandbox`,
      ]);
    }
    return problems;
  }
  if (env.SLACK_APP_TOKEN === undefined && env.SLACK_SIGNING_SECRET === undefined) {
    problems.push([
      'SLACK_SIGNING_SECRET',
      'is required in HTTP mode (SLACK_APP_TOKEN unset); find it under Slack app settings > Basic Information, or set SLACK_APP_TOKEN for Socket Mode',
    ]);
  }
  if (env.VAULT_KEY === undefined) {
    problems.push([
      'VAULT_KEY',
      `is required when connected to Slack: a base64 ${VAULT_KEY_BYTES}-byte key (${generateKey})`,
    ]);
  }
  return problems;
}

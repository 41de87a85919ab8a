// Shared by the account and catalogue end-to-end tests: who is who, and how to read what Slack got.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ResponseUrlPost } from '../../support/fake-slack.js';
import type { SlackResponse } from '../../support/slack-requests.js';
import { TEAM_ID, type TestBot, type TestUserName, USERS } from '../../support/test-bot.js';

export function slackUser(name: TestUserName) {
  return { teamId: TEAM_ID, userId: USERS[name].slackId };
}

/** Everything a reader could see or a client could send back, as one string to search. */
export function textOf(value: unknown): string {
  return JSON.stringify(value ?? null);
}

/** Sends `/ps <text>` as `user` and waits for the first reply posted to its response_url. */
export async function command(bot: TestBot, user: TestUserName, text: string): Promise<ResponseUrlPost> {
  const request = bot.requests.slashCommand({ text, userId: USERS[user].slackId });
  const response = await bot.send(request);
  if (response.status !== 200) throw new Error(`/ps ${text} answered HTTP ${response.status}`);
  return bot.slack.waitForResponse(request.responseUrlId ?? '');
}

export interface LoginForm {
  apiKey?: string;
  accessToken?: string;
  email?: string;
}

/** Submits the login modal as `user` (a Slack user id), exactly as Slack posts a view submission. */
export function submitLogin(
  bot: TestBot,
  userId: string,
  form: LoginForm,
  viewId?: string,
): Promise<SlackResponse> {
  const values: Record<string, Record<string, string>> = {
    api_key: { api_key_input: form.apiKey ?? '' },
    access_token: { access_token_input: form.accessToken ?? '' },
    paperspace_email: { paperspace_email_input: form.email ?? '' },
  };
  return bot.send(
    bot.requests.viewSubmission({ callbackId: 'login_modal', userId, values, ...(viewId ? { viewId } : {}) }),
  );
}

/** The database file and its write-ahead log, as bytes: where a plaintext secret would show. */
export async function databaseBytes(bot: TestBot): Promise<Buffer> {
  const files = [bot.databasePath, `${bot.databasePath}-wal`].filter((path) => existsSync(path));
  return Buffer.concat(await Promise.all(files.map((path) => readFile(path))));
}

import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ActionId } from '../../src/slack/ids.js';
import { USERS } from '../support/test-bot.js';
import { useTestBot } from '../support/use-test-bot.js';

const bot = useTestBot();

function blockText(blocks: unknown): string {
  return JSON.stringify(blocks ?? []);
}

describe('/ps routing', () => {
  it('answers a mistyped command in the ack itself, naming the problem and the usage line', async () => {
    const response = await bot.send(bot.requests.slashCommand({ text: 'strat gpu-1' }));
    expect(response.status).toBe(200);
    const body = response.body as { response_type: string; text: string };
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toContain('strat');
    expect(body.text).toContain('start');
  });

  it('refuses an API key pasted into a command without storing, echoing or logging it', async () => {
    const secret = '4f1e9a7c2b8d6e0f3a5c7e9b1d3f5a7c';
    const response = await bot.send(bot.requests.slashCommand({ text: `login ${secret}` }));
    const body = response.body as { text: string };
    expect(body.text).toMatch(/looks like an API key/i);
    expect(body.text).toMatch(/rotate/i);
    expect(JSON.stringify(response.body)).not.toContain(secret);
    expect(bot.logText()).not.toContain(secret);
    expect(
      await bot.vault.credentials({ teamId: bot.slack.teamId, userId: USERS.ada.slackId }),
    ).toBeUndefined();
    const database = await readFile(bot.databasePath);
    expect(database.includes(Buffer.from(secret))).toBe(false);
  });

  it('answers /ps login with anything after it as a pasted key: not stored, not shown, rotate it', async () => {
    const typed = 'hunter2-short';
    const response = await bot.send(bot.requests.slashCommand({ text: `login ${typed}` }));
    const body = response.body as { text: string };
    expect(body.text).toMatch(/not stored or shown/i);
    expect(body.text).toMatch(/rotate it in Paperspace/i);
    expect(JSON.stringify(response.body)).not.toContain(typed);
    expect(bot.logText()).not.toContain(typed);
  });

  it('prompts a user with no linked key to log in, with a Login button, before calling Paperspace', async () => {
    const before = bot.emulator.state.requests().length;
    const request = bot.requests.slashCommand({ text: 'list', userId: USERS.sam.slackId });
    const response = await bot.send(request);
    expect(response.status).toBe(200);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.response_type).toBe('ephemeral');
    expect(blockText(reply.blocks)).toContain(ActionId.login);
    expect(bot.emulator.state.requests().length).toBe(before);
  });
});

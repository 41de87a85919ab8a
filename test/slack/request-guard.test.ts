// Hostile but correctly signed requests, sent over HTTP into the real Bolt receiver.
import { describe, expect, it } from 'vitest';
import { slackSignature } from '../support/slack-requests.js';
import { SIGNING_SECRET, USERS } from '../support/test-bot.js';
import { useTestBot } from '../support/use-test-bot.js';

const bot = useTestBot({ linked: ['ada'] });

function signedRaw(body: string, contentType: string, timestamp = Math.floor(Date.now() / 1000)) {
  return fetch(`${bot.url}/slack/events`, {
    method: 'POST',
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': slackSignature(SIGNING_SECRET, timestamp, body),
    },
    body,
  });
}

async function stillAnswers(): Promise<void> {
  const response = await bot.send(
    bot.requests.slashCommand({ text: 'help', userId: USERS.ada.slackId, channelId: 'C0OPS' }),
  );
  expect(response.status).toBe(200);
}

describe('the Slack endpoint', () => {
  it.each([
    ['null', 'application/json'],
    ['42', 'application/json'],
    ['payload=null', 'application/x-www-form-urlencoded'],
    ['payload=%5B%5D', 'application/x-www-form-urlencoded'],
  ])('refuses a signed body of %s with 400 and keeps serving', async (body, contentType) => {
    const response = await signedRaw(body, contentType);
    expect(response.status).toBe(400);
    await stillAnswers();
  });

  it('refuses a body far larger than anything Slack sends with 413, and keeps serving', async () => {
    const response = await signedRaw(
      `payload=${'x'.repeat(2 * 1024 * 1024)}`,
      'application/x-www-form-urlencoded',
    );
    expect(response.status).toBe(413);
    await stillAnswers();
  });

  it('refuses a request signed for a time far in the future', async () => {
    const request = bot.requests.slashCommand(
      { text: 'help', userId: USERS.ada.slackId, channelId: 'C0OPS' },
      { ageSeconds: -10 * 60 },
    );
    expect((await bot.send(request)).status).toBe(401);
  });

  it('accepts a small clock skew ahead of this host', async () => {
    const request = bot.requests.slashCommand(
      { text: 'help', userId: USERS.ada.slackId, channelId: 'C0OPS' },
      { ageSeconds: -20 },
    );
    expect((await bot.send(request)).status).toBe(200);
  });

  it('runs a replayed request once', async () => {
    const request = bot.requests.slashCommand({
      text: 'start ada-render',
      userId: USERS.ada.slackId,
      channelId: 'C0OPS',
    });
    expect((await bot.send(request)).status).toBe(200);
    expect((await bot.send(request)).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const audit = await bot.store.audit.list({ resourceId: 'psada003', limit: 10 });
    expect(audit.filter((entry) => entry.action === 'machine.start')).toHaveLength(1);
  });
});

describe('response_url', () => {
  it('refuses a request whose response_url points at another host, and posts nothing there', async () => {
    const request = bot.requests.slashCommand({
      text: 'help',
      userId: USERS.ada.slackId,
      channelId: 'C0OPS',
    });
    const body = new URLSearchParams(request.body);
    body.set('response_url', 'http://169.254.169.254/latest/meta-data');
    const response = await signedRaw(body.toString(), 'application/x-www-form-urlencoded');
    expect(response.status).toBe(400);
  });

  it("follows the stand-in Slack's response_url", async () => {
    const request = bot.requests.slashCommand({
      text: 'help',
      userId: USERS.ada.slackId,
      channelId: 'C0OPS',
    });
    await bot.send(request);
    expect((await bot.slack.waitForResponse(request.responseUrlId ?? '')).text).toBeTruthy();
  });
});

// The bot in Socket Mode, end to end: it opens its connection through the fake Slack's
// apps.connections.open, Slack's requests arrive as envelopes over the WebSocket, and the acks go back
// over it, with the same listeners, replies and health routes as in HTTP mode.
import { describe, expect, it } from 'vitest';
import { encodeMachineRef } from '../../src/features/machines/blocks/machine-ref.js';
import { ActionId } from '../../src/slack/ids.js';
import { textOf } from '../features/machines/machine-kit.js';
import { APP_TOKEN, USERS } from '../support/test-bot.js';
import { useTestBot } from '../support/use-test-bot.js';

const bot = useTestBot({ transport: 'socket', linked: ['ada'] });

describe('the bot in Socket Mode', () => {
  it('connects with the app token and holds one connection', () => {
    expect(bot.slack.socketMode.connections()).toBe(1);
  });

  it('answers a mistyped command in the ack itself, over the socket', async () => {
    const request = bot.requests.slashCommand({ text: 'strat ada-workstation', userId: USERS.ada.slackId });
    const ack = await bot.slack.socketMode.deliver('slash_commands', request.payload);
    expect(ack).toMatchObject({ response_type: 'ephemeral' });
    expect(JSON.stringify(ack)).toContain('start');
    expect(bot.slack.responses(request.responseUrlId ?? '')).toEqual([]);
  });

  it('acks a command at once and replies through its response_url', async () => {
    const request = bot.requests.slashCommand({ text: 'list', userId: USERS.ada.slackId });
    expect(await bot.slack.socketMode.deliver('slash_commands', request.payload)).toEqual({});
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.response_type).toBe('ephemeral');
    expect(textOf(reply.blocks)).toContain('ada-workstation');
  });

  it('acks a click on a card and answers the clicker with their own key', async () => {
    const request = bot.requests.blockAction({
      actionId: ActionId.machineUsage,
      value: encodeMachineRef({ id: 'psada001', name: 'ada-workstation' }),
      userId: USERS.ada.slackId,
    });
    expect(await bot.slack.socketMode.deliver('interactive', request.payload)).toEqual({});
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.text).toContain('ada-workstation');
  });

  it('acks an event before its listener runs, and publishes the Home tab', async () => {
    const request = bot.requests.event({ type: 'app_home_opened', user: USERS.ada.slackId, tab: 'home' });
    expect(await bot.slack.socketMode.deliver('events_api', request.payload)).toEqual({});
    const publish = await bot.slack.waitFor('views.publish');
    expect(publish.args.user_id).toBe(USERS.ada.slackId);
  });

  it('never calls a response_url outside Slack, as over HTTP', async () => {
    const foreign = 'https://attacker.example/hook';
    const request = bot.requests.slashCommand({ text: 'list', userId: USERS.ada.slackId });
    const paperspaceCallsBefore = bot.emulator.state.requests().length;
    const ack = await bot.slack.socketMode.deliver('slash_commands', {
      ...request.payload,
      response_url: foreign,
    });
    expect(ack).toEqual({});
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(bot.logText()).toContain('a response_url points outside Slack');
    // Nothing ran: no Paperspace call for a listing whose answer would have gone to the foreign host.
    expect(bot.emulator.state.requests()).toHaveLength(paperspaceCallsBefore);
  });

  it('serves /healthz and /metrics on its own port, and never logs the app token', async () => {
    expect((await bot.get('/healthz')).status).toBe(200);
    const metrics = await bot.get('/metrics');
    expect(metrics.text).toMatch(/psbot_slack_requests_total\{kind="command",outcome="acked"\} [1-9]/);
    expect(bot.logText()).not.toContain(APP_TOKEN);
  });
});

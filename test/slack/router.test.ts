import type { App } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { SLACK_PACING } from '../../src/config.js';
import { createChannelPacer } from '../../src/slack/channel-pacer.js';
import { createListenerRouter, STALE_BUTTON_TEXT } from '../../src/slack/router.js';
import { eventually } from '../features/machines/machine-kit.js';
import { captureLogs, LEVEL } from '../support/log-capture.js';
import { USERS } from '../support/test-bot.js';
import { useTestBot } from '../support/use-test-bot.js';

const ADA = USERS.ada.slackId;

const bot = useTestBot();

describe('the listener router', () => {
  it('acks a click on a button no listener owns and tells the clicker it is out of date', async () => {
    const request = bot.requests.blockAction({ actionId: 'machine_reboot_v0', value: 'x', userId: ADA });
    const response = await bot.send(request);
    expect(response.status).toBe(200);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.replace_original).toBe(false);
    expect(reply.text).toContain(STALE_BUTTON_TEXT);
    const warning = bot
      .logText()
      .split('\n')
      .filter((line) => line.includes('no listener owns'))
      .map((line) => JSON.parse(line) as { level: number; actionId: string; user: string });
    expect(warning).toEqual([
      expect.objectContaining({ level: LEVEL.warn, actionId: 'machine_reboot_v0', user: ADA }),
    ]);
  });

  it('tells a clicker in the Home tab, which has no response_url, in their DM', async () => {
    const request = bot.requests.blockAction({
      actionId: 'home_refresh_v0',
      userId: ADA,
      view: { type: 'home', id: 'V0HOME' },
    });
    expect((await bot.send(request)).status).toBe(200);
    const dm = await bot.slack.waitFor('chat.postMessage');
    expect(dm.args.channel).toBe(ADA);
    expect(dm.args.text).toContain(STALE_BUTTON_TEXT);
  });

  it('closes a submitted modal no listener owns', async () => {
    const response = await bot.send(
      bot.requests.viewSubmission({ callbackId: 'retired_modal', userId: ADA }),
    );
    expect(response.status).toBe(200);
    expect(response.body).toBeUndefined();
    // The warning is written after the ack, when the follow-up gets its turn.
    const warning = await eventually(() =>
      bot
        .logText()
        .split('\n')
        .find((line) => line.includes('retired_modal')),
    );
    expect(JSON.parse(warning)).toMatchObject({ level: LEVEL.warn, callbackId: 'retired_modal', user: ADA });
  });

  it('acks a workflow step no listener owns, so Slack does not send it again, and says so in the log', async () => {
    const event = bot.slack.functions.execute({ callbackId: 'retired_step', inputs: {} });
    const response = await bot.send(bot.requests.event({ ...event }));
    expect(response.status).toBe(200);
    const warning = await eventually(() =>
      bot
        .logText()
        .split('\n')
        .find((line) => line.includes('retired_step')),
    );
    expect(JSON.parse(warning)).toMatchObject({ level: LEVEL.warn, callbackId: 'retired_step' });
    expect(bot.logText()).not.toContain('not acknowledged');
  });

  it('refuses a second listener for one id: Bolt would have run both', () => {
    const registered: string[] = [];
    const app = {
      action: (constraint: unknown) => registered.push(`action ${JSON.stringify(constraint)}`),
      view: (constraint: unknown) => registered.push(`view ${JSON.stringify(constraint)}`),
      event: (name: unknown) => registered.push(`event ${String(name)}`),
    } as unknown as App;
    const router = createListenerRouter(app, { logger: captureLogs().logger, pacer: createChannelPacer() });
    router.action('go', async () => {});
    router.view('form', async () => {});
    router.event('app_home_opened', async () => {});
    router.event('link_shared', async () => {});
    router.function('start_step', async () => {});
    router.function('stop_step', async () => {});
    expect(() => router.action('go', async () => {})).toThrow('action go already has a listener');
    expect(() => router.view('form', async () => {})).toThrow('view form already has a listener');
    expect(() => router.event('link_shared', async () => {})).toThrow(
      'event link_shared already has a listener',
    );
    expect(() => router.function('stop_step', async () => {})).toThrow(
      'step stop_step already has a listener',
    );
    // However many listeners register, Bolt sees one per surface: each request runs one chain.
    expect(registered).toEqual([
      'action {"type":"block_actions"}',
      'view {"type":"view_submission"}',
      'event /.*/',
    ]);
  });
});

describe('the router’s answers at Slack’s pace', () => {
  const paced = useTestBot({ slackPacing: SLACK_PACING });

  it('tells eight quick stale Home clicks in the DM one after another, so Slack refuses none', async () => {
    // Slack grants a small burst, then about one post a second in a conversation (429 past it).
    const clicks = Array.from({ length: 8 }, (_, index) =>
      paced.requests.blockAction({
        actionId: `home_${index}_v0`,
        userId: ADA,
        view: { type: 'home', id: 'V0HOME' },
      }),
    );
    await Promise.all(clicks.map((click) => paced.send(click)));
    await expect.poll(() => paced.slack.calls('chat.postMessage').length, { timeout: 15_000 }).toBe(8);
    const dms = paced.slack.calls('chat.postMessage');
    expect(dms.map((dm) => [dm.args.channel, dm.answer?.ok])).toEqual(clicks.map(() => [ADA, true]));
    expect(dms.every((dm) => String(dm.args.text).includes(STALE_BUTTON_TEXT))).toBe(true);
  }, 20_000);
});

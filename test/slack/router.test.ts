import type { App } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
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

  it('refuses a second listener for one id: Bolt would have run both', () => {
    const registered: string[] = [];
    const app = {
      action: (constraint: unknown) => registered.push(`action ${JSON.stringify(constraint)}`),
      view: (constraint: unknown) => registered.push(`view ${JSON.stringify(constraint)}`),
    } as unknown as App;
    const router = createListenerRouter(app, captureLogs().logger);
    router.action('go', async () => {});
    router.view('form', async () => {});
    expect(() => router.action('go', async () => {})).toThrow('action go already has a listener');
    expect(() => router.view('form', async () => {})).toThrow('view form already has a listener');
    // However many listeners register, Bolt sees one per surface.
    expect(registered).toEqual(['action {"type":"block_actions"}', 'view {"type":"view_submission"}']);
  });
});

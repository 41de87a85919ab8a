import { describe, expect, it } from 'vitest';
import { machineIdOfConsoleUrl } from '../../../src/features/unfurls/console-links.js';
import { ActionId } from '../../../src/slack/ids.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { cardBlockId, cardValue, eventually, settle, textOf } from '../machines/machine-kit.js';

const CHANNEL = 'C0OPS';
const bot = useTestBot({ linked: ['ada'] });

describe('console links', () => {
  it.each([
    ['https://console.paperspace.com/t7k2ab9x/machines/psada001', 'psada001'],
    ['https://console.paperspace.com/orbital-labs/machines/psl0b3hq8/settings', 'psl0b3hq8'],
    ['https://console.paperspace.com/machines/psada001', 'psada001'],
    ['https://www.paperspace.com/console/machines/psada001', 'psada001'],
  ])('reads the machine of %s', (url, id) => {
    expect(machineIdOfConsoleUrl(url)).toBe(id);
  });

  it.each([
    'https://console.paperspace.com/t7k2ab9x/notebooks/nb1234',
    'https://console.paperspace.com/t7k2ab9x/machines',
    'https://docs.paperspace.com/machines/psada001',
    'http://console.paperspace.com/machines/psada001',
    'https://console.paperspace.com.evil.example/machines/psada001',
    'https://console.paperspace.com/machines/PSADA001%2F..',
    'not a url',
  ])('refuses %s', (url) => {
    expect(machineIdOfConsoleUrl(url)).toBeUndefined();
  });
});

describe('link_shared', () => {
  it("unfurls a console link into the machine's compact card, read with the poster's key", async () => {
    const url = 'https://console.paperspace.com/t7k2ab9x/machines/psada001';
    const event = bot.slack.unfurls.share({
      channel: CHANNEL,
      user: USERS.ada.slackId,
      urls: [url, 'https://example.com/x'],
    });
    expect((await bot.send(bot.requests.event(event))).status).toBe(200);
    const call = await bot.slack.waitFor('chat.unfurl');
    expect(call.answer).toEqual({ ok: true });
    expect(Object.keys(call.args.unfurls as object)).toEqual([url]);
    const card = textOf(call.args.unfurls);
    const machine = bot.emulator.state.machine('psada001');
    expect(card).toContain('ada-workstation');
    expect(card).toContain(machine?.machineType);
    expect(card).toContain('/ h');
    expect(card).toContain(ActionId.machineStop);
    expect(card).not.toContain(ActionId.machineOverflow);
    const requests = bot.emulator.state.requests().filter((request) => request.path.includes('psada001'));
    expect(requests.every((request) => request.userId === USERS.ada.emulatorUserId)).toBe(true);
  });

  it('unfurls nothing for a person who has not linked a key', async () => {
    const event = bot.slack.unfurls.share({
      channel: CHANNEL,
      user: USERS.sam.slackId,
      urls: ['https://console.paperspace.com/machines/psada001'],
    });
    const before = bot.emulator.state.requests().length;
    expect((await bot.send(bot.requests.event(event))).status).toBe(200);
    await settle();
    expect(bot.slack.calls('chat.unfurl')).toEqual([]);
    expect(bot.emulator.state.requests().length).toBe(before);
  });

  it('unfurls nothing for a link that is not a machine page', async () => {
    const event = bot.slack.unfurls.share({
      channel: CHANNEL,
      user: USERS.ada.slackId,
      urls: ['https://console.paperspace.com/t7k2ab9x/notebooks/nb1234'],
    });
    await bot.send(bot.requests.event(event));
    await settle();
    expect(bot.slack.calls('chat.unfurl')).toEqual([]);
  });

  it('is refused by the fake as by Slack for a URL that was not shared', async () => {
    const event = bot.slack.unfurls.share({
      channel: CHANNEL,
      user: USERS.ada.slackId,
      urls: ['https://paperspace.com/'],
    });
    const answer = await fetch(`${bot.slack.apiUrl}chat.unfurl`, {
      method: 'POST',
      headers: { authorization: 'Bearer xoxb-e2e-bot-token', 'content-type': 'application/json' },
      body: JSON.stringify({
        channel: CHANNEL,
        ts: event.message_ts,
        unfurls: { 'https://paperspace.com/other': { blocks: [] } },
      }),
    });
    expect(await answer.json()).toEqual({ ok: false, error: 'cannot_unfurl_url' });
    await eventually(() => bot.slack.calls('chat.unfurl')[0]);
  });

  it("Stop on an unfurled card stops the machine with the clicker's key and posts the live card, leaving the poster's message alone", async () => {
    const url = 'https://console.paperspace.com/machines/psada001';
    const event = bot.slack.unfurls.share({ channel: CHANNEL, user: USERS.ada.slackId, urls: [url] });
    await bot.send(bot.requests.event(event));
    await bot.slack.waitFor('chat.unfurl');
    bot.slack.reset();
    // As Slack sends a click in an app unfurl: the container names the unfurl, the message is Ada's.
    const click = await bot.send(
      bot.requests.blockAction({
        actionId: ActionId.machineStop,
        value: cardValue('psada001', 'ada-workstation'),
        blockId: cardBlockId('psada001'),
        userId: USERS.ada.slackId,
        channelId: CHANNEL,
        message: { ts: String(event.message_ts), text: `<${url}>` },
        container: {
          type: 'message_attachment',
          message_ts: event.message_ts,
          attachment_id: 1,
          channel_id: CHANNEL,
          is_ephemeral: false,
          is_app_unfurl: true,
          app_unfurl_url: url,
        },
        responseUrlId: 'unfurl-click',
      }),
    );
    expect(click.status).toBe(200);
    const posted = await bot.slack.waitFor('chat.postMessage');
    expect(posted.args.channel).toBe(CHANNEL);
    expect(textOf(posted.args.blocks)).toContain('ada-workstation');
    await eventually(() => bot.emulator.state.machine('psada001')?.state !== 'ready' || undefined);
    await settle();
    expect(bot.slack.calls('chat.update').filter((call) => call.args.ts === event.message_ts)).toEqual([]);
    expect(bot.slack.responses('unfurl-click')).toEqual([]);
  });
});

// An unfurled console link is drawn for the person who posted it: Sam posts a link to Maya's machine,
// and its card names Maya as the owner and offers "Ask the owner" instead of power buttons Sam could
// not use. On API v1 Maya's ownership is the bot's record (she assigns the machine to herself first).
// Runs on both APIs (vitest.config.ts).
import { describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { command } from '../account/helpers.js';
import { textOf } from '../machines/machine-kit.js';

const MAYA = USERS.maya.slackId;
const onV1 = process.env.TEST_PAPERSPACE_DIALECT === 'v1';
const bot = useTestBot({ linked: ['maya', 'sam'] });

describe("an unfurl of a teammate's machine", () => {
  it('names its owner and offers the poster Ask the owner, not Stop', async () => {
    if (onV1) {
      const assigned = await command(bot, 'maya', `assign maya-trainer <@${MAYA}|maya>`);
      expect(assigned.text).toContain(`is <@${MAYA}>’s now`);
    }
    const url = 'https://console.paperspace.com/orbital-labs/machines/psorb001';
    const event = bot.slack.unfurls.share({ channel: 'C0OPS', user: USERS.sam.slackId, urls: [url] });
    expect((await bot.send(bot.requests.event(event))).status).toBe(200);
    const call = await bot.slack.waitFor('chat.unfurl');
    // Slack took every card: each unfurl's blocks pass a message's Block Kit rules.
    expect(call.answer).toEqual({ ok: true });
    const card = textOf(call.args.unfurls);
    expect(card).toContain('maya-trainer');
    expect(card).toContain(`owned by <@${MAYA}>`);
    expect(card).toContain(ActionId.requestPower);
    expect(card).toContain('Ask the owner to stop');
    expect(card).not.toContain(ActionId.machineStop);
    expect(card).not.toContain(ActionId.machineOverflow);
  });
});

// Shared drives on Paperspace v1: plain REST with the API key, so a person who linked only a key
// (v1's login asks for nothing else) lists and creates drives without being sent back to /ps login.
import { describe, expect, it } from 'vitest';
import { CallbackId } from '../../../src/slack/ids.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { command, textOf } from '../account/helpers.js';

const bot = useTestBot({ dialect: 'v1', linked: ['maya'] });

describe('shared drives with a v1 key alone', () => {
  it('lists the team’s drives', async () => {
    const reply = await command(bot, 'maya', 'drives');
    expect(textOf(reply.blocks)).toContain('datasets');
    expect(bot.emulator.state.requests().some((entry) => entry.path === '/v1/shared-drives')).toBe(true);
  });

  it('opens the create form instead of asking for an access token', async () => {
    await bot.send(
      bot.requests.slashCommand({
        text: 'drive create',
        userId: USERS.maya.slackId,
      }),
    );
    const update = await bot.slack.waitFor('views.update');
    const form = textOf(update.args.view);
    expect(form).toContain(CallbackId.createDrive);
    expect(form).toContain('Orbital Europe');
  });
});

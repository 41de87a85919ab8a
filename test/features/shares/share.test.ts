import { describe, expect, it, vi } from 'vitest';
import { encodeMachineRef } from '../../../src/features/machines/blocks/machine-ref.js';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { messageText } from '../../scheduler/harness.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';

const HOUR_MS = 60 * 60_000;
const clock = createFakeClock();
const ada = () => ({ teamId: bot.slack.teamId, userId: USERS.ada.slackId });

const bot = useTestBot({ now: clock.now, emulator: { now: clock.now }, linked: ['ada', 'sam'] });

async function command(text: string, userId: string = USERS.ada.slackId) {
  const request = bot.requests.slashCommand({ text, userId });
  await bot.send(request);
  return request.responseUrlId ?? '';
}

describe('/ps share', () => {
  it('posts who shared which machines, the delegation and token ids and the expiry, and marks the post expired 4 hours later', async () => {
    const sharedAt = clock.now();
    await command('share ada-workstation ada-render');
    const post = await bot.slack.waitFor('chat.postMessage');
    expect(post.args.channel).toBe('C0CHANNEL');

    const [delegation] = bot.emulator.state.delegations();
    expect(delegation).toBeDefined();
    const text = messageText(post.args);
    expect(text).toContain(`<@${USERS.ada.slackId}> shared 2 machines`);
    expect(text).toContain('ada-workstation');
    expect(text).toContain('ada-render');
    expect(text).toContain(`Resource delegation ${delegation?.id}`);
    expect(text).toContain(String(delegation?.accessTokenId));
    // Slack shows each reader the expiry in their own time zone.
    expect(text).toContain(`<!date^${Math.floor((sharedAt + 4 * HOUR_MS) / 1000)}^`);

    const audit = await bot.store.audit.list({ ...ada(), limit: 50 });
    expect(
      audit.map((record) => [record.action, record.resourceId, record.outcome, record.message]),
    ).toContainEqual(['delegation.create', 'psada001,psada003', 'ok', 'shared in C0CHANNEL']);

    // The post's ts is stored just after Slack answers the post: wait for it rather than race it.
    const stored = await vi.waitFor(async () => {
      const [found] = await bot.store.delegations.listActive(clock.now(), ada());
      expect(found).toMatchObject({ channel: 'C0CHANNEL', machineIds: ['psada001', 'psada003'] });
      expect(found?.messageTs).toEqual(expect.any(String));
      return found;
    });

    clock.advance(4 * HOUR_MS);
    await bot.scheduler.tick();
    await bot.scheduler.tick();
    const updates = bot.slack.calls('chat.update');
    expect(updates).toHaveLength(1);
    expect(updates[0]?.args.ts).toBe(stored?.messageTs);
    expect(messageText(updates[0]?.args ?? {})).toContain('this share expired');
  });

  it('refuses, privately, a machine the sharer cannot see, and creates nothing', async () => {
    const before = bot.emulator.state.delegations().length;
    const reply = await bot.slack.waitForResponse(await command('share sam-desktop'));
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text).toContain('No machine called "sam-desktop"');
    expect(bot.emulator.state.delegations()).toHaveLength(before);
    expect(bot.slack.calls('chat.postMessage')).toHaveLength(0);
  });

  it('lists the active shares of the person who asks, not of others', async () => {
    await command('share sam-dev', USERS.sam.slackId);
    await bot.slack.waitFor('chat.postMessage');
    const reply = await bot.slack.waitForResponse(await command('shares', USERS.sam.slackId));
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text).toContain('Your active shares (1)');
    const text = JSON.stringify(reply.blocks);
    expect(text).toContain('sam-dev');
    expect(text).toContain('<#C0CHANNEL>');
    expect(text).not.toContain('ada-');
  });

  it('says when there is nothing shared', async () => {
    const reply = await bot.slack.waitForResponse(await command('shares', USERS.maya.slackId));
    expect(reply.text).toContain('no active shares');
  });
});

describe('the Share button', () => {
  it("shares the card's machine in the card's channel with the clicker's key", async () => {
    const before = bot.emulator.state.delegations().length;
    await bot.send(
      bot.requests.blockAction({
        actionId: ActionId.machineShare,
        value: encodeMachineRef({ id: 'psada002', name: 'ada-cpu-box' }),
        channelId: 'C0TEAM',
      }),
    );
    const post = await bot.slack.waitFor('chat.postMessage');
    expect(post.args.channel).toBe('C0TEAM');
    expect(messageText(post.args)).toContain('ada-cpu-box');
    expect(bot.emulator.state.delegations()).toHaveLength(before + 1);
  });

  it("tells the clicker privately when their key cannot see the card's machine", async () => {
    const request = bot.requests.blockAction({
      actionId: ActionId.machineShare,
      value: encodeMachineRef({ id: 'psada002', name: 'ada-cpu-box' }),
      userId: USERS.sam.slackId,
    });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text).toContain('psada002');
    expect(bot.slack.calls('chat.postMessage')).toHaveLength(0);
  });

  it('shows the login prompt to a clicker who linked no key', async () => {
    const request = bot.requests.blockAction({
      actionId: ActionId.machineShare,
      value: encodeMachineRef({ id: 'psada002', name: 'ada-cpu-box' }),
      userId: USERS.maya.slackId,
    });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(JSON.stringify(reply.blocks)).toContain(ActionId.login);
  });
});

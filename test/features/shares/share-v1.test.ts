// Shares on Paperspace v1, which has no resource delegations: the sharer names teammates, who are
// made accessors of the machines with the sharer's key until the scheduler (or End share) removes
// them. The contract's channel-wide shares are in share.test.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { messageText } from '../../scheduler/harness.js';
import type { ResponseUrlPost } from '../../support/fake-slack.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { eventually } from '../machines/machine-kit.js';

const HOUR_MS = 60 * 60_000;
const CHANNEL = 'C0CHANNEL';
const MAYA = USERS.maya.slackId;
const SAM = USERS.sam.slackId;
const clock = createFakeClock();

const bot = useTestBot({
  dialect: 'v1',
  now: clock.now,
  emulator: { now: clock.now },
  linked: ['maya', 'sam'],
});
const accessors = () => bot.emulator.state.accessors('psorb002');

// Each test starts after every earlier share has run out and had its access removed.
beforeEach(async () => {
  clock.advance(5 * HOUR_MS);
  await bot.scheduler.tick();
});

async function command(text: string, userId: string = MAYA) {
  const request = bot.requests.slashCommand({ text, userId, channelId: CHANNEL });
  await bot.send(request);
  return bot.slack.waitForResponse(request.responseUrlId ?? '');
}

function buttonValue(message: { blocks?: unknown[] }, actionId: string): string {
  const elements = (message.blocks ?? []).flatMap(
    (block) => (block as { elements?: unknown[] }).elements ?? [],
  );
  const found = elements.find((element) => (element as { action_id?: string }).action_id === actionId);
  const value = (found as { value?: string } | undefined)?.value;
  if (value === undefined) throw new Error(`no ${actionId} button in ${JSON.stringify(message.blocks)}`);
  return value;
}

async function click(message: { blocks?: unknown[] }, actionId: string, extra: { ts?: string } = {}) {
  const request = bot.requests.blockAction({
    actionId,
    value: buttonValue(message, actionId),
    userId: MAYA,
    channelId: CHANNEL,
    ...(extra.ts === undefined ? { ephemeral: true } : { message: { ts: extra.ts } }),
  });
  await bot.send(request);
  return bot.slack.waitForResponse(request.responseUrlId ?? '');
}

/** Maya shares team-build with Sam; resolves with the channel post as last updated. */
async function shareWithSam() {
  const confirmation: ResponseUrlPost = await command(`share team-build <@${SAM}|sam>`);
  const outcome = await click(confirmation, ActionId.shareConfirm);
  const post = bot.slack.calls('chat.update').at(-1);
  if (post === undefined) throw new Error('the share was not posted');
  return { confirmation, outcome, post: post.args };
}

const lastUpdateOf = (ts: unknown) =>
  bot.slack
    .calls('chat.update')
    .filter((call) => call.args.ts === ts)
    .at(-1)?.args ?? {};

describe('/ps share on Paperspace v1', () => {
  it('gives the mentioned teammate access, who can then start the machine, and removes it 4 hours later', async () => {
    const sharedAt = clock.now();
    const offerPosted = await command(`share team-build <@${SAM}|sam>`);
    expect(offerPosted.response_type).toBe('ephemeral');
    expect(messageText(offerPosted)).toContain(`Give <@${SAM}> access to 1 machine`);
    expect(accessors()).toEqual([]);

    const outcome = await click(offerPosted, ActionId.shareConfirm);
    expect(outcome.text).toContain(`with <@${SAM}>, who can use them until then`);
    expect(accessors()).toEqual(['u1sam']);
    const post = bot.slack.calls('chat.update').at(-1)?.args ?? {};
    expect(post.channel).toBe(CHANNEL);
    expect(messageText(post)).toContain(
      `<@${MAYA}> gave <@${SAM}> access to 1 machine until <!date^${Math.floor((sharedAt + 4 * HOUR_MS) / 1000)}^`,
    );
    // End share is Maya's alone: on her note, and not before the whole channel.
    expect(messageText(post)).not.toContain(ActionId.shareEnd);
    expect(messageText(post)).toContain(`only <@${MAYA}> can end it early`);
    expect(messageText(outcome)).toContain(ActionId.shareEnd);
    expect(messageText(post)).not.toContain(USERS.maya.apiKey);

    // Sam, with his own key, can now start Maya's machine.
    await bot.send(bot.requests.slashCommand({ text: 'start team-build', userId: SAM, channelId: CHANNEL }));
    expect(
      await eventually(() => bot.emulator.state.machine('psorb002')?.state === 'starting' || undefined),
    ).toBe(true);
    expect(messageText(await command('shares'))).toContain(`access for <@${SAM}>`);

    clock.advance(4 * HOUR_MS);
    await bot.scheduler.tick();
    expect(accessors()).toEqual([]);
    const over = messageText(lastUpdateOf(post.ts));
    expect(over).toContain('expired');
    expect(over).toContain('Their access was removed.');
    expect(over).not.toContain(ActionId.shareEnd);
    const audit = await bot.store.audit.list({ teamId: bot.slack.teamId, userId: MAYA, limit: 50 });
    const trail = audit.map((record) => [record.action, record.resourceId, record.outcome]);
    expect(trail).toContainEqual(['share.grant', 'psorb002', 'ok']);
    expect(trail).toContainEqual(['share.revoke', 'psorb002', 'ok']);
  });

  it('retries a removal Paperspace refuses, saying so on the post, until the access is gone', async () => {
    const { post } = await shareWithSam();
    clock.advance(4 * HOUR_MS);
    bot.emulator.state.failNextRequests({
      count: 1,
      status: 500,
      path: '/v1/machines/psorb002/accessors/u1sam',
    });
    await bot.scheduler.tick();
    expect(accessors()).toEqual(['u1sam']);
    const refused = messageText(lastUpdateOf(post.ts));
    expect(refused).toContain(`Access not removed yet: <@${SAM}> on team-build.`);
    expect(refused).toContain('I keep trying');

    // Not before the retry is due, then once.
    await bot.scheduler.tick();
    expect(accessors()).toEqual(['u1sam']);
    clock.advance(60_000);
    await bot.scheduler.tick();
    expect(accessors()).toEqual([]);
    expect(messageText(lastUpdateOf(post.ts))).toContain('Their access was removed.');
  });

  it('removes the access at once when the sharer ends the share early', async () => {
    const { post, outcome } = await shareWithSam();
    const ended = await click(outcome, ActionId.shareEnd);
    expect(ended.text).toBe('Share ended. Their access to the machines was removed.');
    expect(accessors()).toEqual([]);
    const shown = messageText(lastUpdateOf(post.ts));
    expect(shown).toContain(`<@${MAYA}> ended this share of 1 machine with <@${SAM}>`);
    expect(shown).toContain('Their access was removed.');
  });

  it('leaves access given some other way in place when the share ends', async () => {
    await command(`access team-build grant <@${SAM}|sam>`);
    expect(accessors()).toEqual(['u1sam']);
    const { outcome } = await shareWithSam();
    expect(outcome.text).toContain('already had access');
    clock.advance(4 * HOUR_MS);
    await bot.scheduler.tick();
    expect(accessors()).toEqual(['u1sam']);
    await command(`access team-build revoke <@${SAM}|sam>`);
  });

  it('asks whom to share with, and refuses a person whose Paperspace user is unknown, creating nothing', async () => {
    expect(messageText(await command('share team-build'))).toContain(
      'a share gives the teammates you name access to the machines: mention them',
    );
    expect(messageText(await command(`share team-build <@${USERS.ada.slackId}|ada>`))).toContain(
      `<@${USERS.ada.slackId}> linked no Paperspace key`,
    );
    expect(accessors()).toEqual([]);
    expect(await bot.store.delegations.listActive(clock.now())).toEqual([]);
  });
});

// Shares on Paperspace v1: the teammates the sharer names, and the members who click Get access, are
// made accessors of the machines with the sharer's key until the scheduler (or End share) removes
// them. The same shares on the contract's API are in share.test.ts.
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
    expect(messageText(offerPosted)).toContain(`Share 1 machine in <#${CHANNEL}>?`);
    expect(messageText(offerPosted)).toContain(`<@${SAM}> gets access at once`);
    expect(accessors()).toEqual([]);

    const outcome = await click(offerPosted, ActionId.shareConfirm);
    expect(outcome.text).toContain(`with <@${SAM}>, who can use them until then`);
    expect(accessors()).toEqual(['u1sam']);
    const post = bot.slack.calls('chat.update').at(-1)?.args ?? {};
    expect(post.channel).toBe(CHANNEL);
    expect(messageText(post)).toContain(
      `<@${MAYA}> shared 1 machine with this channel until <!date^${Math.floor((sharedAt + 4 * HOUR_MS) / 1000)}^`,
    );
    expect(messageText(post)).toContain(`Access so far: <@${SAM}>.`);
    expect(messageText(post)).toContain(
      'They can start, stop and restart these machines with their own linked key',
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

  it('refuses to name a person whose Paperspace user is unknown, creating nothing', async () => {
    expect(messageText(await command(`share team-build <@${USERS.ada.slackId}|ada>`))).toContain(
      `<@${USERS.ada.slackId}> linked no Paperspace key`,
    );
    expect(accessors()).toEqual([]);
    expect(await bot.store.delegations.listActive(clock.now())).toEqual([]);
  });

  it('gives a member who claims access on the post the machine until the share ends; End share takes it back', async () => {
    const offered = await command('share team-build');
    expect(messageText(offered)).toContain(
      `Everyone in <#${CHANNEL}> can get access with one click on the post`,
    );
    const outcome = await click(offered, ActionId.shareConfirm);
    expect(outcome.text).toContain('members get access with Get access on the post');
    expect(accessors()).toEqual([]);
    const post = bot.slack.calls('chat.update').at(-1)?.args ?? {};
    expect(messageText(post)).toContain('Nobody has taken access yet.');

    const claim = bot.requests.blockAction({
      actionId: ActionId.shareClaim,
      value: buttonValue(post, ActionId.shareClaim),
      userId: SAM,
      channelId: CHANNEL,
      message: { ts: String(post.ts) },
    });
    await bot.send(claim);
    const claimed = (await bot.slack.waitForResponse(claim.responseUrlId ?? '')).text ?? '';
    expect(claimed).toContain('✅ You have access to team-build.');
    expect(claimed).toContain('You can start, stop and restart these machines with your own linked key');
    expect(accessors()).toEqual(['u1sam']);
    expect(messageText(lastUpdateOf(post.ts))).toContain(`Access so far: <@${SAM}>.`);

    // Sam can use it: his own key powers it (on or off, whichever an earlier test left it).
    const running = bot.emulator.state.machine('psorb002')?.state !== 'off';
    const verb = running ? 'stop' : 'start';
    await bot.send(
      bot.requests.slashCommand({ text: `${verb} team-build`, userId: SAM, channelId: CHANNEL }),
    );
    const after = running ? 'stopping' : 'starting';
    expect(await eventually(() => bot.emulator.state.machine('psorb002')?.state === after || undefined)).toBe(
      true,
    );

    const ended = await click(outcome, ActionId.shareEnd);
    expect(ended.text).toBe('Share ended. Their access to the machines was removed.');
    expect(accessors()).toEqual([]);
    // Sam's use is refused now: Paperspace lets only the owner and accessors power it.
    const again = bot.requests.slashCommand({ text: 'restart team-build', userId: SAM, channelId: CHANNEL });
    await bot.send(again);
    const answer = await bot.slack.waitForResponse(again.responseUrlId ?? '');
    expect(answer.text).toContain('Paperspace refused to restart *team-build* with your key');
  });
});

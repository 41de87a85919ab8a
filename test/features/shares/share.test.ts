import { beforeEach, describe, expect, it } from 'vitest';
import { encodeMachineRef } from '../../../src/features/machines/blocks/machine-ref.js';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { messageText } from '../../scheduler/harness.js';
import type { ResponseUrlPost } from '../../support/fake-slack.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';

const HOUR_MS = 60 * 60_000;
const clock = createFakeClock();
const ada = () => ({ teamId: bot.slack.teamId, userId: USERS.ada.slackId });

const bot = useTestBot({ now: clock.now, emulator: { now: clock.now }, linked: ['ada', 'sam'] });
const delegationCount = () => bot.emulator.state.delegations().length;

// The bot, its store and the emulator live for the whole file: each test starts after every earlier
// share has run out, so none of them refuses another's machine as already shared.
beforeEach(() => {
  clock.advance(5 * HOUR_MS);
});

async function command(text: string, userId: string = USERS.ada.slackId, channelId = 'C0CHANNEL') {
  const request = bot.requests.slashCommand({ text, userId, channelId });
  await bot.send(request);
  return request.responseUrlId ?? '';
}

/** The value of the button `actionId` in a message, as Slack would send it back on a click. */
function buttonValue(message: { blocks?: unknown[] }, actionId: string): string {
  const elements = (message.blocks ?? []).flatMap((block) => {
    const { elements = [], accessory } = block as { elements?: unknown[]; accessory?: unknown };
    return accessory === undefined ? elements : [...elements, accessory];
  });
  const found = elements.find((element) => (element as { action_id?: string }).action_id === actionId);
  const value = (found as { value?: string } | undefined)?.value;
  if (value === undefined) throw new Error(`no ${actionId} button in ${JSON.stringify(message.blocks)}`);
  return value;
}

/** `/ps share ...`, answered with the private confirmation. */
async function offer(text: string, userId: string = USERS.ada.slackId, channelId = 'C0CHANNEL') {
  return bot.slack.waitForResponse(await command(text, userId, channelId));
}

/** Clicks Share on a confirmation, in the (ephemeral) place it was shown; resolves with its response_url id. */
async function confirm(
  confirmation: ResponseUrlPost,
  userId: string = USERS.ada.slackId,
  channelId = 'C0CHANNEL',
) {
  const request = bot.requests.blockAction({
    actionId: ActionId.shareConfirm,
    value: buttonValue(confirmation, ActionId.shareConfirm),
    userId,
    channelId,
    ephemeral: true,
  });
  await bot.send(request);
  return request.responseUrlId ?? '';
}

async function shareConfirmed(text: string) {
  const replyId = await confirm(await offer(text));
  await bot.slack.waitForResponse(replyId);
  const post = bot.slack.calls('chat.postMessage').at(-1);
  const update = bot.slack.calls('chat.update').at(-1);
  if (post === undefined || update === undefined) throw new Error('the share was not posted');
  return { replyId, post, update };
}

describe('/ps share', () => {
  it('first shows the sharer alone what would be shared, with whom and until when, and creates nothing', async () => {
    const reply = await offer('share ada-workstation ada-render');
    expect(reply.response_type).toBe('ephemeral');
    const text = messageText(reply);
    expect(text).toContain('Share 2 machines in <#C0CHANNEL>?');
    expect(text).toContain('ada-workstation');
    expect(text).toContain('Everyone in <#C0CHANNEL> can get access with one click on the post');
    expect(text).toContain('see and use these machines from their own Paperspace account');
    expect(text).toContain(`until <!date^${Math.floor((clock.now() + 4 * HOUR_MS) / 1000)}^`);
    expect(delegationCount()).toBe(0);
    expect(bot.slack.calls('chat.postMessage')).toHaveLength(0);
  });

  it('on Share, posts who shared what, what members can do and until when, with Get access, and no delegation; and marks it expired 4 hours later', async () => {
    const sharedAt = clock.now();
    const before = delegationCount();
    const { replyId, post, update } = await shareConfirmed('share ada-workstation ada-render');
    expect(post.args.channel).toBe('C0CHANNEL');
    // A resource delegation would hand out a token nobody may post and nobody can revoke.
    expect(delegationCount()).toBe(before);
    expect(update.args).toMatchObject({ channel: 'C0CHANNEL', ts: expect.any(String) });
    const shown = messageText(update.args);
    expect(shown).toContain(
      `<@${USERS.ada.slackId}> shared 2 machines with this channel until <!date^${Math.floor((sharedAt + 4 * HOUR_MS) / 1000)}^`,
    );
    expect(shown).toContain('ada-render');
    expect(shown).toContain('Nobody has taken access yet.');
    expect(shown).toContain(ActionId.shareClaim);
    // End share is for the sharer alone: on their note, never on the channel's post.
    expect(shown).not.toContain(ActionId.shareEnd);
    expect(shown).toContain(`only <@${USERS.ada.slackId}> can end it early`);
    // The sharer's confirmation becomes the outcome, so it cannot be clicked into a second share.
    const outcome = bot.slack.responses(replyId).at(-1);
    expect(outcome?.replace_original).toBe(true);
    expect(outcome?.text).toContain('Shared ada-workstation, ada-render in <#C0CHANNEL>');
    // One time format: the sharer's note, the post and its notification show the same Slack date,
    // each in the reader's own zone, never a UTC clock time beside a local one.
    const until = `until <!date^${Math.floor((sharedAt + 4 * HOUR_MS) / 1000)}^{date_short_pretty} at {time}|`;
    expect(outcome?.text).toContain(until);
    expect(update.args.text).toContain(until);
    for (const said of [outcome?.text, update.args.text, shown]) expect(said).not.toMatch(/until \d/);

    const [stored] = await bot.store.delegations.listActive(clock.now(), ada());
    expect(await bot.store.delegations.listActive(clock.now(), ada())).toHaveLength(1);
    expect(stored).toMatchObject({
      channel: 'C0CHANNEL',
      machineIds: ['psada001', 'psada003'],
      messageTs: update.args.ts,
    });

    clock.advance(4 * HOUR_MS);
    await bot.scheduler.tick();
    await bot.scheduler.tick();
    const updates = bot.slack.calls('chat.update');
    expect(updates).toHaveLength(2);
    expect(updates[1]?.args.ts).toBe(stored?.messageTs);
    expect(messageText(updates[1]?.args ?? {})).toContain('share of 2 machines expired');
    expect(messageText(updates[1]?.args ?? {})).toContain('Nobody had taken access.');
  });

  it('tells the sharer in their DM that the share expired when its channel is gone and the post cannot be marked', async () => {
    await shareConfirmed('share ada-workstation');
    bot.slack.reset();
    bot.slack.script('chat.update', { channel: 'C0CHANNEL', error: 'channel_not_found' });
    clock.advance(4 * HOUR_MS);
    await bot.scheduler.tick();

    const told = await bot.slack.waitFor('chat.postMessage');
    expect(told.args.channel).toBe(USERS.ada.slackId);
    expect(messageText(told.args)).toContain(
      'Your share in <#C0CHANNEL> is over: the access it gave has ended',
    );
    expect(messageText(told.args)).toContain('channel_not_found');
  });

  it('in a channel that refuses the bot, creates no delegation and says why, privately', async () => {
    const before = delegationCount();
    const confirmation = await offer('share ada-workstation', USERS.ada.slackId, 'G0PRIVATE');
    bot.slack.fail('chat.postMessage', 'not_in_channel');
    const replyId = await confirm(confirmation, USERS.ada.slackId, 'G0PRIVATE');
    const reply = await bot.slack.waitForResponse(replyId);
    expect(reply.text).toContain('I cannot post in this channel (not_in_channel)');
    expect(reply.text).toContain('Nothing was shared');
    expect(delegationCount()).toBe(before);
    expect(await bot.store.delegations.listActive(clock.now(), ada())).toHaveLength(0);
    expect(bot.slack.calls('chat.update')).toHaveLength(0);
  });

  it('refuses a second live share of a machine in the same channel, at the offer and at the click', async () => {
    const before = delegationCount();
    const stale = await offer('share ada-workstation');
    await shareConfirmed('share ada-workstation');
    const again = await offer('share ada-render ada-workstation');
    // An error is plain text, where a date token would show raw: it says how long the share still runs.
    expect(again.text).toContain(
      'ada-workstation is already shared in this channel (by you, for another 4 h 00 min).',
    );
    const replyId = await confirm(stale);
    expect((await bot.slack.waitForResponse(replyId)).text).toContain('already shared in this channel');
    expect(delegationCount()).toBe(before);
    expect(await bot.store.delegations.listActive(clock.now(), { channel: 'C0CHANNEL' })).toHaveLength(1);
    // Another channel is another audience.
    const elsewhere = await offer('share ada-workstation', USERS.ada.slackId, 'C0OTHER');
    expect(messageText(elsewhere)).toContain('Share 1 machine in <#C0OTHER>?');
  });

  it('lets the sharer end a share early, says honestly what that means, and refuses anyone else', async () => {
    const { update, replyId } = await shareConfirmed('share ada-workstation');
    // The sharer's note carries End share; /ps shares offers the same.
    const note = bot.slack.responses(replyId).at(-1) ?? {};
    const listed = await bot.slack.waitForResponse(await command('shares'));
    expect(buttonValue(listed, ActionId.shareEnd)).toBe(buttonValue(note, ActionId.shareEnd));
    // Sam clicks the button of a post made before End share left the channel's posts.
    const end = (userId: string) =>
      bot.requests.blockAction({
        actionId: ActionId.shareEnd,
        value: buttonValue(note, ActionId.shareEnd),
        userId,
        channelId: 'C0CHANNEL',
        message: { ts: String(update.args.ts) },
      });

    const bySam = end(USERS.sam.slackId);
    await bot.send(bySam);
    expect((await bot.slack.waitForResponse(bySam.responseUrlId ?? '')).text).toContain(
      `Only <@${USERS.ada.slackId}>, who shared these machines, can end this share.`,
    );
    expect(bot.slack.calls('chat.update')).toHaveLength(1);

    clock.advance(HOUR_MS);
    const byAda = end(USERS.ada.slackId);
    await bot.send(byAda);
    expect((await bot.slack.waitForResponse(byAda.responseUrlId ?? '')).text).toContain('Share ended.');
    const ended = bot.slack.calls('chat.update')[1];
    expect(ended?.args.ts).toBe(update.args.ts);
    const shown = messageText(ended?.args ?? {});
    expect(shown).toContain(`<@${USERS.ada.slackId}> ended this share of 1 machine`);
    expect(shown).toContain('Nobody had taken access.');
    expect(shown).not.toContain(ActionId.shareEnd);
    expect((await bot.slack.waitForResponse(await command('shares'))).text).toContain('no active shares');

    // Ended is final: the expiry job leaves the post alone, and the machine can be shared again.
    clock.advance(4 * HOUR_MS);
    await bot.scheduler.tick();
    expect(bot.slack.calls('chat.update').filter((call) => call.args.ts === update.args.ts)).toHaveLength(2);
    expect(messageText(await offer('share ada-workstation'))).toContain('Share 1 machine');
  });

  it('refuses to name a person of another Paperspace team, who may still claim access on the post', async () => {
    const reply = await offer(`share ada-workstation <@${USERS.sam.slackId}|sam>`);
    expect(reply.text).toContain('linked a key of another Paperspace team');
    expect(await bot.store.delegations.listActive(clock.now(), ada())).toHaveLength(0);
  });

  it('refuses, privately, a machine the sharer cannot see, and creates nothing', async () => {
    const before = delegationCount();
    const reply = await offer('share sam-desktop');
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text).toContain('No machine called "sam-desktop"');
    expect(delegationCount()).toBe(before);
    expect(bot.slack.calls('chat.postMessage')).toHaveLength(0);
  });

  it('lists the active shares of the person who asks, not of others', async () => {
    const replyId = await confirm(await offer('share sam-dev', USERS.sam.slackId), USERS.sam.slackId);
    await bot.slack.waitForResponse(replyId);
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

describe('Get access on a share post', () => {
  /** `/ps show <machine>` as `userId`: the reply's text. */
  async function show(machine: string, userId: string) {
    return messageText(await bot.slack.waitForResponse(await command(`show ${machine}`, userId)));
  }

  async function claim(post: { args: Record<string, unknown> }, userId: string) {
    const request = bot.requests.blockAction({
      actionId: ActionId.shareClaim,
      value: buttonValue(post.args, ActionId.shareClaim),
      userId,
      channelId: 'C0CHANNEL',
      message: { ts: String(post.args.ts) },
    });
    await bot.send(request);
    return (await bot.slack.waitForResponse(request.responseUrlId ?? '')).text ?? '';
  }

  it('gives a member who claims access to the machine until the share ends, and End share takes it back', async () => {
    const sam = USERS.sam.slackId;
    // Before the share, Sam (another Paperspace account) cannot see Ada's machine.
    expect(await show('psada001', sam)).toContain('No machine');
    const { update, replyId } = await shareConfirmed('share ada-workstation');

    const claimed = await claim(update, sam);
    expect(claimed).toContain('✅ You have access to ada-workstation.');
    expect(claimed).toContain('You can see and use these machines from your own Paperspace account');
    expect(claimed).toContain(`until <!date^`);
    expect(claimed).toContain(`Only <@${USERS.ada.slackId}> can start and stop them.`);
    expect(bot.emulator.state.accessors('psada001')).toContain('u1sam');
    // Sam can use it now: his own key shows it.
    expect(await show('psada001', sam)).toContain('ada-workstation');
    // The post names who has access; a second click changes nothing.
    const redrawn = bot.slack.calls('chat.update').at(-1);
    expect(redrawn?.args.ts).toBe(update.args.ts);
    expect(messageText(redrawn?.args ?? {})).toContain(`Access so far: <@${sam}>.`);
    expect(await claim(update, sam)).toContain('You already have access to ada-workstation until');
    const audit = await bot.store.audit.list({ teamId: bot.slack.teamId, userId: sam, limit: 20 });
    expect(audit.map((record) => [record.action, record.resourceId, record.outcome])).toContainEqual([
      'share.grant',
      'psada001',
      'ok',
    ]);

    // Ada ends the share: Sam's access is removed at once, and his use of the machine refused.
    const note = bot.slack.responses(replyId).at(-1) ?? {};
    const end = bot.requests.blockAction({
      actionId: ActionId.shareEnd,
      value: buttonValue(note, ActionId.shareEnd),
      userId: USERS.ada.slackId,
      channelId: 'C0CHANNEL',
      ephemeral: true,
    });
    await bot.send(end);
    expect((await bot.slack.waitForResponse(end.responseUrlId ?? '')).text).toContain(
      'Share ended. Their access to the machines was removed.',
    );
    expect(bot.emulator.state.accessors('psada001')).not.toContain('u1sam');
    expect(await show('psada001', sam)).toContain('No machine');
    const ended = messageText(bot.slack.calls('chat.update').at(-1)?.args ?? {});
    expect(ended).toContain(`ended this share of 1 machine with <@${sam}>`);
    expect(ended).toContain('Their access was removed.');
    // A click on the ended post gives nothing.
    expect(await claim(update, sam)).toContain('is over, so nothing was given');
  });

  it('removes the access members claimed when the share expires', async () => {
    const sam = USERS.sam.slackId;
    const { update } = await shareConfirmed('share ada-render');
    expect(await claim(update, sam)).toContain('✅ You have access to ada-render.');
    expect(bot.emulator.state.accessors('psada003')).toContain('u1sam');
    clock.advance(4 * HOUR_MS);
    await bot.scheduler.tick();
    expect(bot.emulator.state.accessors('psada003')).not.toContain('u1sam');
    expect(messageText(bot.slack.calls('chat.update').at(-1)?.args ?? {})).toContain(
      'Their access was removed.',
    );
  });

  it('tells the sharer who clicks Get access that the machines are theirs already', async () => {
    const { update } = await shareConfirmed('share ada-workstation');
    expect(await claim(update, USERS.ada.slackId)).toContain('You shared ada-workstation');
  });
});

describe('the Share button', () => {
  it("offers the same confirmation for the card's machine in the card's channel, creating nothing yet", async () => {
    const before = delegationCount();
    const request = bot.requests.blockAction({
      actionId: ActionId.machineShare,
      value: encodeMachineRef({ id: 'psada002', name: 'ada-cpu-box' }),
      channelId: 'C0TEAM',
    });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(messageText(reply)).toContain('Share 1 machine in <#C0TEAM>?');
    expect(messageText(reply)).toContain('ada-cpu-box');
    expect(delegationCount()).toBe(before);
    expect(bot.slack.calls('chat.postMessage')).toHaveLength(0);
  });

  it('from App Home, says in a modal over the Home that a share belongs in a channel', async () => {
    const before = delegationCount();
    await bot.send(
      bot.requests.blockAction({
        actionId: ActionId.machineShare,
        value: encodeMachineRef({ id: 'psada002', name: 'ada-cpu-box' }),
        view: { type: 'home' },
      }),
    );
    const opened = await bot.slack.waitFor('views.open');
    expect(messageText({ blocks: (opened.args.view as { blocks: unknown[] }).blocks })).toContain(
      'A share is posted in a channel',
    );
    expect(bot.slack.calls('chat.postMessage')).toEqual([]);
    expect(delegationCount()).toBe(before);
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

// Forgotten-machine alerts by the owner rule on v1, where machines name no owner, end to end: a machine
// created through the bot alerts its creator, one nobody owns alerts whoever started its run through the
// bot, /ps alerts lists and unmutes what was muted, and a row about a machine stopped elsewhere says so
// as soon as the stop's watch sees it off. Orbital's seed on v1: maya administers the team, sam is a
// member; maya-trainer, sam-desktop and sam-cad run, sam-dev is off, and nobody owns any of them.
import { describe, expect, it } from 'vitest';
import { costAlertBlockId } from '../../../src/features/cost-alerts/blocks/cost-alert.js';
import { encodeMachineRef } from '../../../src/features/machines/blocks/machine-ref.js';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { messageText } from '../../scheduler/harness.js';
import type { ApiCall } from '../../support/fake-slack.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const clock = createFakeClock(Date.parse('2024-05-15T09:00:00Z'));
const TRAINER = { id: 'psorb001', name: 'maya-trainer' };
const DESKTOP = { id: 'psorb003', name: 'sam-desktop' };
const DEV = { id: 'psorb004', name: 'sam-dev' };
/** Created for maya in `prepare`, named as #44 reported: its name must reach Slack escaped. */
const RND = { id: '', name: 'R&D <gpu>-1' };

const bot = useTestBot({
  dialect: 'v1',
  now: clock.now,
  emulator: { now: clock.now, transitionMs: 2000 },
  // sam first: his poll sees the team's machines before maya's does.
  linked: ['sam', 'maya'],
  async prepare(started) {
    const [id] = started.emulator.state.addMachines(1, {
      owner: USERS.maya.emulatorUserId,
      state: 'ready',
      namePrefix: 'R&D <gpu>',
    });
    RND.id = id ?? '';
    // As a create through the bot records it (machines/machine-ownership.ts, recordCreatedOwner).
    await started.store.machineOwners.record(started.slack.teamId, {
      machineId: RND.id,
      userId: USERS.maya.slackId,
      paperspaceUserId: USERS.maya.emulatorUserId,
      basis: 'created',
      setBy: USERS.maya.slackId,
      setAt: clock.now(),
    });
  },
});

async function tickAfter(ms: number): Promise<void> {
  clock.advance(ms);
  await bot.scheduler.tick();
}

async function command(text: string, userId: string) {
  const request = bot.requests.slashCommand({ text, userId });
  await bot.send(request);
  return bot.slack.waitForResponse(request.responseUrlId ?? '');
}

/** Sends `/ps <verb> <machine>` as `userId` and waits for the watch that follows it. */
async function power(verb: 'start' | 'stop', machine: { id: string; name: string }, userId: string) {
  await bot.send(bot.requests.slashCommand({ text: `${verb} ${machine.name}`, userId }));
  await expect
    .poll(async () => (await bot.store.watches.listActive({ machineId: machine.id })).length)
    .toBeGreaterThan(0);
}

/** The alert DMs `userId` got since the last reset that have a row about `machine`. */
function alertsAbout(machine: { id: string }, userId: string): ApiCall[] {
  return bot.slack
    .calls('chat.postMessage')
    .filter(
      (call) =>
        call.args.channel === userId &&
        JSON.stringify(call.args.blocks ?? []).includes(`"${costAlertBlockId(machine.id)}"`),
    );
}

/** Every mrkdwn text object in `blocks`, however deep: what Slack parses for links and mentions. */
function mrkdwnIn(blocks: unknown): string[] {
  if (Array.isArray(blocks)) return blocks.flatMap(mrkdwnIn);
  if (typeof blocks !== 'object' || blocks === null) return [];
  const object = blocks as Record<string, unknown>;
  const own = object.type === 'mrkdwn' && typeof object.text === 'string' ? [object.text] : [];
  return [...own, ...Object.values(object).flatMap(mrkdwnIn)];
}

/** Each alert sent since the last reset, for the tests that follow. */
const sent: { toMaya?: ApiCall; toSam?: ApiCall } = {};

describe('forgotten-machine alerts by the owner rule (v1)', () => {
  it('a machine created through the bot alerts its creator only; one nobody owns alerts who started it', async () => {
    await tickAfter(5000);
    // sam starts sam-dev, which nobody owns yet (v1 names no owner): its run is his to answer for.
    await power('start', DEV, USERS.sam.slackId);
    await tickAfter(5000);
    await tickAfter(8 * HOUR_MS + 10 * MINUTE_MS);

    expect(alertsAbout(RND, USERS.maya.slackId)).toHaveLength(1);
    expect(alertsAbout(RND, USERS.sam.slackId)).toHaveLength(0);
    expect(alertsAbout(DEV, USERS.sam.slackId)).toHaveLength(1);
    expect(alertsAbout(DEV, USERS.maya.slackId)).toHaveLength(0);
    sent.toMaya = alertsAbout(RND, USERS.maya.slackId)[0];
    sent.toSam = alertsAbout(DEV, USERS.sam.slackId)[0];

    // #44: wherever Slack reads mrkdwn (the notification text, the rows, the footer), the name is
    // escaped, never sent as it was typed (plain_text, such as a button's label, is shown as it is).
    const read = [String(sent.toMaya?.args.text), ...mrkdwnIn(sent.toMaya?.args.blocks)];
    expect(read.filter((text) => text.includes('R&amp;D &lt;gpu&gt;-1'))).toHaveLength(2);
    expect(read.filter((text) => text.includes('R&D <gpu>'))).toEqual([]);
  });

  it('/ps alerts lists a muted machine, and unmute brings its next alert back', async () => {
    const mute = bot.requests.blockAction({
      actionId: ActionId.costAlertNever,
      value: encodeMachineRef(TRAINER),
      blockId: costAlertBlockId(TRAINER.id),
      userId: USERS.maya.slackId,
    });
    await bot.send(mute);
    await expect
      .poll(() => bot.store.costAlerts.excluded({ teamId: bot.slack.teamId, userId: USERS.maya.slackId }))
      .toEqual(new Set([TRAINER.id]));
    const listed = await command('alerts', USERS.maya.slackId);
    expect(listed.text).toContain('You muted (Not this machine): maya-trainer.');

    // Its next alert falls due while muted: none comes.
    expect(await bot.store.costAlerts.keep(TRAINER.id, clock.now() + HOUR_MS)).toBe(true);
    bot.slack.reset();
    await tickAfter(HOUR_MS + 10 * MINUTE_MS);
    expect(alertsAbout(TRAINER, USERS.maya.slackId)).toHaveLength(0);

    const unmuted = await command('alerts unmute maya-trainer', USERS.maya.slackId);
    expect(unmuted.text).toContain('You will be alerted about maya-trainer again');
    expect((await command('alerts', USERS.maya.slackId)).text).not.toContain('You muted');
    await tickAfter(5 * MINUTE_MS + 10_000);
    expect(alertsAbout(TRAINER, USERS.maya.slackId)).toHaveLength(1);
  });

  it('a row about a machine someone else stopped says who, once the stop’s watch sees it off', async () => {
    // sam-desktop, which nobody owns, was in maya's alert; sam stops it from a card of his own.
    expect(alertsAbout(DESKTOP, USERS.maya.slackId)).toEqual([]);
    const toMaya = sent.toMaya as ApiCall;
    expect(JSON.stringify(toMaya.args.blocks)).toContain(costAlertBlockId(DESKTOP.id));
    const place = { channel: String(toMaya.answer?.channel), ts: String(toMaya.answer?.ts) };
    await power('stop', DESKTOP, USERS.sam.slackId);
    bot.slack.reset();
    // One poll interval, well inside the cost check's five minutes: the watch ending is what redraws it.
    await tickAfter(5000);
    expect(await bot.store.watches.listActive({ machineId: DESKTOP.id })).toHaveLength(0);
    const updates = bot.slack
      .calls('chat.update')
      .filter((call) => call.args.channel === place.channel && call.args.ts === place.ts);
    expect(updates).toHaveLength(1);
    const redrawn = messageText(updates[0]?.args ?? {});
    expect(redrawn).toContain(`*sam-desktop*: stopped by <@${USERS.sam.slackId}>.`);
    expect(redrawn).not.toContain(`"block_id":"${costAlertBlockId(DESKTOP.id)}","elements"`);
  });
});

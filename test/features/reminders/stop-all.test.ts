// Stop all on a reminder too big for one message: ada has 100 machines running (and her seeded ones);
// the reminder lists what fits, counts the rest, and its Stop all stops every one of them with her key,
// the unlisted ones too, and says exactly what happened, a refused stop with Paperspace's reason.
import { describe, expect, it } from 'vitest';
import { STOP_ALL_BLOCK_ID } from '../../../src/features/reminders/blocks/reminder.js';
import { INTENT_GRACE_MS } from '../../../src/features/watches/intent-recovery.js';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock, type FakeClock } from '../../../tools/emulator/index.js';
import { messageText } from '../../scheduler/harness.js';
import type { ApiCall } from '../../support/fake-slack.js';
import { type TestBot, USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';

// Monday 2024-06-03, 16:00 UTC; ada's Slack time zone is Europe/Amsterdam: 19:00 there is 17:00 UTC.
const clock = createFakeClock(Date.parse('2024-06-03T16:00:00Z'));
const BATCH = 100;
const LOCKED_REASON = 'Machine is locked by your team administrator';

interface Block {
  type: string;
  block_id?: string;
  text?: { text: string };
  accessory?: { action_id: string; value: string; text: { text: string }; confirm?: unknown };
}

const runningOn = (bot: TestBot) =>
  bot.emulator.state
    .machines()
    .filter((machine) => machine.userId === USERS.ada.emulatorUserId && machine.state === 'ready');

/** A test bot where ada has `extra(started)` more machines running, and no forgotten-machine alerts. */
function useAdaRunning(clock: FakeClock, namePrefix: string, extra: (started: TestBot) => number) {
  return useTestBot({
    now: clock.now,
    emulator: { now: clock.now, transitionMs: 2000 },
    linked: ['ada'],
    prepare: async (started) => {
      // Hours of running would bring forgotten-machine DMs: they have their own tests.
      await started.store.costAlerts.setThreshold(
        { teamId: started.slack.teamId, userId: USERS.ada.slackId },
        null,
        clock.now(),
      );
      started.emulator.state.addMachines(extra(started), {
        owner: USERS.ada.emulatorUserId,
        state: 'ready',
        namePrefix,
      });
    },
  });
}

/** Ada's 19:00 reminder (Europe/Amsterdam, 17:00 UTC), set on Monday 16:00 UTC and fired. */
async function fireReminder(bot: TestBot, clock: FakeClock) {
  const set = bot.requests.slashCommand({ text: 'remind 19:00', userId: USERS.ada.slackId });
  await bot.send(set);
  await bot.slack.waitForResponse(set.responseUrlId ?? '');
  await bot.scheduler.tick();
  clock.set(Date.parse('2024-06-03T17:00:00Z'));
  await bot.cron.runDue();
  const reminder = bot.slack.calls('chat.postMessage').at(-1) as ApiCall;
  const blocks = reminder.args.blocks as Block[];
  return {
    reminder,
    blocks,
    stopAll: blocks.find((block) => block.block_id === STOP_ALL_BLOCK_ID),
    place: { channel: String(reminder.answer?.channel), ts: String(reminder.answer?.ts) },
  };
}

/** Ada clicks the fired reminder's Stop all (and confirms). */
async function clickStopAll(bot: TestBot, fired: Awaited<ReturnType<typeof fireReminder>>) {
  const { reminder, blocks, stopAll, place } = fired;
  await bot.send(
    bot.requests.blockAction({
      actionId: ActionId.reminderStopAll,
      value: stopAll?.accessory?.value ?? '',
      blockId: STOP_ALL_BLOCK_ID,
      channelId: place.channel,
      userId: USERS.ada.slackId,
      message: { ts: place.ts, text: String(reminder.args.text), blocks: blocks as unknown[] },
    }),
  );
}

describe('Stop all on a reminder of more machines than one message holds', () => {
  const bot = useAdaRunning(clock, 'ada-batch', () => BATCH);
  const running = () => runningOn(bot);

  it('stops every machine of the reminder, the unlisted ones too, and says how many stopped and which failed why', async () => {
    const before = running();
    const total = before.length;
    expect(total).toBeGreaterThanOrEqual(BATCH);

    const fired = await fireReminder(bot, clock);
    const { blocks, stopAll, place } = fired;
    const listed = blocks.filter((block) => block.block_id?.startsWith('reminder:'));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.length).toBeLessThan(total);
    expect(stopAll?.text?.text).toContain(`…and ${total - listed.length} more machines still running`);
    expect(stopAll?.accessory).toMatchObject({
      action_id: ActionId.reminderStopAll,
      text: { text: `Stop all ${total}` },
      confirm: { title: { text: `Stop all ${total} machines?` } },
    });

    // A machine the reminder could not list: Paperspace refuses its stop.
    const listedIds = new Set(listed.map((block) => block.block_id?.slice('reminder:'.length)));
    const refused = before.find((machine) => !listedIds.has(machine.id));
    if (refused === undefined) throw new Error('every machine was listed');
    bot.emulator.state.failNextRequests({
      count: 1,
      status: 400,
      message: LOCKED_REASON,
      path: `${bot.dialect === 'v1' ? '/v1' : ''}/machines/${refused.id}/stop`,
      apiKey: USERS.ada.apiKey,
    });

    bot.slack.reset();
    await clickStopAll(bot, fired);
    const update = await bot.slack.waitFor('chat.update', { timeoutMs: 15_000 });
    expect(update.args).toMatchObject(place);

    // Every machine but the refused one is on its way to off, with ada's key.
    expect(running().map((machine) => machine.id)).toEqual([refused.id]);
    const audit = await bot.store.audit.list({
      teamId: bot.slack.teamId,
      userId: USERS.ada.slackId,
      limit: 500,
    });
    const stops = audit.filter((record) => record.action === 'machine.stop');
    expect(stops.filter((record) => record.outcome === 'ok')).toHaveLength(total - 1);

    const after = update.args.blocks as Block[];
    // Her watches hold 50 machines at most: the stops past them are sent, and said not to be followed.
    const summary = messageText({
      blocks: after.filter((block) => block.block_id?.startsWith('stop_all_done:')),
    });
    expect(summary).toContain(
      `Stop all by <@${USERS.ada.slackId}>: 🟤 50 machines stopping, ${total - 51} asked to stop that I am not following`,
    );
    expect(summary).toContain('❌ 1 could not be stopped.');
    expect(summary).toContain(`*${refused.name}*: `);
    expect(summary).toContain(LOCKED_REASON);
    await expect
      .poll(() => bot.store.watches.countActive({ teamId: bot.slack.teamId, userId: USERS.ada.slackId }))
      .toBe(50);
    expect(after.filter((block) => block.accessory !== undefined || block.type === 'actions')).toEqual([]);
    // The listed rows say so; the header counts the one machine still running.
    expect(after.filter((block) => block.block_id?.startsWith('reminder:'))).toHaveLength(0);
    expect(after.filter((block) => block.block_id?.startsWith('reminder_stopped:'))).toHaveLength(
      listed.length,
    );
    expect(messageText({ blocks: after })).toContain(`stopping, Stop all by <@${USERS.ada.slackId}>`);
    expect(after[0]?.text?.text).toBe('⏰ 1 machine still running');
    expect(String(update.args.text)).toMatch(/^⏰ 1 machine still running: /);
  });
});

// A reminder of 25 machines (one more row than one message holds beside its header and footer): Stop
// all ends as a single Stop does, each row "stopped ✓" or why not, the footer counting both.
describe('Stop all on a reminder of 25 machines, followed until every machine is off', () => {
  const dayClock = createFakeClock(Date.parse('2024-06-03T16:00:00Z'));
  const bot = useAdaRunning(dayClock, 'ada-many', (started) => 25 - runningOn(started).length);

  it('ends every row "stopped ✓" or with why not, and the footer counts what stopped and what failed', async () => {
    expect(runningOn(bot)).toHaveLength(25);
    const fired = await fireReminder(bot, dayClock);
    const { blocks, stopAll, place } = fired;
    const rows = blocks.filter((block) => block.block_id?.startsWith('reminder:'));
    expect(rows.length).toBeGreaterThan(20);
    expect(stopAll?.accessory?.text.text).toBe('Stop all 25');

    // One stop Paperspace refuses at once; on v1, one more whose stop event ends in an error.
    const rowIds = rows.map((block) => block.block_id?.slice('reminder:'.length) ?? '');
    const [refusedId, brokenId] = rowIds as [string, string];
    bot.emulator.state.failNextRequests({
      count: 1,
      status: 400,
      message: LOCKED_REASON,
      path: `${bot.dialect === 'v1' ? '/v1' : ''}/machines/${refusedId}/stop`,
      apiKey: USERS.ada.apiKey,
    });
    const v1 = bot.dialect === 'v1';
    if (v1) bot.emulator.state.failNextOperation(brokenId, 'The hypervisor did not answer');
    const failed = v1 ? 2 : 1;

    bot.slack.reset();
    await clickStopAll(bot, fired);
    await bot.slack.waitFor('chat.update', { timeoutMs: 15_000 });
    const ada = { teamId: bot.slack.teamId, userId: USERS.ada.slackId };
    await expect.poll(() => bot.store.watches.countActive(ada)).toBe(24);

    // The machines stop within seconds; the watches see it on the ticks that follow.
    const ofReminder = () => bot.slack.calls('chat.update').filter((call) => call.args.ts === place.ts);
    const updatesBefore = ofReminder().length;
    for (let tick = 0; tick < 10 && (await bot.store.watches.countActive(ada)) > 0; tick += 1) {
      dayClock.advance(5000);
      await bot.scheduler.tick();
    }
    expect(await bot.store.watches.countActive(ada)).toBe(0);
    const updates = ofReminder();
    // 24 rows ending together are a few updates of the reminder, each with every row drawn since the
    // last, not one update a row.
    expect(updates.length - updatesBefore).toBeLessThanOrEqual(8);
    const last = updates.at(-1)?.args.blocks as Block[];
    const text = messageText({ blocks: last });
    expect(text).not.toContain('stopping');
    const ended = last.filter((block) => block.block_id?.startsWith('reminder'));
    for (const id of rowIds) {
      const row = messageText({ blocks: ended.filter((block) => block.block_id?.endsWith(`:${id}`)) });
      if (id === refusedId) expect(row).toContain('Stop');
      else if (v1 && id === brokenId) expect(row).toContain('The hypervisor did not answer');
      else expect(row).toContain('stopped ✓');
    }
    const footer = messageText({
      blocks: last.filter((block) => block.block_id?.startsWith('stop_all_done:')),
    });
    expect(footer).toContain(
      `Stop all by <@${USERS.ada.slackId}>: ⚫ ${25 - failed} machines stopped ✓, ❌ ${failed} could not be stopped.`,
    );
    expect(footer).toContain(LOCKED_REASON);
    if (v1) expect(footer).toContain('The hypervisor did not answer');
    // The header counts what still runs: the machines whose stop failed.
    expect(last[0]?.text?.text).toBe(`⏰ ${failed} machine${failed === 1 ? '' : 's'} still running`);
  });
});

// The replica that sent the stops never gets further (here: Slack never answers its redraw of the
// reminder, as a replica dying there would leave it). Each stop's watch was stored before the stop went
// out, so the bot finds them after the grace and still reports every machine off in the thread.
describe('Stop all whose replica never got past sending the stops', () => {
  const lostClock = createFakeClock(Date.parse('2024-06-03T16:00:00Z'));
  // Stop all is offered once a reminder lists more machines than one message holds.
  const bot = useAdaRunning(lostClock, 'ada-lost', (started) => 25 - runningOn(started).length);

  it("still tells ada in the reminder's thread that every machine stopped", async () => {
    const machines = runningOn(bot);
    const fired = await fireReminder(bot, lostClock);
    const { place } = fired;

    bot.slack.reset();
    bot.slack.script('chat.update', { channel: place.channel, hang: true });
    await clickStopAll(bot, fired);
    await bot.slack.waitFor('chat.update', { timeoutMs: 15_000 });
    expect(runningOn(bot)).toEqual([]);

    lostClock.advance(INTENT_GRACE_MS + 1000);
    for (let tick = 0; tick < 6; tick++) {
      await bot.scheduler.tick();
      lostClock.advance(5000);
    }
    const inThread = bot.slack
      .calls('chat.postMessage')
      .filter((call) => call.args.thread_ts === place.ts && call.answer?.ok === true)
      .map((call) => String(call.args.text));
    for (const machine of machines) {
      expect(
        inThread.filter((text) => text.includes(`*${machine.name}*`) && text.includes('Off')),
      ).toHaveLength(1);
    }
  });
});

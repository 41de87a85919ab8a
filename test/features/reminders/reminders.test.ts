import { describe, expect, it } from 'vitest';
import { encodeMachineRef } from '../../../src/features/machines/blocks/machine-ref.js';
import { reminderBlockId, reminderMessage } from '../../../src/features/reminders/blocks/reminder.js';
import type { Machine } from '../../../src/paperspace/schemas.js';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { messageText } from '../../scheduler/harness.js';
import type { ApiCall } from '../../support/fake-slack.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';

const HOUR_MS = 60 * 60_000;
// Wednesday 2024-05-15, 09:00 UTC. The test users' Slack time zone is Europe/Amsterdam (UTC+2 in May).
const clock = createFakeClock(Date.parse('2024-05-15T09:00:00Z'));
const ada = () => ({ teamId: bot.slack.teamId, userId: USERS.ada.slackId });
const WORKSTATION = { id: 'psada001', name: 'ada-workstation' };
const RENDER = { id: 'psada003', name: 'ada-render' };

const bot = useTestBot({
  now: clock.now,
  emulator: { now: clock.now, transitionMs: 2000 },
  linked: ['ada'],
  // The clock jumps hours with ada's machines running: her forgotten-machine alerts would be DMs these
  // tests count as reminders. They have their own tests (test/features/cost-alerts).
  prepare: (started) =>
    started.store.costAlerts.setThreshold(
      { teamId: started.slack.teamId, userId: USERS.ada.slackId },
      null,
      clock.now(),
    ),
});

async function command(text: string, userId: string = USERS.ada.slackId) {
  const request = bot.requests.slashCommand({ text, userId });
  await bot.send(request);
  return bot.slack.waitForResponse(request.responseUrlId ?? '');
}

/** Fires what is due at `iso` and answers the reminder message it sent, if one. */
async function fireAt(iso: string): Promise<ApiCall | undefined> {
  clock.set(Date.parse(iso));
  await bot.cron.runDue();
  return bot.slack.calls('chat.postMessage').at(-1);
}

/** Where Slack put a posted message: the DM's id for a post to a person, and its ts. */
function placeOf(posted: ApiCall): { channel: string; ts: string } {
  return { channel: String(posted.answer?.channel), ts: String(posted.answer?.ts) };
}

/** Clicks one of a reminder message's buttons, as Slack would send it from the DM it was posted in. */
async function click(reminder: ApiCall, actionId: string, machine: { id: string; name: string }) {
  const request = bot.requests.blockAction({
    actionId,
    value: encodeMachineRef(machine),
    blockId: reminderBlockId(machine.id),
    channelId: placeOf(reminder).channel,
    message: {
      ts: placeOf(reminder).ts,
      text: String(reminder.args.text),
      blocks: reminder.args.blocks as unknown[],
    },
  });
  await bot.send(request);
  return request;
}

describe('shutdown reminders, end to end', () => {
  it('are set at a time in the user’s Slack time zone, listed, and fire then in their DM', async () => {
    const reply = await command('remind 19:00 weekdays');
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text).toContain('Reminder set: weekdays at 19:00 (Europe/Amsterdam).');
    expect(bot.slack.calls('users.info')[0]?.args.user).toBe(USERS.ada.slackId);
    const [reminder] = await bot.store.reminders.listByUser(ada());
    expect(reminder).toMatchObject({
      cron: '0 19 * * 1-5',
      timezone: 'Europe/Amsterdam',
      channel: USERS.ada.slackId,
    });
    const audit = await bot.store.audit.list({ ...ada(), limit: 50 });
    expect(audit.map((record) => [record.action, record.resourceId])).toContainEqual([
      'reminder.create',
      reminder?.id,
    ]);

    const list = await command('reminders');
    expect(JSON.stringify(list.blocks)).toContain('1. Weekdays at 19:00 (Europe/Amsterdam)');
    // The next time, 19:00 in Amsterdam, shown to each reader in their own zone.
    expect(JSON.stringify(list.blocks)).toContain(`<!date^${Date.parse('2024-05-15T17:00:00Z') / 1000}^`);

    await bot.scheduler.tick();
    expect(await fireAt('2024-05-15T16:59:00Z')).toBeUndefined();
    const message = await fireAt('2024-05-15T17:00:00Z');
    expect(message?.args.channel).toBe(USERS.ada.slackId);
    expect(messageText(message?.args ?? {})).toContain('ada-workstation');
  });

  it('Stop stops the machine with the clicker’s key, audits it, marks the row and reports the stop in the thread', async () => {
    const message = await fireAt('2024-05-16T17:00:00Z');
    expect(message).toBeDefined();
    bot.slack.reset();
    const request = await click(message as ApiCall, ActionId.reminderStop, WORKSTATION);

    const place = placeOf(message as ApiCall);
    const update = await bot.slack.waitFor('chat.update');
    expect(update.args).toMatchObject(place);
    expect(messageText(update.args)).toContain('stopping');
    expect(bot.emulator.state.machine(WORKSTATION.id)?.state).toBe('stopping');
    const audit = await bot.store.audit.list({ ...ada(), limit: 50 });
    expect(audit.map((record) => [record.action, record.resourceId, record.outcome])).toContainEqual([
      'machine.stop',
      WORKSTATION.id,
      'ok',
    ]);
    await expect
      .poll(() => bot.watchRequests.at(-1))
      .toMatchObject({
        machineId: WORKSTATION.id,
        targetState: 'off',
        channel: place.channel,
        threadTs: place.ts,
      });
    expect(bot.slack.responses(request.responseUrlId ?? '')).toHaveLength(0);

    clock.advance(5000);
    await bot.scheduler.tick();
    const reply = bot.slack.calls('chat.postMessage').at(-1);
    expect(reply?.args.thread_ts).toBe(place.ts);
    expect(messageText(reply?.args ?? {})).toContain('*ada-workstation* is ⚫ Off');
  });

  it('Stop on a machine that is already off says so in the row, and neither stops nor watches it', async () => {
    // The reminder was sent while the machine ran; someone stopped it before the click.
    const shownMachine = await fetch(
      `${bot.emulator.url}/machines/getMachinePublic?machineId=${WORKSTATION.id}`,
      { headers: { 'x-api-key': USERS.ada.apiKey } },
    );
    const machine = (await shownMachine.json()) as Machine;
    expect(machine.state).toBe('off');
    const shown = reminderMessage([{ ...machine, state: 'ready' }]);
    bot.slack.reset();
    const watchesBefore = bot.watchRequests.length;
    const stopsBefore = (await bot.store.audit.list({ ...ada(), limit: 50 })).filter(
      (record) => record.action === 'machine.stop',
    ).length;

    await click(
      { method: 'chat.postMessage', args: { ...shown }, token: 'xoxb-test', contentType: 'application/json' },
      ActionId.reminderStop,
      WORKSTATION,
    );

    const update = await bot.slack.waitFor('chat.update');
    expect(messageText(update.args)).toContain('already off');
    const stopsAfter = (await bot.store.audit.list({ ...ada(), limit: 50 })).filter(
      (record) => record.action === 'machine.stop',
    ).length;
    expect(stopsAfter).toBe(stopsBefore);
    expect(bot.watchRequests).toHaveLength(watchesBefore);
  });

  it('Snooze asks about that machine alone an hour later; Keep running just marks the row', async () => {
    await fetch(`${bot.emulator.url}/machines/${RENDER.id}/start`, {
      method: 'POST',
      headers: { 'x-api-key': USERS.ada.apiKey },
    });
    await fetch(`${bot.emulator.url}/machines/${WORKSTATION.id}/start`, {
      method: 'POST',
      headers: { 'x-api-key': USERS.ada.apiKey },
    });
    const message = (await fireAt('2024-05-17T17:00:00Z')) as ApiCall;
    expect(messageText(message.args)).toContain('ada-render');
    bot.slack.reset();

    await click(message, ActionId.reminderSnooze, RENDER);
    const snoozed = await bot.slack.waitFor('chat.update');
    expect(messageText(snoozed.args)).toContain('snoozed');
    await click(message, ActionId.reminderKeep, WORKSTATION);
    await expect.poll(() => bot.slack.calls('chat.update').length).toBe(2);
    expect(messageText(bot.slack.calls('chat.update')[1]?.args ?? {})).toContain('kept running');

    clock.advance(HOUR_MS - 60_000);
    await bot.scheduler.tick();
    expect(bot.slack.calls('chat.postMessage')).toHaveLength(0);
    clock.advance(60_000);
    await bot.scheduler.tick();
    const again = bot.slack.calls('chat.postMessage');
    expect(again).toHaveLength(1);
    expect(again[0]?.args.channel).toBe('D0ADA');
    expect(messageText(again[0]?.args ?? {})).toContain('ada-render');
    expect(messageText(again[0]?.args ?? {})).not.toContain('ada-workstation');
  });

  it('are turned off by their number in the list, and then no longer fire', async () => {
    const reply = await command('remind off 1');
    expect(reply.text).toBe('Turned off your reminder weekdays at 19:00 (Europe/Amsterdam).');
    expect(await bot.store.reminders.listByUser(ada())).toHaveLength(0);
    expect((await command('reminders')).text).toContain('no reminders');

    bot.slack.reset();
    await fireAt('2024-05-20T17:00:00Z');
    expect(bot.slack.calls('chat.postMessage')).toHaveLength(0);
  });

  it('fall back to UTC, and say so, when Slack does not give the time zone', async () => {
    bot.slack.fail('users.info', 'missing_scope');
    const reply = await command('remind 18:30 daily');
    expect(reply.text).toContain('every day at 18:30 (UTC)');
    expect(reply.text).toContain('uses UTC');
    await command('remind off');
  });

  it('refuse the same reminder twice and what names none of them, naming the problem', async () => {
    await command('remind 08:00 mon,wed');
    expect((await command('remind 08:00 mon,wed')).text).toContain('already have this reminder');
    expect((await command('remind off abcdef12')).text).toContain('"abcdef12" is not one of your reminders');
    await command('remind off');
  });

  it('understand the 12-hour clock (7pm, 7:30pm) as the same time in the person’s zone as 19:00', async () => {
    const evening = await command('remind 7pm');
    expect(evening.text).toContain('weekdays at 19:00 (Europe/Amsterdam)');
    expect((await command('remind 19:00')).text).toContain('already have this reminder');
    const halfPast = await command('remind 7:30pm daily');
    expect(halfPast.text).toContain('every day at 19:30 (Europe/Amsterdam)');
    const crons = (await bot.store.reminders.listByUser(ada())).map((reminder) => reminder.cron).sort();
    expect(crons).toEqual(['0 19 * * 1-5', '30 19 * * *']);
    const refused = await bot.send(
      bot.requests.slashCommand({ text: 'remind 13pm', userId: USERS.ada.slackId }),
    );
    expect(JSON.stringify(refused.body)).toContain('for example 19:00, 7pm or 7:30pm');
    await command('remind off');
  });

  it('are all turned off by `remind off`, snoozes included, also one whose reminder was deleted since', async () => {
    await command('remind 19:00 daily');
    await bot.scheduler.tick();
    const message = (await fireAt('2024-05-21T17:00:00Z')) as ApiCall;
    expect(messageText(message.args)).toContain('ada-render');
    await click(message, ActionId.reminderSnooze, RENDER);
    await expect.poll(async () => (await bot.store.snoozes.listByUser(ada())).length).toBe(1);
    // Snoozed from the message of a reminder turned off before the click: the snooze has no reminder.
    await bot.store.snoozes.snooze({
      ...ada(),
      machineId: WORKSTATION.id,
      // As a snooze stored before names were kept.
      machineName: null,
      reminderId: null,
      channel: 'D0ADA',
      fireAt: clock.now() + HOUR_MS,
      createdAt: clock.now(),
    });

    const list = JSON.stringify((await command('reminders')).blocks);
    expect(list).toContain('💤 *ada-render* again at');
    expect(list).toContain(`💤 \`${WORKSTATION.id}\` again at`);

    const reply = await command('remind off');
    expect(reply.text).toBe('Turned off 1 reminder and 2 snoozed reminders.');
    expect(await bot.store.snoozes.listByUser(ada())).toEqual([]);
    bot.slack.reset();
    clock.advance(HOUR_MS);
    await bot.scheduler.tick();
    expect(bot.slack.calls('chat.postMessage')).toHaveLength(0);
  });

  it('come to the DM when the conversation a reminder was snoozed in is gone', async () => {
    await bot.store.snoozes.snooze({
      ...ada(),
      machineId: RENDER.id,
      machineName: RENDER.name,
      reminderId: null,
      channel: 'C0GONE',
      fireAt: clock.now() + HOUR_MS,
      createdAt: clock.now(),
    });
    bot.slack.script('chat.postMessage', { channel: 'C0GONE', error: 'channel_not_found' });
    clock.advance(HOUR_MS);
    await bot.scheduler.tick();

    const posted = await bot.slack.waitFor(
      (call) => call.method === 'chat.postMessage' && call.args.channel === USERS.ada.slackId,
    );
    expect(messageText(posted.args)).toContain('ada-render');
  });

  it('need a linked key, and show the login prompt without one', async () => {
    const reply = await command('remind 19:00', USERS.maya.slackId);
    expect(JSON.stringify(reply.blocks)).toContain(ActionId.login);
    expect(
      await bot.store.reminders.listByUser({ teamId: bot.slack.teamId, userId: USERS.maya.slackId }),
    ).toHaveLength(0);
  });
});

describe('a reminder tells the truth after its buttons are used', () => {
  const CPU_BOX = { id: 'psada002', name: 'ada-cpu-box' };
  const startMachine = (id: string) =>
    fetch(`${bot.emulator.url}/machines/${id}/start`, {
      method: 'POST',
      headers: { 'x-api-key': USERS.ada.apiKey },
    });
  const header = (call: ApiCall | undefined) => {
    const blocks = (call?.args.blocks ?? []) as { type: string; text?: { text: string } }[];
    return blocks.find((block) => block.type === 'header')?.text?.text;
  };

  it('Stop counts the header down, and a snoozed machine is left out of the next reminder while its snooze lasts', async () => {
    await command('remind 19:00 weekdays');
    await command('remind 19:30 weekdays');
    await bot.scheduler.tick();
    clock.set(Date.parse('2024-05-27T16:00:00Z'));
    for (const machine of [WORKSTATION, RENDER, CPU_BOX]) await startMachine(machine.id);
    clock.advance(10_000);

    const first = (await fireAt('2024-05-27T17:00:00Z')) as ApiCall;
    expect(header(first)).toBe('⏰ 3 machines still running');
    bot.slack.reset();

    await click(first, ActionId.reminderStop, CPU_BOX);
    const stopped = await bot.slack.waitFor('chat.update');
    expect(header(stopped)).toBe('⏰ 2 machines still running');
    expect(String(stopped.args.text)).toMatch(/^⏰ 2 machines still running: /);
    expect(messageText(stopped.args)).toContain('I reply in this thread when it is off');

    const updatesBefore = bot.slack.calls('chat.update').length;
    await click(first, ActionId.reminderSnooze, RENDER);
    await expect.poll(async () => (await bot.store.snoozes.listByUser(ada())).length).toBe(1);
    // The snooze is stored before its row is redrawn: wait for the redraw itself.
    await expect.poll(() => bot.slack.calls('chat.update').length).toBeGreaterThan(updatesBefore);
    // The snooze redraws the reminder as it stands, the stopped row still counted out (the click
    // carried the message as first posted: the stop's redraw is not lost to it).
    const snoozed = bot.slack.calls('chat.update').at(-1);
    expect(header(snoozed)).toBe('⏰ 2 machines still running');
    expect(messageText(snoozed?.args ?? {})).toContain('I reply in this thread when it is off');

    // 19:30 in Amsterdam, half an hour into the snooze.
    const second = await fireAt('2024-05-27T17:30:00Z');
    expect(messageText(second?.args ?? {})).toContain('ada-workstation');
    expect(messageText(second?.args ?? {})).not.toContain('ada-render');
    expect(header(second)).toBe('⏰ 1 machine still running');
    await command('remind off');
  });
});

describe('a reminder’s row follows the stop clicked on it to the end', () => {
  const CPU_BOX = { id: 'psada002', name: 'ada-cpu-box' };
  const blockOf = (call: ApiCall | undefined, blockId: string) =>
    ((call?.args.blocks ?? []) as { block_id?: string; type: string }[]).find(
      (block) => block.block_id === blockId,
    );

  it('shows the row stopping, then stopped, and leaves the other rows and their buttons as they were', async () => {
    await command('remind 19:00 weekdays');
    await bot.scheduler.tick();
    clock.set(Date.parse('2024-06-03T16:00:00Z'));
    for (const machine of [WORKSTATION, RENDER, CPU_BOX]) {
      await fetch(`${bot.emulator.url}/machines/${machine.id}/start`, {
        method: 'POST',
        headers: { 'x-api-key': USERS.ada.apiKey },
      });
    }
    clock.advance(10_000);
    const reminder = (await fireAt('2024-06-03T17:00:00Z')) as ApiCall;
    bot.slack.reset();

    await click(reminder, ActionId.reminderStop, CPU_BOX);
    const stopping = await bot.slack.waitFor('chat.update');
    expect(messageText(stopping.args)).toMatch(/ada-cpu-box\*: stopping/);

    clock.advance(5000);
    await bot.scheduler.tick();
    await expect.poll(() => bot.slack.calls('chat.update').length).toBe(2);
    const stopped = bot.slack.calls('chat.update')[1];
    expect(stopped?.args).toMatchObject(placeOf(reminder));
    const row = JSON.stringify(blockOf(stopped, `reminder_stopped:${CPU_BOX.id}`));
    expect(row).toContain('*ada-cpu-box*: stopped ✓');
    expect(row).not.toContain('stopping');
    expect(messageText(stopped?.args ?? {})).not.toContain('stopping');
    // The other rows keep their buttons, and the header still counts them.
    for (const machine of [WORKSTATION, RENDER]) {
      expect(blockOf(stopped, reminderBlockId(machine.id))).toEqual(
        blockOf(reminder, reminderBlockId(machine.id)),
      );
    }
    expect(String(stopped?.args.text)).toMatch(/^⏰ 2 machines still running: /);
    // The completion went to the reminder's thread, as before.
    const reply = bot.slack.calls('chat.postMessage').at(-1);
    expect(reply?.args.thread_ts).toBe(placeOf(reminder).ts);
    await command('remind off');
  });

  it('ends the row when a newer start takes the stop’s watch over, rather than leaving it "stopping"', async () => {
    await command('remind 19:00 weekdays');
    await bot.scheduler.tick();
    clock.set(Date.parse('2024-06-10T16:00:00Z'));
    for (const machine of [WORKSTATION, CPU_BOX]) {
      await fetch(`${bot.emulator.url}/machines/${machine.id}/start`, {
        method: 'POST',
        headers: { 'x-api-key': USERS.ada.apiKey },
      });
    }
    clock.advance(10_000);
    const reminder = (await fireAt('2024-06-10T17:00:00Z')) as ApiCall;
    bot.slack.reset();
    await click(reminder, ActionId.reminderStop, CPU_BOX);
    expect(messageText((await bot.slack.waitFor('chat.update')).args)).toMatch(/ada-cpu-box\*: stopping/);

    // Ada changes her mind while it is still stopping: the start follows the machine on a card of its
    // own (posted in the channel), and the stop's watch will never report.
    await bot.send(bot.requests.slashCommand({ text: `start ${CPU_BOX.name}`, userId: USERS.ada.slackId }));
    await expect
      .poll(() =>
        bot.slack
          .calls('chat.update')
          .filter((call) => call.args.ts === placeOf(reminder).ts)
          .map((call) => JSON.stringify(blockOf(call, reminderBlockId(CPU_BOX.id)) ?? null)),
      )
      .toContainEqual(expect.stringContaining('a newer start by'));
    const ended = bot.slack
      .calls('chat.update')
      .filter((call) => call.args.ts === placeOf(reminder).ts)
      .at(-1);
    expect(ended?.args).toMatchObject(placeOf(reminder));
    const row = JSON.stringify(blockOf(ended, reminderBlockId(CPU_BOX.id)));
    expect(row).toContain('*ada-cpu-box*: ⏹️ Stopped watching at');
    expect(row).toContain(`a newer start by <@${USERS.ada.slackId}> took over`);
    expect(messageText(ended?.args ?? {})).not.toContain('stopping');
    // The machine runs again, so the header counts it again; the other row is untouched, buttons and all.
    expect(String(ended?.args.text)).toMatch(/^⏰ 3 machines still running: /);
    expect(blockOf(ended, reminderBlockId(WORKSTATION.id))).toEqual(
      blockOf(reminder, reminderBlockId(WORKSTATION.id)),
    );
    await command('remind off');
  });
});

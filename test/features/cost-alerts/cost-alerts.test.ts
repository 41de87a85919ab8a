// Forgotten-machine alerts end to end: the bot on the emulator's clock, the scheduler's real tick, the
// fake Slack recording the DMs, and clicks sent as signed Slack requests. Runs against both dialects.
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
const ada = () => ({ teamId: bot.slack.teamId, userId: USERS.ada.slackId });
/** Seeded ready, with no start in its event log: the bot only knows when it first saw it running. */
const WORKSTATION = { id: 'psada001', name: 'ada-workstation' };
/** Seeded off; the tests start it, so its event log says when. */
const RENDER = { id: 'psada003', name: 'ada-render' };

/** ada-workstation's alert, carried from test to test as a person's DM would be. */
let workstationAlert: ApiCall | undefined;

const bot = useTestBot({
  now: clock.now,
  emulator: { now: clock.now, transitionMs: 2000 },
  linked: ['ada', 'sam'],
});

async function command(text: string, userId: string = USERS.ada.slackId) {
  const request = bot.requests.slashCommand({ text, userId });
  await bot.send(request);
  return bot.slack.waitForResponse(request.responseUrlId ?? '');
}

/**
 * Starts or stops a machine as ada would, and waits for the card the bot posts about it. The bot then
 * watches the machine, so her machines are listed on every tick until it gets there.
 */
async function power(verb: 'start' | 'stop', machine: { id: string; name: string }): Promise<void> {
  const before = bot.slack.calls('chat.postMessage').length;
  await bot.send(bot.requests.slashCommand({ text: `${verb} ${machine.name}`, userId: USERS.ada.slackId }));
  await expect.poll(() => bot.slack.calls('chat.postMessage').length).toBeGreaterThan(before);
  await expect
    .poll(async () => (await bot.store.watches.listActive({ machineId: machine.id })).length)
    .toBeGreaterThan(0);
}

/** Moves the clock on, then one scheduler tick. */
async function tickAfter(ms: number): Promise<void> {
  clock.advance(ms);
  await bot.scheduler.tick();
}

/** The forgotten-machine DMs sent to `userId` (ada unless said) since the last reset, with a row about `machine`. */
function alertsAbout(machine: { id: string }, userId: string = USERS.ada.slackId): ApiCall[] {
  return bot.slack
    .calls('chat.postMessage')
    .filter(
      (call) =>
        call.args.channel === userId &&
        JSON.stringify(call.args.blocks ?? []).includes(`"${costAlertBlockId(machine.id)}"`),
    );
}

type DrawnBlock = { type: string; block_id?: string; text?: { text?: string } };

/** The row of an alert about `machine`: its words (the section above its buttons) and its buttons' block. */
function rowOf(alert: ApiCall | undefined, machine: { id: string }): { text: string; block?: DrawnBlock } {
  const blocks = (alert?.args.blocks ?? []) as DrawnBlock[];
  const at = blocks.findIndex((block) => block.block_id === costAlertBlockId(machine.id));
  return { text: blocks[at - 1]?.text?.text ?? '', ...(at < 0 ? {} : { block: blocks[at] }) };
}

/** Where Slack put the alert: ada's DM (the IM id Slack answered with) and the message's ts. */
function placeOf(alert: ApiCall): { channel: string; ts: string } {
  return { channel: String(alert.answer?.channel), ts: String(alert.answer?.ts) };
}

async function click(alert: ApiCall, actionId: string, machine: { id: string; name: string }) {
  const place = placeOf(alert);
  const request = bot.requests.blockAction({
    actionId,
    value: encodeMachineRef(machine),
    blockId: costAlertBlockId(machine.id),
    channelId: place.channel,
    message: {
      ts: place.ts,
      text: String(alert.args.text),
      blocks: alert.args.blocks as unknown[],
    },
  });
  const before = bot.slack.calls('chat.update').length;
  await bot.send(request);
  const ofAlert = () =>
    bot.slack
      .calls('chat.update')
      .slice(before)
      .find((call) => call.args.ts === place.ts);
  await expect.poll(ofAlert).toBeDefined();
  return ofAlert() as ApiCall;
}

describe('forgotten-machine alerts, end to end', () => {
  it('a machine left running past the threshold gets exactly one DM, with when it started and its cost', async () => {
    await power('start', RENDER);
    await tickAfter(5000);
    expect(alertsAbout(RENDER)).toHaveLength(0);

    await tickAfter(8 * HOUR_MS - 10 * MINUTE_MS);
    expect(alertsAbout(RENDER)).toHaveLength(0);

    await tickAfter(15 * MINUTE_MS);
    const [alert, ...more] = alertsAbout(RENDER);
    expect(more).toHaveLength(0);
    const { text } = rowOf(alert, RENDER);
    expect(text).toContain('has been running for 8 h 05 min');
    expect(text).toMatch(/at \$\d+\.\d\d \/ h/);
    expect(text).not.toContain('[object');
    // Started through the bot, so the event log says when: not an estimate.
    expect(text).not.toContain('at least');
    // Since the start finished (v1 says when; the legacy API only when it was asked for): 09:00 or just after.
    const since = Number(/<!date\^(\d+)\^/.exec(text)?.[1]) * 1000;
    expect(since - Date.parse('2024-05-15T09:00:00Z')).toBeGreaterThanOrEqual(0);
    expect(since - Date.parse('2024-05-15T09:00:00Z')).toBeLessThanOrEqual(5000);
    // ada-render is a P5000: $0.78 an hour, for 8h05m.
    expect(text).toContain('about *$6.31* at $0.78 / h');
    for (const actionId of [ActionId.costAlertStop, ActionId.costAlertKeep, ActionId.costAlertNever]) {
      expect(JSON.stringify(alert?.args.blocks)).toContain(actionId);
    }
    const audit = await bot.store.audit.list({ ...ada(), limit: 100 });
    expect(audit.map((record) => [record.action, record.resourceId, record.outcome])).toContainEqual([
      'machine.cost_alert',
      RENDER.id,
      'ok',
    ]);

    // ada-workstation, running when the bot first looked, was due at the same check: one message
    // lists both, with Stop all.
    [workstationAlert] = alertsAbout(WORKSTATION);
    expect(workstationAlert).toBe(alert);
    expect(JSON.stringify(alert?.args.blocks)).toContain(ActionId.costAlertStopAll);

    // Later checks find the alerts already sent.
    await tickAfter(10 * MINUTE_MS);
    await tickAfter(2 * HOUR_MS);
    expect(alertsAbout(RENDER)).toHaveLength(1);
    expect(alertsAbout(WORKSTATION)).toHaveLength(1);
  });

  it('a machine found running whose event log cannot be read is alerted with its start as an estimate', async () => {
    // The call that reads a machine's events fails once: all the bot knows is when it saw it running.
    bot.emulator.state.failNextRequests({
      count: 1,
      status: 500,
      path: bot.dialect === 'v1' ? '/v1/machine-events' : '/machines/getMachinePublic',
    });
    const [id] = bot.emulator.state.addMachines(1, {
      owner: USERS.ada.emulatorUserId,
      state: 'ready',
      machineType: 'C5',
      namePrefix: 'ada-found',
    });
    const found = { id: id ?? '', name: bot.emulator.state.machine(id ?? '')?.name ?? '' };
    await tickAfter(5 * MINUTE_MS);
    const [run] = await bot.store.costAlerts.runs([found.id]);
    expect(run).toMatchObject({ runningSince: clock.now(), sinceEstimated: true });

    await tickAfter(8 * HOUR_MS);
    const [alert, ...more] = alertsAbout(found);
    expect(more).toHaveLength(0);
    const { text } = rowOf(alert, found);
    expect(text).toContain('at least since');
    expect(text).toContain('when I first saw it running');
  });

  it('Keep running re-arms the alert: asked again once the threshold has passed again, once', async () => {
    const update = await click(workstationAlert as ApiCall, ActionId.costAlertKeep, WORKSTATION);
    expect(update.args).toMatchObject(placeOf(workstationAlert as ApiCall));
    expect(messageText(update.args)).toContain('kept running. I will ask again');
    expect(rowOf(update, WORKSTATION).block?.type).toBe('context');
    bot.slack.reset();

    await tickAfter(8 * HOUR_MS - 10 * MINUTE_MS);
    expect(alertsAbout(WORKSTATION)).toHaveLength(0);
    await tickAfter(15 * MINUTE_MS);
    [workstationAlert] = alertsAbout(WORKSTATION);
    expect(workstationAlert).toBeDefined();
    await tickAfter(10 * MINUTE_MS);
    expect(alertsAbout(WORKSTATION)).toHaveLength(1);
  });

  it('Stop stops the machine with the clicker’s key, audits it and says who stopped it', async () => {
    // Ada was already waiting for it to go off on a card of her own: the Stop takes that card over.
    const wait = bot.requests.slashCommand({
      text: `wait ${WORKSTATION.name} off`,
      userId: USERS.ada.slackId,
    });
    await bot.send(wait);
    await expect
      .poll(async () => (await bot.store.watches.listActive({ machineId: WORKSTATION.id })).length)
      .toBe(1);
    const [older] = await bot.store.watches.listActive({ machineId: WORKSTATION.id });
    const requestsBefore = bot.emulator.state.requests().length;
    const update = await click(workstationAlert as ApiCall, ActionId.costAlertStop, WORKSTATION);
    expect(messageText(update.args)).toContain(`stopping, requested by <@${USERS.ada.slackId}>`);
    expect(bot.emulator.state.machine(WORKSTATION.id)?.state).toBe('stopping');
    // The stop is followed to off, in the alert's thread.
    await expect
      .poll(async () => (await bot.store.watches.listActive({ machineId: WORKSTATION.id }))[0]?.threadTs)
      .toBe(placeOf(workstationAlert as ApiCall).ts);
    expect(await bot.store.watches.listActive({ machineId: WORKSTATION.id })).toHaveLength(1);
    await expect
      .poll(() =>
        bot.slack
          .calls('chat.update')
          .filter((call) => call.args.ts === older?.messageTs)
          .map((call) => messageText(call.args))
          .join('\n'),
      )
      .toContain(`a newer stop by <@${USERS.ada.slackId}> took over`);
    const stops = bot.emulator.state
      .requests()
      .slice(requestsBefore)
      .filter((request) => request.method !== 'GET' && request.path.endsWith('/stop'));
    expect(stops.map((request) => request.userId)).toEqual([USERS.ada.emulatorUserId]);
    const audit = await bot.store.audit.list({ ...ada(), limit: 100 });
    expect(audit.map((record) => [record.action, record.resourceId, record.outcome])).toContainEqual([
      'machine.stop',
      WORKSTATION.id,
      'ok',
    ]);

    // Once the machine is off, the alert says so: no "stopping" left in ada's DM.
    const updatesBefore = bot.slack.calls('chat.update').length;
    await tickAfter(5000);
    const place = placeOf(workstationAlert as ApiCall);
    const ofAlert = () =>
      bot.slack
        .calls('chat.update')
        .slice(updatesBefore)
        .filter((call) => call.args.ts === place.ts);
    await expect.poll(() => ofAlert().length).toBe(1);
    const stopped = ofAlert()[0];
    expect(stopped?.args.channel).toBe(place.channel);
    expect(messageText(stopped?.args ?? {})).toContain('*ada-workstation*: stopped ✓');
    expect(messageText(stopped?.args ?? {})).not.toContain('stopping');
    // The rest of the alert (what it cost, when it is asked) is as it was.
    const blocks = stopped?.args.blocks as unknown[];
    const posted = (workstationAlert as ApiCall).args.blocks as unknown[];
    expect(blocks[0]).toEqual(posted[0]);
    expect(blocks.at(-1)).toEqual(posted.at(-1));
  });

  it('Not this machine: never alerted about it again, however long it runs', async () => {
    await tickAfter(5000);
    await power('start', WORKSTATION);
    await tickAfter(5000);
    await tickAfter(8 * HOUR_MS + 10 * MINUTE_MS);
    const [alert] = alertsAbout(WORKSTATION);
    expect(alert).toBeDefined();
    const update = await click(alert as ApiCall, ActionId.costAlertNever, WORKSTATION);
    expect(messageText(update.args)).toContain('never alert you about it again');
    bot.slack.reset();
    // Stopped and started again: still excluded.
    await power('stop', WORKSTATION);
    await tickAfter(5000);
    await power('start', WORKSTATION);
    await tickAfter(5000);
    await tickAfter(24 * HOUR_MS);
    expect(alertsAbout(WORKSTATION)).toHaveLength(0);
  });

  it('/ps alerts sets, shows and turns off the threshold; the workspace default is for Slack workspace admins', async () => {
    const shown = await command('alerts');
    expect(shown.text).toContain('8h');
    expect(shown.text).toContain("the bot's default");

    const set = await command('alerts 2h');
    expect(set.text).toContain('running for 2h (your own setting)');
    await tickAfter(5000);
    await power('stop', RENDER);
    await tickAfter(5000);
    await power('start', RENDER);
    await tickAfter(5000);
    bot.slack.reset();
    await tickAfter(2 * HOUR_MS + 5 * MINUTE_MS);
    expect(alertsAbout(RENDER)).toHaveLength(1);

    const off = await command('alerts off');
    expect(off.text).toContain('off');
    await power('stop', RENDER);
    await tickAfter(5000);
    await power('start', RENDER);
    await tickAfter(5000);
    bot.slack.reset();
    await tickAfter(24 * HOUR_MS);
    expect(alertsAbout(RENDER)).toHaveLength(0);

    // Bad input is answered in the acknowledgement itself.
    const bad = await bot.send(bot.requests.slashCommand({ text: 'alerts soon', userId: USERS.ada.slackId }));
    expect(JSON.stringify(bad.body)).toContain('Invalid threshold');

    // sam is a member of the Orbital team; ada administers her own individual Paperspace account. Neither
    // is an admin of the Slack workspace, which the default applies to.
    for (const person of [USERS.sam, USERS.ada]) {
      const refused = await command('alerts default off', person.slackId);
      expect(refused.text).toContain(
        "⛔ Only Slack workspace admins and owners can set this workspace's default for forgotten-machine alerts",
      );
      expect(refused.text).toContain('`/ps alerts 6h` sets your own');
    }
    expect(await bot.store.costAlerts.teamDefault(bot.slack.teamId)).toBeUndefined();
    const audit = await bot.store.audit.list({ ...ada(), limit: 100 });
    expect(audit.map((record) => [record.action, record.message])).toContainEqual([
      'cost_alert.threshold',
      'off',
    ]);
  });

  it('lets an admin of the Slack workspace set the workspace default, on either API', async () => {
    // Slack's users.info says maya is a workspace admin; so is an owner.
    const set = await command('alerts default 6h', USERS.maya.slackId);
    expect(set.text).toContain('✅');
    expect(await bot.store.costAlerts.teamDefault(bot.slack.teamId)).toBe(6 * HOUR_MS);
    const off = await command('alerts default off', USERS.maya.slackId);
    expect(off.text).toContain('off by default');
    bot.slack.setUser({ id: USERS.sam.slackId, is_owner: true });
    const byOwner = await command('alerts default 2h', USERS.sam.slackId);
    expect(byOwner.text).toContain('✅');
    expect(await bot.store.costAlerts.teamDefault(bot.slack.teamId)).toBe(2 * HOUR_MS);
  });
});

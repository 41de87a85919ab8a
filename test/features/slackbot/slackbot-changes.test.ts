// A change Slackbot asks for: nothing reaches Paperspace until the person it is for clicks Confirm on
// the bot's own message to them; anyone else's click, a second click and a click after ten minutes do
// nothing; the person's click runs it once, through the same path as a card's button, to its completion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROPOSAL_TTL_MS } from '../../../src/features/slackbot/proposals.js';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import type { ApiCall } from '../../support/fake-slack.js';
import {
  confirmationClick,
  confirmationTo,
  connectSlackbot,
  resultText,
  type SlackbotClient,
} from '../../support/slackbot-client.js';
import { SIGNING_SECRET, USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { addSpareMachine, textOf } from '../machines/machine-kit.js';

const clock = createFakeClock();
const bot = useTestBot({
  now: clock.now,
  emulator: { now: clock.now, transitionMs: 2000 },
  linked: ['ada', 'maya', 'sam'],
});
let slackbot: SlackbotClient;
beforeAll(async () => {
  slackbot = await connectSlackbot(bot.url, SIGNING_SECRET);
});
afterAll(async () => {
  await slackbot.close();
});

const ADA = USERS.ada.slackId;
const SAM = USERS.sam.slackId;
const as = (userId: string) => ({ user_id: userId, team_id: 'T0FAKE' });

/** Paperspace's power calls on a machine (start, stop, restart), whatever the dialect's path. */
const powerCalls = (machineId: string) =>
  bot.emulator.state
    .requests()
    .filter((request) => request.path.includes(machineId) && /\/(start|stop|restart)$/.test(request.path));

/** The bot's message to `userId` that carries Confirm, once it is posted. */
const confirmationFor = (userId: string) => confirmationTo(bot.slack, userId);

/** A click on a button of the confirmation by `userId`; answers the request, for what they were told. */
async function click(
  confirmation: ApiCall,
  actionId: typeof ActionId.slackbotConfirm | typeof ActionId.slackbotCancel,
  userId: string,
) {
  const request = confirmationClick(bot.slack, bot.requests, confirmation, actionId, userId);
  await bot.send(request);
  return request;
}

const stopCall = (machineId: string) => powerCalls(machineId).filter((call) => call.path.endsWith('/stop'));

describe("Slackbot's change tools", () => {
  it('proposes a stop, sends the person a confirmation, and calls Paperspace only on their Confirm, once', async () => {
    const machine = addSpareMachine(bot, { prefix: 'slackbot-stop-', state: 'ready' });
    const result = await slackbot.call('stop_machine', { machine: machine.name }, as(ADA));

    expect(result.isError).toBeUndefined();
    expect(resultText(result)).toMatch(/I sent you a confirmation in Slack/);
    const confirmation = await confirmationFor(ADA);
    expect(textOf(confirmation.args.blocks)).toContain(machine.name);
    expect(textOf(confirmation.args.blocks)).toContain(ActionId.slackbotCancel);
    expect(powerCalls(machine.id)).toEqual([]);

    // Sam sees the message (a test can send any click): his click does nothing.
    const samsClick = await click(confirmation, ActionId.slackbotConfirm, SAM);
    const told = await bot.slack.waitForResponse(samsClick.responseUrlId ?? '');
    expect(textOf(told)).toContain(`only they can confirm`);
    expect(powerCalls(machine.id)).toEqual([]);

    await click(confirmation, ActionId.slackbotConfirm, ADA);
    await expect.poll(() => stopCall(machine.id).length).toBe(1);
    expect(stopCall(machine.id)[0]?.userId).toBe(USERS.ada.emulatorUserId);
    // The card of the stop is posted where the Confirm was, and the watch follows it to its completion.
    const card = await bot.slack.waitFor(
      (call) => call.method === 'chat.postMessage' && textOf(call.args.blocks).includes(`Stopping`),
    );
    expect(card.args.channel).toBe(confirmation.answer?.channel);
    await expect.poll(() => bot.watchRequests.some((watch) => watch.machineId === machine.id)).toBe(true);
    for (let tick = 0; tick < 3; tick += 1) {
      await bot.scheduler.tick();
      clock.advance(5000);
    }
    await bot.scheduler.tick();
    await expect
      .poll(() =>
        bot.slack
          .calls('chat.postMessage')
          .some((call) => textOf(call.args).includes(`*${machine.name}* is ⚫ Off`)),
      )
      .toBe(true);

    // A second Confirm (a double click, a retry) runs nothing more.
    const again = await click(confirmation, ActionId.slackbotConfirm, ADA);
    const answer = await bot.slack.waitForResponse(again.responseUrlId ?? '', { count: 1 });
    expect(textOf(answer)).toMatch(/Already confirmed/);
    expect(stopCall(machine.id)).toHaveLength(1);

    const audit = await bot.store.audit.list({ teamId: 'T0FAKE', userId: ADA, limit: 10 });
    expect(audit.map((record) => record.action)).toEqual(
      expect.arrayContaining(['slackbot.stop_machine', 'slackbot.confirm.stop', 'machine.stop']),
    );
  });

  it('does nothing once cancelled, and a Confirm after that does nothing either', async () => {
    const machine = addSpareMachine(bot, { prefix: 'slackbot-cancel-', state: 'off' });
    bot.slack.reset();
    await slackbot.call('start_machine', { machine: machine.name }, as(ADA));
    const confirmation = await confirmationFor(ADA);
    await click(confirmation, ActionId.slackbotCancel, ADA);
    await expect
      .poll(() =>
        bot.slack.calls('chat.update').some((call) => textOf(call.args).includes('Cancelled by you')),
      )
      .toBe(true);
    await click(confirmation, ActionId.slackbotConfirm, ADA);
    await expect
      .poll(() =>
        bot.slack.calls('chat.update').some((call) => textOf(call.args).includes('Already cancelled')),
      )
      .toBe(true);
    expect(powerCalls(machine.id)).toEqual([]);
  });

  it('expires after ten minutes: a late Confirm says so and does nothing', async () => {
    const machine = addSpareMachine(bot, { prefix: 'slackbot-late-', state: 'off' });
    bot.slack.reset();
    await slackbot.call('start_machine', { machine: machine.name }, as(ADA));
    const confirmation = await confirmationFor(ADA);
    clock.advance(PROPOSAL_TTL_MS + 1000);
    await click(confirmation, ActionId.slackbotConfirm, ADA);
    await expect
      .poll(() =>
        bot.slack.calls('chat.update').some((call) => textOf(call.args).includes('This request expired')),
      )
      .toBe(true);
    expect(powerCalls(machine.id)).toEqual([]);
  });

  it("runs with the key of the person it was proposed for: Sam's start starts his machine; Ada's stop of it finds nothing", async () => {
    bot.slack.reset();
    const mark = bot.emulator.state.requests().length;
    await slackbot.call('start_machine', { machine: 'sam-dev' }, as(SAM));
    const samsConfirmation = await confirmationFor(SAM);
    expect(bot.emulator.state.requests().length).toBe(mark);
    await click(samsConfirmation, ActionId.slackbotConfirm, SAM);
    await expect.poll(() => powerCalls('psorb004').length).toBe(1);

    // Ada has no access to Sam's machine: her Confirm finds no such machine and starts nothing.
    bot.slack.reset();
    await slackbot.call('stop_machine', { machine: 'sam-dev' }, as(ADA));
    const adas = await confirmationFor(ADA);
    const adasClick = await click(adas, ActionId.slackbotConfirm, ADA);
    const told = await bot.slack.waitForResponse(adasClick.responseUrlId ?? '');
    expect(textOf(told)).toContain('sam-dev');
    expect(powerCalls('psorb004').filter((call) => call.path.endsWith('/stop'))).toEqual([]);
  });
});

// Slack's real refusals, sent by the fake Slack: the machine operation and its watch never depend on
// the card, and the person always reads what actually happened to the machine.
import type { ViewStateValue } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { DestroyMachineFields as F } from '../../../src/features/machines/blocks/destroy-machine-modal.js';
import { ActionId, CallbackId, MachineOverflowOption } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { addSpareMachine, cardBlockId, eventually, settle, textOf } from './machine-kit.js';

const clock = createFakeClock();
const ADA = USERS.ada.slackId;
const CHANNEL = 'C0LOCKED';

const bot = useTestBot({ emulator: { now: clock.now }, linked: ['ada'] });

const spareMachine = (state: 'off' | 'ready' = 'off') => addSpareMachine(bot, { prefix: 'refused-', state });
const watchOf = (machineId: string) =>
  eventually(() => bot.watchRequests.find((request) => request.machineId === machineId));

async function startIn(channel: string, name: string) {
  const request = bot.requests.slashCommand({ text: `start ${name}`, userId: ADA, channelId: channel });
  await bot.send(request);
  return request.responseUrlId ?? '';
}

describe('a card Slack will not post', () => {
  it.each([
    'restricted_action',
    'posting_to_general_channel_denied',
    'restricted_action_read_only_channel',
    'restricted_action_thread_only_channel',
  ])(
    'still starts and watches the machine, and tells the person when the channel and DM refuse with %s',
    async (error) => {
      const machine = spareMachine();
      bot.slack.script('chat.postMessage', { error, times: 2 });
      const responseUrl = await startIn(CHANNEL, machine.name);

      const told = await bot.slack.waitForResponse(responseUrl);
      expect(bot.emulator.state.machine(machine.id)?.state).toBe('starting');
      const watch = await watchOf(machine.id);
      // No card to follow: the completion goes to the channel, and down the fallback chain from there.
      expect(watch).toMatchObject({ channel: CHANNEL, targetState: 'serviceready' });
      expect(watch.messageTs).toBeUndefined();
      expect(told.response_type).toBe('ephemeral');
      expect(told.text).toContain(`Slack refused the card of ${machine.name}`);
      expect(told.text).toContain(error);
      expect(told.text).toContain('I am watching');
      expect(textOf(told.blocks)).toContain('requested by');
      expect(told.text).not.toMatch(/try again/i);
    },
  );

  it('posts the words alone when Slack refuses the blocks', async () => {
    const machine = spareMachine();
    bot.slack.script('chat.postMessage', { error: 'invalid_blocks' });
    await startIn('C0OPS', machine.name);

    const posted = await eventually(() => bot.slack.calls('chat.postMessage')[1]);
    expect(posted.args).toMatchObject({ channel: 'C0OPS' });
    expect(posted.args.blocks).toBeUndefined();
    const watch = await watchOf(machine.id);
    expect(watch.messageTs).toMatch(/^\d+\.\d+$/);
  });

  it('waits out a 429 on the card and posts it in the same channel, not the DM', async () => {
    const machine = spareMachine();
    bot.slack.script('chat.postMessage', { channel: 'C0BUSY', status: 429, retryAfterSeconds: 1 });
    await startIn('C0BUSY', machine.name);

    const watch = await watchOf(machine.id);
    expect(watch.channel).toBe('C0BUSY');
    expect(watch.messageTs).toMatch(/^\d+\.\d+$/);
    const cardPosts = bot.slack.calls('chat.postMessage').filter((call) => call.args.channel === 'C0BUSY');
    expect(cardPosts.map((call) => call.answer?.ok ?? false)).toEqual([false, true]);
  });

  it("puts the card in the person's DM, saying which channel would not take it, when that channel keeps rate limiting", async () => {
    const machine = spareMachine();
    // Slack asks for longer than a post may wait: the card gives up on the channel at once.
    bot.slack.script('chat.postMessage', {
      channel: 'C0BUSY',
      status: 429,
      retryAfterSeconds: 120,
      times: Number.POSITIVE_INFINITY,
    });
    const responseUrl = await startIn('C0BUSY', machine.name);

    const told = await bot.slack.waitForResponse(responseUrl);
    expect(told.text).toContain(
      `Slack kept asking me to wait before posting in this conversation (rate limited)`,
    );
    expect(told.text).toContain(`the card of ${machine.name} is in our direct messages`);
    const inDm = bot.slack.calls('chat.postMessage').find((call) => call.answer?.ok === true);
    expect(inDm?.args.channel).toBe(ADA);
    expect(String(inDm?.args.text)).toContain(
      'Slack kept asking me to wait before posting this in <#C0BUSY>',
    );
    expect(textOf(inDm?.args.blocks)).toContain(machine.name);
    // The completion follows the card where it is.
    const watch = await watchOf(machine.id);
    expect(watch).toMatchObject({ channel: inDm?.answer?.channel, messageTs: inDm?.answer?.ts });
  });

  it('never posts a card twice when Slack answers with an HTTP error, and says the card may be missing', async () => {
    const machine = spareMachine();
    bot.slack.script('chat.postMessage', { status: 500 });
    const responseUrl = await startIn('C0OPS', machine.name);

    const told = await bot.slack.waitForResponse(responseUrl);
    await settle();
    expect(bot.slack.calls('chat.postMessage')).toHaveLength(1);
    expect(told.text).toContain('Slack did not confirm the card');
    expect(told.text).toContain('Slack had an internal problem');
    expect(await watchOf(machine.id)).toMatchObject({ channel: 'C0OPS' });
  });
});

type ModalView = { callback_id: string; private_metadata: string };

function confirmation(typedName: string): Record<string, Record<string, ViewStateValue>> {
  return {
    [F.confirmName.blockId]: { [F.confirmName.actionId]: { type: 'plain_text_input', value: typedName } },
    [F.releasePublicIp.blockId]: {
      [F.releasePublicIp.actionId]: { type: 'checkboxes', selected_options: [] },
    },
  };
}

describe('after a change that succeeded', () => {
  it('reports a destroy as done when the card it was opened from is gone', async () => {
    const machine = spareMachine('ready');
    await bot.send(
      bot.requests.blockAction({
        actionId: ActionId.machineOverflow,
        elementType: 'overflow',
        selectedOption: { value: MachineOverflowOption.destroy },
        blockId: cardBlockId(machine.id),
        userId: ADA,
        channelId: 'C0OPS',
        message: { ts: '1600000000.000321' },
      }),
    );
    const view = (await bot.slack.waitFor('views.update')).args.view as ModalView;
    bot.slack.fail('chat.update', 'message_not_found');
    await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.destroyMachine,
        userId: ADA,
        privateMetadata: view.private_metadata,
        values: confirmation(machine.name),
      }),
    );
    const news = await bot.slack.waitFor('chat.postMessage');
    expect(news.args.text).toContain('destroyed by');
    await settle();
    expect(bot.emulator.state.machine(machine.id)).toBeUndefined();
    const privately = bot.slack.calls('chat.postEphemeral').map((call) => String(call.args.text));
    expect(privately.filter((text) => /fail|could not|went wrong/i.test(text))).toEqual([]);
  });

  it("answers a modal in the person's DM when the channel refuses the ephemeral answer", async () => {
    const metadata = JSON.stringify({
      channelId: 'C0GONE',
      machineId: 'psorb003',
      machineName: 'sam-desktop',
    });
    bot.slack.script('chat.postEphemeral', { error: 'user_not_in_channel' });
    await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.destroyMachine,
        userId: ADA,
        privateMetadata: bot.sealMetadata(metadata),
        values: confirmation('sam-desktop'),
      }),
    );
    const dm = await bot.slack.waitFor(
      (call) => call.method === 'chat.postMessage' && call.args.channel === ADA,
    );
    expect(String(dm.args.text)).toContain('psorb003');
  });

  it("answers in the person's DM when the response_url refuses the answer", async () => {
    const request = bot.requests.slashCommand({
      text: 'start no-such-machine',
      userId: ADA,
      channelId: 'C0OPS',
    });
    bot.slack.script('response_url', { channel: request.responseUrlId ?? '', status: 404 });
    await bot.send(request);
    const fallback = await bot.slack.waitFor('chat.postEphemeral');
    expect(fallback.args).toMatchObject({ channel: 'C0OPS', user: ADA });
    expect(String(fallback.args.text)).toContain('no-such-machine');
  });
});

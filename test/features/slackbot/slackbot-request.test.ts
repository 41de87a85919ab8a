// Asking Slackbot for a machine: once the member confirms it, it takes the path of `/ps create` with
// the same values (a region code as typed), and the request reaches the team's administrators; nothing
// is created in Paperspace on the way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import {
  confirmationClick,
  connectSlackbot,
  resultText,
  type SlackbotClient,
} from '../../support/slackbot-client.js';
import { SIGNING_SECRET, USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { textOf } from '../machines/machine-kit.js';

const BILLING = process.env.TEST_PAPERSPACE_DIALECT === 'v1' ? {} : { billingType: 'hourly' };
const SAM = USERS.sam.slackId;
const MAYA = USERS.maya.slackId;

const bot = useTestBot({ linked: ['maya', 'sam'] });
let slackbot: SlackbotClient;
beforeAll(async () => {
  slackbot = await connectSlackbot(bot.url, SIGNING_SECRET);
});
afterAll(async () => {
  await slackbot.close();
});

type Block = { type: string; elements?: { action_id?: string; value?: string }[] };

describe('request_machine', () => {
  it("sends a member's request to the administrators once confirmed, and creates nothing", async () => {
    const machines = bot.emulator.state.machines().length;
    const result = await slackbot.call(
      'request_machine',
      {
        params: {
          machineName: 'sam-slackbot-gpu',
          region: 'CA1',
          machineType: 'C4',
          size: '50',
          templateId: 't04azgph',
          ...BILLING,
        },
      },
      { user_id: SAM, team_id: 'T0FAKE' },
    );
    expect(resultText(result)).toMatch(/I sent you a confirmation/);
    const confirmation = await bot.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' &&
        call.args.channel === SAM &&
        textOf(call.args).includes('sam-slackbot-gpu'),
    );
    const click = confirmationClick(bot.slack, bot.requests, confirmation, ActionId.slackbotConfirm, SAM);
    await bot.send(click);
    // Confirmed, it takes the path of /ps create: Paperspace refuses a member, who is offered the request.
    const offer = await bot.slack.waitForResponse(click.responseUrlId ?? '');
    const send = ((offer.blocks ?? []) as Block[])
      .flatMap((block) => block.elements ?? [])
      .find((element) => element.action_id === ActionId.requestCreate)?.value;
    expect(send).toBeDefined();
    await bot.send(
      bot.requests.blockAction({
        actionId: ActionId.requestCreate,
        value: send ?? '',
        userId: SAM,
        channelId: String(confirmation.answer?.channel),
      }),
    );
    const toMaya = await bot.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' &&
        call.args.channel === MAYA &&
        textOf(call.args.blocks).includes('sam-slackbot-gpu'),
    );
    expect(textOf(toMaya.args.blocks)).toContain(`For: <@${SAM}>`);
    expect(bot.emulator.state.machines().length).toBe(machines);
  });
});

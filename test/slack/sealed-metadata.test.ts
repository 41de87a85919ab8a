// What the bot puts into a modal's private_metadata comes back sealed with an HMAC, and a signed
// submission whose metadata was forged or changed does nothing: no machine destroyed, no message
// edited or posted in the channel the forgery names, and the person is told to start again.
import type { ViewStateValue } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { DestroyMachineFields as F } from '../../src/features/machines/blocks/destroy-machine-modal.js';
import { CallbackId } from '../../src/slack/ids.js';
import { FORGED_METADATA_TEXT } from '../../src/slack/sealed-views.js';
import { addSpareMachine, settle, textOf } from '../features/machines/machine-kit.js';
import { USERS } from '../support/test-bot.js';
import { useTestBot } from '../support/use-test-bot.js';

const ADA = USERS.ada.slackId;
const CHANNEL = 'C0OPS';
const VICTIM_CHANNEL = 'C0VICTIM';
const VICTIM_MESSAGE = '1700000000.000100';

const bot = useTestBot({ linked: ['ada'] });

type ModalView = { callback_id: string; private_metadata: string };

const confirmation = (name: string): Record<string, Record<string, ViewStateValue>> => ({
  [F.confirmName.blockId]: { [F.confirmName.actionId]: { type: 'plain_text_input', value: name } },
  [F.releasePublicIp.blockId]: { [F.releasePublicIp.actionId]: { type: 'checkboxes', selected_options: [] } },
});

/** Opens the destroy confirmation of a fresh machine and returns it with the metadata Slack got. */
async function openDestroy() {
  const machine = addSpareMachine(bot, { prefix: 'sealed-', state: 'ready' });
  await bot.send(
    bot.requests.slashCommand({ text: `destroy ${machine.name}`, userId: ADA, channelId: CHANNEL }),
  );
  const view = (await bot.slack.waitFor('views.update')).args.view as ModalView;
  bot.slack.reset();
  return { machine, sealed: view.private_metadata };
}

async function submit(privateMetadata: string, name: string) {
  return bot.send(
    bot.requests.viewSubmission({
      callbackId: CallbackId.destroyMachine,
      userId: ADA,
      privateMetadata,
      values: confirmation(name),
    }),
  );
}

/** Nothing reached the channel or message the forged metadata named. */
function victimUntouched() {
  const touched = bot.slack
    .calls()
    .filter((call) => call.args.channel === VICTIM_CHANNEL || call.args.ts === VICTIM_MESSAGE);
  expect(touched).toEqual([]);
}

describe('sealed private_metadata', () => {
  it('sends the metadata to Slack sealed, and a genuine submission still destroys the machine', async () => {
    const { machine, sealed } = await openDestroy();
    expect(sealed).toMatch(/^[\w-]{43}\.\{/);
    expect(JSON.parse(sealed.slice(44))).toMatchObject({ channelId: CHANNEL, machineId: machine.id });

    const response = await submit(sealed, machine.name);
    expect(response.body ?? {}).toEqual({});
    await bot.slack.waitFor('chat.postMessage');
    expect(bot.emulator.state.machine(machine.id)).toBeUndefined();
  });

  it.each([
    [
      'the channel changed under the seal',
      (sealed: string) =>
        sealed.replace(
          `"channelId":"${CHANNEL}"`,
          `"channelId":"${VICTIM_CHANNEL}","messageTs":"${VICTIM_MESSAGE}"`,
        ),
    ],
    [
      'plain JSON without a seal',
      (sealed: string) =>
        JSON.stringify({
          ...JSON.parse(sealed.slice(44)),
          channelId: VICTIM_CHANNEL,
          messageTs: VICTIM_MESSAGE,
        }),
    ],
    ['a seal made with another key', (sealed: string) => `${'A'.repeat(43)}${sealed.slice(43)}`],
  ])('refuses %s: destroys nothing, posts nowhere, and says the form is not valid', async (_case, forge) => {
    const { machine, sealed } = await openDestroy();
    const response = await submit(forge(sealed), machine.name);

    expect(response.body).toMatchObject({ response_action: 'update' });
    expect(textOf(response.body)).toContain(FORGED_METADATA_TEXT.slice(0, 40));
    await settle(300);
    expect(bot.emulator.state.machine(machine.id)).toBeDefined();
    victimUntouched();
    expect(bot.slack.calls('chat.postMessage')).toEqual([]);
    expect(await bot.store.audit.list({ resourceId: machine.id, limit: 1 })).toEqual([]);
    const logged = bot.logText();
    expect(logged).toContain('refused a view whose private_metadata this bot did not seal');
  });
});

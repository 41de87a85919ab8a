// Correctly signed requests whose contents the bot never wrote: a client (or a person replaying a
// request with edits) can send anything in button values, form fields and private_metadata. Each gets
// an answer that says nothing was done and why, on the surface it came from; none gets a bare 500.
import type { ViewStateValue } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { DestroyMachineFields as F } from '../../src/features/machines/blocks/destroy-machine-modal.js';
import { ActionId, CallbackId } from '../../src/slack/ids.js';
import { USERS } from '../support/test-bot.js';
import { useTestBot } from '../support/use-test-bot.js';

const bot = useTestBot({ linked: ['ada'] });
const ADA = USERS.ada.slackId;

function destroyValues(selectedOptions: unknown): Record<string, Record<string, ViewStateValue>> {
  return {
    [F.confirmName.blockId]: { [F.confirmName.actionId]: { type: 'plain_text_input', value: 'ada-render' } },
    [F.releasePublicIp.blockId]: {
      [F.releasePublicIp.actionId]: {
        type: 'checkboxes',
        selected_options: selectedOptions as ViewStateValue['selected_options'],
      },
    },
  };
}

/** The text of the modal a submission was answered with, when it was answered with one pushed on top. */
function pushedText(body: unknown): string {
  const answer = body as { response_action?: string; view?: { blocks?: { text?: { text?: string } }[] } };
  expect(answer.response_action).toBe('push');
  return (answer.view?.blocks ?? []).map((block) => block.text?.text ?? '').join('\n');
}

describe('a signed request carrying what the bot never wrote', () => {
  it('a destroy form with empty private_metadata is answered over the form, and nothing is destroyed', async () => {
    const before = bot.emulator.state.machines().length;
    const response = await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.destroyMachine,
        userId: ADA,
        privateMetadata: '',
        values: destroyValues([]),
      }),
    );
    expect(response.status).toBe(200);
    expect(pushedText(response.body)).toContain('Slack sent back this form in a form I never write');
    expect(bot.emulator.state.machines()).toHaveLength(before);
  });

  it('a malformed checkbox value is named, not answered with 500', async () => {
    const response = await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.destroyMachine,
        userId: ADA,
        privateMetadata: bot.sealMetadata(
          JSON.stringify({ machineId: 'psada001', machineName: 'ada-render' }),
        ),
        values: destroyValues([null]),
      }),
    );
    expect(response.status).toBe(200);
    expect(pushedText(response.body)).toContain('the ticked boxes of this form');
    expect(bot.logText()).toContain('selected_options is malformed');
  });

  it('a button whose value is not what the bot wrote is answered privately where it was clicked', async () => {
    const request = bot.requests.blockAction({
      actionId: ActionId.machineStart,
      value: '{"not":"a machine"}',
      userId: ADA,
      channelId: 'C0OPS',
    });
    const response = await bot.send(request);
    expect(response.status).toBe(200);
    const answer = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(answer).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(String(answer.text)).toContain('Machine button value');
    expect(bot.emulator.state.requests().filter((call) => call.method !== 'GET')).toEqual([]);
  });
});

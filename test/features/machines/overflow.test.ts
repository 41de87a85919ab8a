import { describe, expect, it } from 'vitest';
import { decodeModalMetadata } from '../../../src/slack/block-kit/modal-metadata.js';
import { ActionId, CallbackId, MachineOverflowOption } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { cardBlockId, textOf } from './machine-kit.js';

const clock = createFakeClock();
const ADA = USERS.ada.slackId;
const CHANNEL = 'C0OPS';

const bot = useTestBot({ emulator: { now: clock.now }, linked: ['ada'] });

function chooseFromOverflow(option: string, machineId: string, extra: { userId?: string; ts?: string } = {}) {
  return bot.requests.blockAction({
    actionId: ActionId.machineOverflow,
    elementType: 'overflow',
    selectedOption: { value: option },
    blockId: cardBlockId(machineId),
    userId: extra.userId ?? ADA,
    channelId: CHANNEL,
    message: { ts: extra.ts ?? '1600000000.000500' },
  });
}

describe('the machine card overflow', () => {
  it.each([
    [MachineOverflowOption.settings, CallbackId.updateMachine],
    [MachineOverflowOption.access, CallbackId.machineAccess],
    [MachineOverflowOption.destroy, CallbackId.destroyMachine],
  ])('opens the %s modal for the machine of the card, remembering the card', async (option, callbackId) => {
    const action = chooseFromOverflow(option, 'psada003', { ts: '1600000000.000501' });
    await bot.send(action);
    const opened = await bot.slack.waitFor('views.open');
    expect(opened.args.trigger_id).toBe((action.payload as { trigger_id: string }).trigger_id);
    expect(textOf(opened.args.view)).toContain('Loading the machine');
    const filled = await bot.slack.waitFor('views.update');
    const view = filled.args.view as { callback_id: string; private_metadata: string };
    expect(view.callback_id).toBe(callbackId);
    expect(decodeModalMetadata(bot.openMetadata(view.private_metadata))).toMatchObject({
      channelId: CHANNEL,
      messageTs: '1600000000.000501',
      machineId: 'psada003',
      machineName: 'ada-render',
    });
  });

  it("replaces the loading modal with the reason when the machine cannot be read with the clicker's key", async () => {
    await bot.send(chooseFromOverflow(MachineOverflowOption.settings, 'psorb001'));
    const filled = await bot.slack.waitFor('views.update');
    const view = filled.args.view as { callback_id?: string; blocks: unknown[] };
    expect(view.callback_id).toBeUndefined();
    expect(textOf(view.blocks)).toContain('Paperspace has no machine with id \\"psorb001\\"');
  });

  it('shows the login prompt instead of a modal to a clicker who linked no key', async () => {
    const action = chooseFromOverflow(MachineOverflowOption.destroy, 'psada003', { userId: 'U0STRANGER' });
    await bot.send(action);
    const reply = await bot.slack.waitForResponse(action.responseUrlId ?? '');
    expect(textOf(reply.blocks)).toContain(ActionId.login);
    expect(bot.slack.calls('views.open')).toEqual([]);
  });
});

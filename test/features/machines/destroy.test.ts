import type { ViewStateValue } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import {
  DestroyMachineOptions,
  DestroyMachineFields as F,
} from '../../../src/features/machines/blocks/destroy-machine-modal.js';
import { ActionId, CallbackId, MachineOverflowOption } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { addSpareMachine, auditOf, cardBlockId, settle, textOf } from './machine-kit.js';

const clock = createFakeClock();
const ADA = USERS.ada.slackId;
const CHANNEL = 'C0OPS';

const bot = useTestBot({ emulator: { now: clock.now }, linked: ['ada'] });

const spareMachine = () => addSpareMachine(bot, { prefix: 'doomed', state: 'ready' });

type ModalView = { callback_id: string; private_metadata: string; blocks: unknown[] };

function confirmation(typedName: string, release = false): Record<string, Record<string, ViewStateValue>> {
  const option = {
    text: { type: 'plain_text' as const, text: 'Release' },
    value: DestroyMachineOptions.releasePublicIp,
  };
  return {
    [F.confirmName.blockId]: { [F.confirmName.actionId]: { type: 'plain_text_input', value: typedName } },
    [F.releasePublicIp.blockId]: {
      [F.releasePublicIp.actionId]: { type: 'checkboxes', selected_options: release ? [option] : [] },
    },
  };
}

describe('/ps destroy', () => {
  it('opens the confirmation modal with the command trigger, the release box ticked for --release-ip', async () => {
    const machine = spareMachine();
    const command = bot.requests.slashCommand({
      text: `destroy ${machine.name} --release-ip`,
      userId: ADA,
      channelId: CHANNEL,
    });
    await bot.send(command);
    const opened = await bot.slack.waitFor('views.open');
    expect(opened.args.trigger_id).toBe(command.payload.trigger_id);
    const filled = await bot.slack.waitFor('views.update');
    const view = filled.args.view as Omit<ModalView, 'blocks'> & {
      blocks: { block_id?: string; element?: unknown }[];
    };
    expect(view.callback_id).toBe(CallbackId.destroyMachine);
    const release = view.blocks.find((block) => block.block_id === F.releasePublicIp.blockId);
    expect(textOf(release?.element)).toContain('initial_options');
    expect(bot.emulator.state.machine(machine.id)).toBeDefined();
  });

  it('destroys nothing when the typed name is wrong, and says so on the field', async () => {
    const machine = spareMachine();
    await bot.send(
      bot.requests.slashCommand({ text: `destroy ${machine.name}`, userId: ADA, channelId: CHANNEL }),
    );
    const view = (await bot.slack.waitFor('views.update')).args.view as ModalView;
    const response = await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.destroyMachine,
        userId: ADA,
        privateMetadata: view.private_metadata,
        values: confirmation(machine.name.toUpperCase()),
      }),
    );
    expect(response.body).toEqual({
      response_action: 'errors',
      errors: {
        [F.confirmName.blockId]:
          `That is not the machine's name. Type ${machine.name} exactly to destroy it.`,
      },
    });
    await settle();
    expect(bot.emulator.state.machine(machine.id)).toBeDefined();
    expect(await bot.store.audit.list({ resourceId: machine.id, limit: 1 })).toEqual([]);
  });

  it('destroys the machine when the name matches, audits it and says who did it in the channel', async () => {
    const machine = spareMachine();
    await bot.send(
      bot.requests.slashCommand({ text: `destroy ${machine.name}`, userId: ADA, channelId: CHANNEL }),
    );
    const view = (await bot.slack.waitFor('views.update')).args.view as ModalView;
    bot.slack.reset();
    const response = await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.destroyMachine,
        userId: ADA,
        privateMetadata: view.private_metadata,
        values: confirmation(machine.name, true),
      }),
    );
    expect(response.body ?? {}).toEqual({});
    const post = await bot.slack.waitFor('chat.postMessage');
    expect(post.args.channel).toBe(CHANNEL);
    expect(post.args.text).toBe(`🗑️ *${machine.name}* destroyed by <@${ADA}>`);
    expect(bot.emulator.state.machine(machine.id)).toBeUndefined();
    expect(await auditOf(bot, machine.id)).toMatchObject({
      action: 'machine.destroy',
      outcome: 'ok',
      userId: ADA,
    });
    const destroyCall = bot.emulator.state
      .requests()
      .findLast((entry) => entry.path.endsWith('/destroyMachine'));
    expect(destroyCall?.status).toBe(204);
    // No card was involved, so nothing is updated.
    expect(bot.slack.calls('chat.update')).toEqual([]);
  });

  it("destroys from a card's overflow and replaces that card", async () => {
    const machine = spareMachine();
    const ts = '1600000000.000321';
    await bot.send(
      bot.requests.blockAction({
        actionId: ActionId.machineOverflow,
        elementType: 'overflow',
        selectedOption: { value: MachineOverflowOption.destroy },
        blockId: cardBlockId(machine.id),
        userId: ADA,
        channelId: CHANNEL,
        message: { ts },
      }),
    );
    const view = (await bot.slack.waitFor('views.update')).args.view as ModalView;
    expect(view.callback_id).toBe(CallbackId.destroyMachine);
    await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.destroyMachine,
        userId: ADA,
        privateMetadata: view.private_metadata,
        values: confirmation(machine.name),
      }),
    );
    const card = await bot.slack.waitFor('chat.update');
    expect(card.args).toMatchObject({ channel: CHANNEL, ts });
    expect(textOf(card.args.blocks)).toContain('destroyed by');
    expect(textOf(card.args.blocks)).not.toContain(ActionId.machineStop);
    expect(bot.emulator.state.machine(machine.id)).toBeUndefined();
  });

  it('tells the submitter privately when Paperspace refuses, and destroys nothing', async () => {
    await bot.link('sam');
    const samName = 'sam-desktop';
    const metadata = JSON.stringify({ channelId: CHANNEL, machineId: 'psorb003', machineName: samName });
    await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.destroyMachine,
        userId: ADA,
        privateMetadata: bot.sealMetadata(metadata),
        values: confirmation(samName),
      }),
    );
    const note = await bot.slack.waitFor('chat.postEphemeral');
    expect(note.args).toMatchObject({ channel: CHANNEL, user: ADA });
    expect(String(note.args.text)).toContain('psorb003');
    expect(bot.emulator.state.machine('psorb003')).toBeDefined();
    expect(await auditOf(bot, 'psorb003')).toMatchObject({ action: 'machine.destroy', outcome: 'error' });
  });
});

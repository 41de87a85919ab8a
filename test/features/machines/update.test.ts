import type { ViewStateValue } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { UpdateMachineFields as F } from '../../../src/features/machines/blocks/update-machine-modal.js';
import { DEFAULT_MAX_RETRIES } from '../../../src/paperspace/client.js';
import { ActionId, CallbackId, MachineOverflowOption } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { addSpareMachine, auditOf, cardBlockId, textOf } from './machine-kit.js';

const clock = createFakeClock();
const ADA = USERS.ada.slackId;
const CHANNEL = 'C0OPS';

const bot = useTestBot({ emulator: { now: clock.now }, linked: ['ada'] });

const spareMachine = () => addSpareMachine(bot, { prefix: 'settings' });

describe('/ps update', () => {
  it('changes the settings typed as key=value, audits it and answers with the refreshed card', async () => {
    const machine = spareMachine();
    const request = bot.requests.slashCommand({
      text: `update ${machine.name} shutdownTimeoutInHours=3 shutdownTimeoutForces=yes autoSnapshotFrequency=day`,
      userId: ADA,
    });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text).toContain(`Updated *${machine.name}*`);
    expect(reply.text).toContain('`shutdownTimeoutInHours`');
    expect(textOf(reply.blocks)).toContain(ActionId.machineStart);
    expect(bot.emulator.state.machine(machine.id)).toMatchObject({
      shutdownTimeoutInHours: 3,
      shutdownTimeoutForces: true,
      autoSnapshotFrequency: 'day',
    });
    expect(await auditOf(bot, machine.id)).toMatchObject({
      action: 'machine.update',
      outcome: 'ok',
      userId: ADA,
    });
  });

  it('reports a change Paperspace accepted as done when reading the machine back fails, never as refused', async () => {
    const machine = spareMachine();
    // Every try of the re-read fails, retries included.
    bot.emulator.state.failNextRequests({
      count: DEFAULT_MAX_RETRIES + 1,
      status: 503,
      path: bot.dialect === 'v1' ? `/v1/machines/${machine.id}` : '/machines/getMachinePublic',
    });
    const request = bot.requests.slashCommand({
      text: `update ${machine.name} shutdownTimeoutInHours=4`,
      userId: ADA,
    });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '', { timeoutMs: 20_000 });
    expect(reply.text).toContain(`✅ Updated *${machine.name}*: \`shutdownTimeoutInHours\`.`);
    expect(reply.text).toContain('I could not read it back to refresh its card');
    expect(reply.text).toContain(`\`/ps show ${machine.name}\` shows it as it is now`);
    expect(reply.text).not.toMatch(/refused|failed/i);
    expect(bot.emulator.state.machine(machine.id)?.shutdownTimeoutInHours).toBe(4);
    expect(await auditOf(bot, machine.id)).toMatchObject({ action: 'machine.update', outcome: 'ok' });
  }, 30_000);

  it('refuses a name another machine already has, whatever its case, and renames nothing', async () => {
    const machine = spareMachine();
    const request = bot.requests.slashCommand({
      text: `update ${machine.name} machineName=ADA-Render`,
      userId: ADA,
    });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.text).toContain('Another machine is already called ada-render');
    expect(bot.emulator.state.machine(machine.id)?.name).toBe(machine.name);
    // Both names still find their machine.
    const show = bot.requests.slashCommand({ text: 'show ada-render', userId: ADA });
    await bot.send(show);
    expect(textOf((await bot.slack.waitForResponse(show.responseUrlId ?? '')).blocks)).toContain('psada003');
  });

  it('clears a setting given as none', async () => {
    const machine = spareMachine();
    const request = bot.requests.slashCommand({
      text: `update ${machine.name} autoSnapshotFrequency=none`,
      userId: ADA,
    });
    await bot.send(request);
    await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(bot.emulator.state.machine(machine.id)?.autoSnapshotFrequency).toBeNull();
  });

  it('names the key whose value is wrong and changes nothing', async () => {
    const machine = spareMachine();
    const before = bot.emulator.state.requests().length;
    const request = bot.requests.slashCommand({
      text: `update ${machine.name} shutdownTimeoutForces=maybe`,
      userId: ADA,
    });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.text).toContain('shutdownTimeoutForces must be true or false');
    expect(reply.text).toContain('/ps update &lt;machine&gt; key=value');
    expect(bot.emulator.state.requests().length).toBe(before);
  });

  it('refuses a key that is not a setting, suggesting the closest one', async () => {
    const request = bot.requests.slashCommand({
      text: 'update ada-render shutdownTimeoutInHour=2',
      userId: ADA,
    });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.text).toContain(
      'Unknown key "shutdownTimeoutInHour" for update. Did you mean "shutdownTimeoutInHours"?',
    );
  });
});

describe('the Settings modal', () => {
  const values = (name: string, hours: string): Record<string, Record<string, ViewStateValue>> => ({
    [F.machineName.blockId]: { [F.machineName.actionId]: { type: 'plain_text_input', value: name } },
    [F.shutdownTimeout.blockId]: { [F.shutdownTimeout.actionId]: { type: 'number_input', value: hours } },
    [F.shutdownOptions.blockId]: {
      [F.shutdownOptions.actionId]: { type: 'checkboxes', selected_options: [] },
    },
  });

  async function openSettings(machine: { id: string }, ts: string) {
    await bot.send(
      bot.requests.blockAction({
        actionId: ActionId.machineOverflow,
        elementType: 'overflow',
        selectedOption: { value: MachineOverflowOption.settings },
        blockId: cardBlockId(machine.id),
        userId: ADA,
        channelId: CHANNEL,
        message: { ts },
      }),
    );
    const filled = await bot.slack.waitFor('views.update');
    return filled.args.view as { callback_id: string; private_metadata: string; blocks: unknown[] };
  }

  it('saves the form, audits it, tells the submitter and refreshes the card it was opened from', async () => {
    const machine = spareMachine();
    const ts = '1600000000.000123';
    const view = await openSettings(machine, ts);
    expect(view.callback_id).toBe(CallbackId.updateMachine);
    expect(textOf(view.blocks)).toContain(machine.name);

    bot.slack.reset();
    const response = await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.updateMachine,
        userId: ADA,
        privateMetadata: view.private_metadata,
        values: values(`${machine.name}-renamed`, '5'),
      }),
    );
    expect(textOf(response.body)).toContain('Saving');
    const card = await bot.slack.waitFor('chat.update');
    expect(textOf(bot.slack.calls('views.update').at(-1)?.args.view)).toContain('Saved the settings');
    expect(card.args).toMatchObject({ channel: CHANNEL, ts });
    expect(textOf(card.args.blocks)).toContain(`${machine.name}-renamed`);
    const note = await bot.slack.waitFor('chat.postEphemeral');
    expect(note.args).toMatchObject({ channel: CHANNEL, user: ADA });
    expect(bot.emulator.state.machine(machine.id)).toMatchObject({
      name: `${machine.name}-renamed`,
      shutdownTimeoutInHours: 5,
      shutdownTimeoutForces: false,
    });
    expect(await auditOf(bot, machine.id)).toMatchObject({ action: 'machine.update', outcome: 'ok' });
  });

  it('says Saved, not refused, when Paperspace took the settings but reading the machine back failed', async () => {
    const machine = spareMachine();
    const ts = '1600000000.000124';
    const view = await openSettings(machine, ts);
    bot.slack.reset();
    bot.emulator.state.failNextRequests({
      count: DEFAULT_MAX_RETRIES + 1,
      status: 503,
      path: '/machines/getMachinePublic',
    });
    await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.updateMachine,
        userId: ADA,
        privateMetadata: view.private_metadata,
        values: values(machine.name, '6'),
      }),
    );
    const note = await bot.slack.waitFor('chat.postEphemeral', { timeoutMs: 20_000 });
    expect(textOf(note.args)).toContain(
      `✅ Updated *${machine.name}*. I could not read it back to refresh its card`,
    );
    const views = bot.slack.calls('views.update').map((call) => textOf(call.args.view));
    expect(views.at(-1)).toContain('Saved the settings');
    expect(views.join(' ')).not.toContain(F.shutdownTimeout.blockId);
    expect(bot.emulator.state.machine(machine.id)?.shutdownTimeoutInHours).toBe(6);
  }, 30_000);

  it('opens for a machine whose shutdown timeout and snapshot count are 0, values the API holds', async () => {
    const machine = spareMachine();
    const typed = bot.requests.slashCommand({
      text: `update ${machine.name} shutdownTimeoutInHours=0 autoSnapshotSaveCount=0`,
      userId: ADA,
    });
    await bot.send(typed);
    await bot.slack.waitForResponse(typed.responseUrlId ?? '');
    expect(bot.emulator.state.machine(machine.id)).toMatchObject({
      shutdownTimeoutInHours: 0,
      autoSnapshotSaveCount: 0,
    });
    bot.slack.reset();
    const view = await openSettings(machine, '1600000000.000125');
    expect(bot.slack.calls('views.update').at(-1)?.answer).toMatchObject({ ok: true });
    expect(textOf(view.blocks)).toContain('"initial_value":"0"');
  });

  it('refuses a static and a dynamic public IP together before the ack, on their field', async () => {
    const machine = spareMachine();
    const view = await openSettings(machine, '1600000000.000126');
    const response = await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.updateMachine,
        userId: ADA,
        privateMetadata: view.private_metadata,
        values: {
          ...values(machine.name, '2'),
          [F.publicIp.blockId]: {
            [F.publicIp.actionId]: {
              type: 'checkboxes',
              selected_options: [
                { text: { type: 'plain_text', text: 'Dynamic' }, value: 'dynamic' },
                { text: { type: 'plain_text', text: 'Assign' }, value: 'assign' },
              ],
            },
          },
        },
      }),
    );
    const body = response.body as { response_action: string; errors: Record<string, string> };
    expect(body.response_action).toBe('errors');
    expect(body.errors[F.publicIp.blockId]).toContain('cannot be combined with dynamicPublicIp');
  });

  it('comes back with what was typed and the reason when Paperspace refuses the change', async () => {
    const machine = spareMachine();
    const view = await openSettings(machine, '1600000000.000127');
    bot.slack.reset();
    bot.emulator.state.failNextRequests({
      count: 1,
      status: 400,
      message: 'machineName: that name is not allowed here',
      path: `/machines/${machine.id}/updateMachinePublic`,
    });
    await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.updateMachine,
        userId: ADA,
        viewId: 'V0SETTINGS',
        blocks: view.blocks,
        privateMetadata: view.private_metadata,
        values: values('a-new-name', '7'),
      }),
    );
    const back = await bot.slack.waitFor('views.update');
    expect(back.args.view_id).toBe('V0SETTINGS');
    const blocks = (
      back.args.view as { blocks: Array<{ block_id?: string; element?: Record<string, unknown> }> }
    ).blocks;
    const nameAt = blocks.findIndex((block) => block.block_id === F.machineName.blockId);
    expect(blocks[nameAt]?.element?.initial_value).toBe('a-new-name');
    expect(textOf(blocks[nameAt + 1])).toContain('that name is not allowed here');
    const hours = blocks.find((block) => block.block_id === F.shutdownTimeout.blockId);
    expect(hours?.element?.initial_value).toBe('7');
    expect(bot.emulator.state.machine(machine.id)?.name).toBe(machine.name);
  });

  it('shows a bad value on its field and saves nothing', async () => {
    const machine = spareMachine();
    const view = await openSettings(machine, '1600000000.000124');
    const response = await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.updateMachine,
        userId: ADA,
        privateMetadata: view.private_metadata,
        values: values('renamed-anyway', '-2'),
      }),
    );
    expect(response.body).toEqual({
      response_action: 'errors',
      errors: { [F.shutdownTimeout.blockId]: 'shutdownTimeoutInHours must be a whole number, 0 or more.' },
    });
    expect(bot.emulator.state.machine(machine.id)?.name).toBe(machine.name);
  });
});

import { describe, expect, it } from 'vitest';
import { CreateDriveFields } from '../../../src/features/catalog/blocks/create-drive-modal.js';
import { ActionId, CallbackId } from '../../../src/slack/ids.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { command, textOf } from '../account/helpers.js';

const bot = useTestBot({
  linked: ['ada'],
  prepare: async (bot) => {
    await bot.link('maya', { withAccessToken: true });
    await bot.link('sam', { withAccessToken: true });
  },
});

const selected = (value: string) => ({
  type: 'static_select',
  selected_option: { text: { type: 'plain_text' as const, text: value }, value },
});

function submitDrive(
  user: 'maya' | 'sam',
  form: { name: string; size: string; region: string; networkId: string },
) {
  return bot.send(
    bot.requests.viewSubmission({
      callbackId: CallbackId.createDrive,
      userId: USERS[user].slackId,
      viewId: `V-drive-${user}`,
      values: {
        drive_name: { drive_name_input: form.name },
        drive_size: { drive_size_input: { type: 'number_input', value: form.size } },
        drive_region: { drive_region_input: selected(form.region) },
        drive_network: { drive_network_input: selected(form.networkId) },
      },
    }),
  );
}

async function clickDelete(user: 'maya' | 'sam', driveId: string) {
  const request = bot.requests.blockAction({
    actionId: ActionId.driveDelete,
    value: driveId,
    userId: USERS[user].slackId,
    ephemeral: true,
  });
  await bot.send(request);
  return bot.slack.waitForResponse(request.responseUrlId ?? '');
}

describe('shared drives for a team administrator', () => {
  it('lists the team’s drives', async () => {
    const reply = await command(bot, 'maya', 'drives');
    const text = textOf(reply.blocks);
    expect(text).toContain('datasets');
    expect(text).toContain('500 GiB');
  });

  it('opens the create form with the team’s networks', async () => {
    const triggerId = bot.slack.issueTrigger();
    await bot.send(
      bot.requests.slashCommand({ text: 'drive create', userId: USERS.maya.slackId, triggerId }),
    );
    const open = await bot.slack.waitFor('views.open');
    expect(open.args.trigger_id).toBe(triggerId);
    const update = await bot.slack.waitFor('views.update');
    const form = textOf(update.args.view);
    expect(form).toContain(CallbackId.createDrive);
    expect(form).toContain('Orbital Europe');
  });

  it('refuses a size that is not a positive whole number under the size field', async () => {
    const before = bot.emulator.state.drives().length;
    const response = await submitDrive('maya', {
      name: 'scratch',
      size: '0',
      region: 'Europe (AMS1)',
      networkId: 'norbams',
    });
    expect(response.body).toMatchObject({
      response_action: 'errors',
      errors: { drive_size: expect.stringContaining('The size must be a positive whole number') },
    });
    expect(bot.emulator.state.drives().length).toBe(before);
  });

  it('creates a drive, audited, and says so in the modal', async () => {
    const response = await submitDrive('maya', {
      name: 'scratch',
      size: '200',
      region: 'Europe (AMS1)',
      networkId: 'norbams',
    });
    expect(response.body).toMatchObject({ response_action: 'update' });
    const outcome = await bot.slack.waitFor(
      (call) => call.method === 'views.update' && call.args.view_id === 'V-drive-maya',
    );
    expect(textOf(outcome.args.view)).toContain('Created shared drive *scratch*');
    const created = bot.emulator.state.drives().find((drive) => drive.name === 'scratch');
    expect(created).toMatchObject({ sizeGiB: 200, region: 'Europe (AMS1)', networkId: 'norbams' });
    const [audit] = await bot.store.audit.list({ userId: USERS.maya.slackId, limit: 1 });
    expect(audit).toMatchObject({ action: 'drive.create', outcome: 'ok', resourceId: created?.id });
  });

  it('refuses a network outside the drive’s region in the ack, under the network', async () => {
    const response = await submitDrive('maya', {
      name: 'misplaced',
      size: '50',
      region: 'Europe (AMS1)',
      networkId: 'norbca1',
    });
    expect(response.body).toMatchObject({
      response_action: 'errors',
      errors: {
        [CreateDriveFields.network.blockId]: expect.stringContaining(
          'is a network in West Coast (CA1), not in Europe (AMS1)',
        ),
      },
    });
  });

  it('shows Paperspace’s refusal of a network outside the region in the modal', async () => {
    // The check before the ack could not read the network: Paperspace's own refusal comes after it.
    bot.emulator.state.failNextRequests({
      count: 1,
      status: 503,
      path: '/networks/getNetworks',
    });
    await submitDrive('maya', {
      name: 'misplaced',
      size: '50',
      region: 'Europe (AMS1)',
      networkId: 'norbca1',
    });
    const outcome = await bot.slack.waitFor((call) => call.method === 'views.update');
    expect(textOf(outcome.args.view)).toContain('is in West Coast (CA1), not Europe (AMS1)');
  });

  it('deletes a drive after the confirmation, audited', async () => {
    const drive = bot.emulator.state.drives().find((candidate) => candidate.name === 'scratch');
    const question = await command(bot, 'maya', `drive delete ${drive?.id}`);
    expect(textOf(question.blocks)).toContain('Everything stored on it is lost');
    expect(bot.emulator.state.drives().some((candidate) => candidate.id === drive?.id)).toBe(true);

    const reply = await clickDelete('maya', drive?.id ?? '');
    expect(reply.replace_original).toBe(true);
    expect(textOf(reply.blocks)).toContain(`Deleted shared drive \`${drive?.id}\``);
    expect(bot.emulator.state.drives().some((candidate) => candidate.id === drive?.id)).toBe(false);
    const [audit] = await bot.store.audit.list({ userId: USERS.maya.slackId, limit: 1 });
    expect(audit).toMatchObject({ action: 'drive.delete', outcome: 'ok', resourceId: drive?.id });
  });

  it('says when no drive has the id', async () => {
    const reply = await command(bot, 'maya', 'drive delete sd-nothing');
    expect(textOf(reply.blocks)).toContain('No shared drive has the id');
  });
});

describe('shared drives for a team member', () => {
  it("shows Sam, and only Sam, Paperspace's refusal to list drives", async () => {
    const reply = await command(bot, 'sam', 'drives');
    expect(reply.response_type).toBe('ephemeral');
    const text = textOf(reply.blocks);
    expect(text).toContain('does not allow your account to list shared drives');
    expect(text).toContain('Only team administrators');
    expect(bot.slack.calls('chat.postMessage')).toHaveLength(0);
  });

  it('shows the refusal in the create form instead of the form', async () => {
    await bot.send(bot.requests.slashCommand({ text: 'drive create', userId: USERS.sam.slackId }));
    const update = await bot.slack.waitFor('views.update');
    const view = textOf(update.args.view);
    expect(view).toContain('Only team administrators can manage shared drives');
    expect(view).not.toContain('(403)');
    expect(view).not.toContain('drive_name_input');
  });

  it('refuses a delete click with the API’s message and records the refusal', async () => {
    const reply = await clickDelete('sam', 'sdorb001');
    expect(reply.replace_original).toBe(false);
    expect(textOf(reply.blocks)).toContain('Only team administrators can manage shared drives');
    expect(bot.emulator.state.drives().some((drive) => drive.id === 'sdorb001')).toBe(true);
    const [audit] = await bot.store.audit.list({ userId: USERS.sam.slackId, limit: 1 });
    expect(audit).toMatchObject({ action: 'drive.delete', outcome: 'error', resourceId: 'sdorb001' });
  });
});

describe('shared drives without an access token', () => {
  it('tells the person to add one with /ps login instead of opening the form', async () => {
    const reply = await command(bot, 'ada', 'drive create');
    expect(textOf(reply.blocks)).toContain('need a Paperspace access token');
    expect(textOf(reply.blocks)).toContain('/ps login');
    expect(bot.slack.calls('views.open')).toHaveLength(0);
  });
});

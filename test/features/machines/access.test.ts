import type { ViewStateValue } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { MachineAccessFields as F } from '../../../src/features/machines/blocks/machine-access-modal.js';
import { createPaperspaceClient } from '../../../src/paperspace/client.js';
import { ActionId, CallbackId, MachineOverflowOption } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { auditOf, cardBlockId, textOf } from './machine-kit.js';

const clock = createFakeClock();
const MAYA = USERS.maya.slackId;
const SAM = USERS.sam.slackId;
const CHANNEL = 'C0OPS';

const bot = useTestBot({ emulator: { now: clock.now }, linked: ['ada', 'maya', 'sam'] });

/** Whether a user's own key can open the machine now (access makes it visible to someone outside). */
async function canSee(user: keyof typeof USERS, machineId: string): Promise<boolean> {
  const client = createPaperspaceClient({
    apiKey: USERS[user].apiKey,
    baseUrl: bot.emulator.url,
    graphqlUrl: bot.emulator.graphqlUrl,
    maxRetries: 0,
  });
  return client.machines.show(machineId).then(
    () => true,
    () => false,
  );
}

function setAccessCalls(machineId: string) {
  return bot.emulator.state
    .requests()
    .filter((entry) => entry.path === `/machines/${machineId}/setMachineAccess`);
}

describe('/ps access', () => {
  it('grants a mentioned person access through the Paperspace user of their linked key', async () => {
    const ada = USERS.ada.slackId;
    expect(await canSee('maya', 'psada003')).toBe(false);
    const request = bot.requests.slashCommand({ text: `access ada-render grant <@${MAYA}>`, userId: ada });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text).toBe(`✅ <@${MAYA}> can now use *ada-render*.`);
    expect(await canSee('maya', 'psada003')).toBe(true);
    expect(await auditOf(bot, 'psada003')).toMatchObject({
      action: 'machine.access.grant',
      outcome: 'ok',
      userId: ada,
      message: 'Paperspace user u1maya',
    });
  });

  it('revokes by Paperspace user id', async () => {
    const request = bot.requests.slashCommand({
      text: 'access ada-render revoke u1maya',
      userId: USERS.ada.slackId,
    });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.text).toBe('✅ Paperspace user `u1maya` no longer has access to *ada-render*.');
    expect(await canSee('maya', 'psada003')).toBe(false);
    expect(await auditOf(bot, 'psada003')).toMatchObject({
      action: 'machine.access.revoke',
      outcome: 'ok',
      message: 'Paperspace user u1maya',
    });
  });

  it('says that a mentioned person who linked no key cannot be named, without calling Paperspace', async () => {
    const before = setAccessCalls('psorb002').length;
    const request = bot.requests.slashCommand({ text: 'access team-build grant <@U0NEWBIE>', userId: MAYA });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.text).toBe(
      "⚠️ <@U0NEWBIE> has not linked a Paperspace key, so I don't know their Paperspace user; " +
        'ask them to `/ps login`, or use their Paperspace user id.',
    );
    expect(setAccessCalls('psorb002').length).toBe(before);
  });
});

describe('the Access modal', () => {
  const form = (who: { slackUser?: string; userId?: string }, change = 'grant') => {
    const values: Record<string, Record<string, ViewStateValue>> = {
      [F.slackUser.blockId]: {
        [F.slackUser.actionId]: { type: 'users_select', selected_user: who.slackUser ?? null },
      },
      [F.paperspaceUserId.blockId]: {
        [F.paperspaceUserId.actionId]: { type: 'plain_text_input', value: who.userId ?? null },
      },
      [F.change.blockId]: {
        [F.change.actionId]: {
          type: 'radio_buttons',
          selected_option: { text: { type: 'plain_text', text: change }, value: change },
        },
      },
    };
    return values;
  };

  async function openAccess(machineId: string) {
    await bot.send(
      bot.requests.blockAction({
        actionId: ActionId.machineOverflow,
        elementType: 'overflow',
        selectedOption: { value: MachineOverflowOption.access },
        blockId: cardBlockId(machineId),
        userId: MAYA,
        channelId: CHANNEL,
      }),
    );
    const view = (await bot.slack.waitFor('views.update')).args.view as {
      callback_id: string;
      private_metadata: string;
    };
    expect(view.callback_id).toBe(CallbackId.machineAccess);
    return view;
  }

  it('grants the chosen Slack user access and confirms it to the submitter', async () => {
    const view = await openAccess('psorb002');
    const before = setAccessCalls('psorb002').length;
    const response = await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.machineAccess,
        userId: MAYA,
        privateMetadata: view.private_metadata,
        values: form({ slackUser: SAM }),
      }),
    );
    expect(response.body ?? {}).toEqual({});
    const note = await bot.slack.waitFor('chat.postEphemeral');
    expect(note.args).toMatchObject({ channel: CHANNEL, user: MAYA });
    expect(String(note.args.text)).toContain(`<@${SAM}> can now use *team-build*`);
    expect(setAccessCalls('psorb002').length).toBe(before + 1);
    expect(await auditOf(bot, 'psorb002')).toMatchObject({
      action: 'machine.access.grant',
      outcome: 'ok',
      message: 'Paperspace user u1sam',
    });
  });

  it('keeps the modal open with a field error for a person who linked no key', async () => {
    const view = await openAccess('psorb002');
    const response = await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.machineAccess,
        userId: MAYA,
        privateMetadata: view.private_metadata,
        values: form({ slackUser: 'U0NEWBIE' }),
      }),
    );
    const body = response.body as { response_action: string; errors: Record<string, string> };
    expect(body.response_action).toBe('errors');
    expect(body.errors[F.slackUser.blockId]).toContain('has not linked a Paperspace key');
  });

  it('asks for exactly one person', async () => {
    const view = await openAccess('psorb002');
    const none = await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.machineAccess,
        userId: MAYA,
        privateMetadata: view.private_metadata,
        values: form({}),
      }),
    );
    expect(textOf(none.body)).toContain('Choose a person, or give a Paperspace user id');
    const both = await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.machineAccess,
        userId: MAYA,
        privateMetadata: view.private_metadata,
        values: form({ slackUser: SAM, userId: 'u1sam' }),
      }),
    );
    expect((both.body as { errors: Record<string, string> }).errors).toEqual({
      [F.paperspaceUserId.blockId]: 'Give a Slack user or a Paperspace user id, not both.',
    });
  });
});

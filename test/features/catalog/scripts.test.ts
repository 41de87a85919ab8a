import { describe, expect, it } from 'vitest';
import { ActionId, CallbackId } from '../../../src/slack/ids.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { command, textOf } from '../account/helpers.js';

const maya = USERS.maya;
const SCRIPT_LIST_PATH = '/scripts/getScripts';

const bot = useTestBot({ linked: ['maya'] });

function submitScript(
  values: { name: string; text: string; machineId?: string; runOnce?: boolean },
  blocks?: unknown[],
) {
  return bot.send(
    bot.requests.viewSubmission({
      callbackId: CallbackId.createScript,
      userId: maya.slackId,
      viewId: 'V-script-form',
      ...(blocks === undefined ? {} : { blocks }),
      values: {
        script_name: { script_name_input: values.name },
        script_description: { script_description_input: '' },
        script_text: { script_text_input: values.text },
        script_options: {
          script_options_input: {
            type: 'checkboxes',
            selected_options: [
              { text: { type: 'plain_text', text: 'Enabled' }, value: 'enabled' },
              ...(values.runOnce
                ? [{ text: { type: 'plain_text' as const, text: 'Run once' }, value: 'run_once' }]
                : []),
            ],
          },
        },
        ...(values.machineId
          ? {
              script_machine: {
                script_machine_input: {
                  type: 'static_select',
                  selected_option: {
                    text: { type: 'plain_text', text: values.machineId },
                    value: values.machineId,
                  },
                },
              },
            }
          : {}),
      },
    }),
  );
}

function deleteButtonOf(blocks: unknown) {
  const elements = (
    blocks as { elements?: { action_id: string; value: string; confirm?: unknown }[] }[]
  ).flatMap((block) => block.elements ?? []);
  const button = elements.find((element) => element.action_id === ActionId.scriptDelete);
  if (!button) throw new Error(`no Delete button in ${textOf(blocks)}`);
  return button;
}

describe('/ps script create', () => {
  it('opens a form at once and fills in the machines to run the script on', async () => {
    const triggerId = bot.slack.issueTrigger();
    await bot.send(bot.requests.slashCommand({ text: 'script create', userId: maya.slackId, triggerId }));
    const open = await bot.slack.waitFor('views.open');
    expect(open.args.trigger_id).toBe(triggerId);
    expect(textOf(open.args.view)).toContain('Loading');
    const update = await bot.slack.waitFor('views.update');
    const form = textOf(update.args.view);
    expect(form).toContain(CallbackId.createScript);
    expect(form).toContain('maya-trainer');
    expect(form).toContain('script_text_input');
  });

  it('refuses a script over 16 KB of UTF-8 under the script field, creating nothing', async () => {
    const before = bot.emulator.state.scripts().length;
    // 6000 three-byte characters: 18,000 bytes in only 6000 characters.
    const response = await submitScript({ name: 'too-big', text: '€'.repeat(6000) });
    expect(response.body).toMatchObject({
      response_action: 'errors',
      errors: { script_text: expect.stringContaining('The script is 18000 bytes of UTF-8') },
    });
    expect(bot.emulator.state.scripts().length).toBe(before);
  });

  it('creates a valid script, assigned to a machine, audited, and says so in the modal', async () => {
    const response = await submitScript({
      name: 'warm-cache',
      text: '#!/bin/bash\necho "<warm>" && ls ~\n',
      machineId: 'psorb002',
      runOnce: true,
    });
    expect(response.body).toMatchObject({ response_action: 'update' });
    expect(textOf(response.body)).toContain('Creating the script');
    const outcome = await bot.slack.waitFor(
      (call) => call.method === 'views.update' && call.args.view_id === 'V-script-form',
    );
    expect(textOf(outcome.args.view)).toContain('Created startup script *warm-cache*');
    // The machine by its name, not only its id.
    expect(textOf(outcome.args.view)).toContain('assigned to *team-build* `psorb002`');

    const created = bot.emulator.state.scripts().find((script) => script.name === 'warm-cache');
    expect(created).toMatchObject({
      runOnce: true,
      isEnabled: true,
      text: '#!/bin/bash\necho "<warm>" && ls ~\n',
    });
    const [audit] = await bot.store.audit.list({ userId: maya.slackId, limit: 1 });
    expect(audit).toMatchObject({ action: 'script.create', outcome: 'ok', resourceId: created?.id });
  });

  it('refuses a name another script has in the ack, under the name, before anything is created', async () => {
    const before = await bot.store.audit.list({ userId: maya.slackId, limit: 1 });
    const response = await submitScript({ name: 'warm-cache', text: 'echo again' });
    expect(response.body).toMatchObject({
      response_action: 'errors',
      errors: { script_name: expect.stringContaining('A startup script named "warm-cache" already exists') },
    });
    const after = await bot.store.audit.list({ userId: maya.slackId, limit: 1 });
    expect(after[0]?.id).toBe(before[0]?.id);
  });

  it("puts the form back with Paperspace's refusal of a duplicate name under the name, keeping the text", async () => {
    await bot.send(bot.requests.slashCommand({ text: 'script create', userId: maya.slackId }));
    const form = await bot.slack.waitFor('views.update');
    bot.slack.reset();
    // The check before the ack could not list the scripts: Paperspace's own refusal comes after it.
    bot.emulator.state.failNextRequests({ count: 1, status: 503, path: SCRIPT_LIST_PATH });
    await submitScript(
      { name: 'warm-cache', text: 'echo again' },
      (form.args.view as { blocks: unknown[] }).blocks,
    );
    const outcome = await bot.slack.waitFor((call) => call.method === 'views.update');
    const view = outcome.args.view as {
      callback_id: string;
      blocks: Array<{ block_id?: string; element?: Record<string, unknown> }>;
    };
    const text = view.blocks.find((block) => block.block_id === 'script_text');
    expect(text?.element?.initial_value).toBe('echo again');
    expect(view.callback_id).toBe(CallbackId.createScript);
    const problem = view.blocks.find((block) => block.block_id === 'script_name__problem');
    expect(textOf(problem)).toContain('already exists');
    const [audit] = await bot.store.audit.list({ userId: maya.slackId, limit: 1 });
    expect(audit).toMatchObject({ action: 'script.create', outcome: 'error' });
  });
});

describe('/ps script show and text', () => {
  it('shows a script with its machines', async () => {
    const reply = await command(bot, 'maya', 'script show scorb001');
    const text = textOf(reply.blocks);
    expect(text).toContain('install-cuda-tools');
    expect(text).toContain('runs on first boot only');
    expect(text).toContain('Runs on 1 machine: *maya-trainer* `psorb001`');
  });

  it('shows the text in a code block, escaped', async () => {
    const created = bot.emulator.state.scripts().find((script) => script.name === 'warm-cache');
    const reply = await command(bot, 'maya', `script text ${created?.id}`);
    const text = textOf(reply.blocks);
    expect(text).toContain('```#!/bin/bash');
    expect(text).toContain('echo \\"&lt;warm&gt;\\" &amp;&amp; ls ~');
  });

  it('cuts a text too long for one message and says so', async () => {
    // 12 KB, within Paperspace's limit, but every & < > becomes an escape four or five characters long.
    const long = Array.from({ length: 300 }, () => 'a && b >> c <d>'.repeat(3)).join('\n');
    const response = await submitScript({ name: 'long-one', text: long });
    expect(response.body).toMatchObject({ response_action: 'update' });
    await bot.slack.waitFor((call) => call.method === 'views.update');
    const created = bot.emulator.state.scripts().find((script) => script.name === 'long-one');
    const reply = await command(bot, 'maya', `script text ${created?.id}`);
    const sections = (reply.blocks as { type: string; text?: { text: string } }[]).filter((block) =>
      block.text?.text.startsWith('```'),
    );
    expect(sections.length).toBeGreaterThan(1);
    for (const section of sections) expect(section.text?.text.length).toBeLessThanOrEqual(3000);
    expect(textOf(reply.blocks)).toContain('Cut after');
  });

  it('names the script when no script has that id', async () => {
    const reply = await command(bot, 'maya', 'script show sc-missing');
    expect(textOf(reply.blocks)).toContain('no script with id \\"sc-missing\\"');
  });
});

describe('/ps script delete', () => {
  it('asks first, with a Delete button behind a confirm dialog, and deletes nothing yet', async () => {
    const reply = await command(bot, 'maya', 'script delete scorb001');
    expect(reply.response_type).toBe('ephemeral');
    expect(textOf(reply.blocks)).toContain('removed at once from the 1 machine');
    const button = deleteButtonOf(reply.blocks);
    expect(button.value).toBe('scorb001');
    expect(button.confirm).toMatchObject({ style: 'danger' });
    expect(bot.emulator.state.scripts().some((script) => script.id === 'scorb001')).toBe(true);
  });

  it('deletes on the click, with the clicker’s key, replaces the question and records it', async () => {
    const request = bot.requests.blockAction({
      actionId: ActionId.scriptDelete,
      value: 'scorb001',
      userId: maya.slackId,
      ephemeral: true,
    });
    const ack = await bot.send(request);
    expect(ack.status).toBe(200);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.replace_original).toBe(true);
    expect(textOf(reply.blocks)).toContain('Deleted startup script `scorb001`');
    expect(bot.emulator.state.scripts().some((script) => script.id === 'scorb001')).toBe(false);
    const [audit] = await bot.store.audit.list({ userId: maya.slackId, limit: 1 });
    expect(audit).toMatchObject({ action: 'script.delete', outcome: 'ok', resourceId: 'scorb001' });
  });

  it('refuses a Delete button whose value was tampered with', async () => {
    const request = bot.requests.blockAction({
      actionId: ActionId.scriptDelete,
      value: '../machines/psorb001/destroyMachine',
      userId: maya.slackId,
      ephemeral: true,
    });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.replace_original).toBe(false);
    expect(textOf(reply.blocks)).toContain('damaged, so nothing was deleted');
  });
});

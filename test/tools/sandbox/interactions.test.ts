// What a person does in the page reaches the app as Slack would send it: signed (a real Bolt app,
// built with the bot's createSlackApp, verifies every request before its listeners run), with Slack's
// payload shapes, and the app's acknowledgements applied as Slack applies them.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PageMessage } from '../../../tools/sandbox/workspace.js';
import { type Received, type ScriptedSandbox, startScriptedSandbox } from './support/scripted-app.js';
import { waitFor } from './support/wait.js';

const GENERAL = 'C0GENERAL';
const ADA = 'U0ADA';
const MAYA = 'U0MAYA';
const ACK_TIMEOUT_MS = 400;

let scripted: ScriptedSandbox;

beforeAll(async () => {
  scripted = await startScriptedSandbox({ ackTimeoutMs: ACK_TIMEOUT_MS });
});
afterAll(async () => {
  await scripted.close();
});
beforeEach(() => {
  scripted.received.length = 0;
});

async function page(path: string, body: Record<string, unknown>): Promise<{ ok: boolean; error?: string }> {
  const response = await fetch(`${scripted.sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: ADA, ...body }),
  });
  return (await response.json()) as { ok: boolean; error?: string };
}

const type = (text: string, extra: Record<string, unknown> = {}) =>
  page('/sandbox/command', { channel: GENERAL, text, ...extra });

const ephemerals = (userId = ADA) => scripted.sandbox.workspace.snapshotFor(userId).ephemerals;
const lastEphemeral = (userId = ADA) => ephemerals(userId).at(-1);
const received = (kind: Received['kind']) => scripted.received.filter((entry) => entry.kind === kind);
const blockIdOf = (message: PageMessage, type_: string) =>
  (message.blocks as { type: string; block_id: string }[]).find((block) => block.type === type_)?.block_id ??
  '';

async function showCard(): Promise<PageMessage> {
  await type('/ps card');
  return waitFor(() => ephemerals().find((message) => message.text === 'Your machines'), 'the card');
}

describe('slash commands', () => {
  it('reach the app signed, with the text escaped and mentions, channels, links and e-mails encoded', async () => {
    const outcome = await type(
      '/ps  echo @maya & <b> https://x.example/?a=1&b=2 ada@example.com #general @nobody',
    );
    expect(outcome).toEqual({ ok: true });
    const [command] = received('command');
    expect(command?.body).toMatchObject({
      command: '/ps',
      user_id: ADA,
      user_name: 'ada',
      channel_id: GENERAL,
      channel_name: 'general',
      team_id: 'T0SANDBOX',
      text:
        'echo <@U0MAYA|maya> &amp; &lt;b&gt; <https://x.example/?a=1&amp;b=2> ' +
        '<mailto:ada@example.com|ada@example.com> <#C0GENERAL|general> @nobody',
      response_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/response-url\//),
      trigger_id: expect.any(String),
    });
  });

  it('shows a message in the acknowledgement to the person who typed it, only', async () => {
    await type('/ps hello');
    expect(lastEphemeral()?.text).toBe('You typed *hello*');
    expect(ephemerals(MAYA)).toEqual([]);
  });

  it('answers an unknown command and a command in a thread as Slack does, without calling the app', async () => {
    await type('/deploy now');
    expect(lastEphemeral()).toMatchObject({
      author: { kind: 'slackbot' },
      text: expect.stringContaining('/deploy is not a valid command'),
    });
    const parent = scripted.sandbox.workspace.post(
      GENERAL,
      { kind: 'user', userId: ADA },
      { text: 'hi', blocks: [] },
    );
    await type('/ps list', { threadTs: parent.ts });
    expect(lastEphemeral()).toMatchObject({
      threadTs: parent.ts,
      text: '/ps is not supported in threads. Sorry!',
    });
    expect(received('command')).toEqual([]);
  });

  it('says operation_timeout when the app does not acknowledge within the limit', async () => {
    const outcome = await type('/ps slow');
    expect(outcome).toEqual({ ok: false, error: 'operation_timeout' });
    expect(lastEphemeral()?.text).toBe('/ps failed with the error "operation_timeout"');
  });

  it('says dispatch_failed when the app cannot be reached', async () => {
    const { sandbox } = scripted;
    sandbox.setRequestUrl('http://127.0.0.1:9/slack/events');
    try {
      expect(await type('/ps hello')).toEqual({ ok: false, error: 'dispatch_failed' });
    } finally {
      sandbox.setRequestUrl(scripted.requestUrl);
    }
  });
});

describe('block actions', () => {
  it('send a click on an ephemeral card without the message, and replace it through the response_url', async () => {
    const card = await showCard();
    await page('/sandbox/action', {
      container: { kind: 'ephemeral', ts: card.ts },
      blockId: 'card_actions',
      actionId: 'machine_start',
    });
    const [action] = received('action');
    expect(action?.body).toMatchObject({
      type: 'block_actions',
      user: { id: ADA, username: 'ada' },
      container: { type: 'message', message_ts: card.ts, channel_id: GENERAL, is_ephemeral: true },
      channel: { id: GENERAL, name: 'general' },
      response_url: expect.any(String),
      trigger_id: expect.any(String),
      actions: [
        {
          type: 'button',
          action_id: 'machine_start',
          block_id: 'card_actions',
          value: 'ps1',
          style: 'primary',
          text: { type: 'plain_text', text: 'Start' },
          action_ts: expect.any(String),
        },
      ],
    });
    expect(action?.body).not.toHaveProperty('message');
    await waitFor(
      () => scripted.sandbox.workspace.ephemeral(ADA, card.ts)?.text === 'Posted the card in the channel.',
      'the replaced ephemeral',
    );
  });

  it('update a channel card in place and thread the completion under it', async () => {
    const card = await showCard();
    await page('/sandbox/action', {
      container: { kind: 'ephemeral', ts: card.ts },
      blockId: 'card_actions',
      actionId: 'machine_start',
    });
    const posted = await waitFor(
      () => scripted.sandbox.workspace.snapshotFor(MAYA).messages.find((message) => message.replyCount === 1),
      'the public card with its thread reply',
    );
    expect(posted.edited).toBe(true);
    expect(JSON.stringify(posted.blocks)).toContain('🟢 Ready');
    const reply = scripted.sandbox.workspace
      .snapshotFor(MAYA)
      .messages.find((message) => message.threadTs === posted.ts && message.ts !== posted.ts);
    expect(reply?.text).toContain('is ready');
  });

  it('send the chosen overflow option as the whole option object, with the message clicked', async () => {
    const card = scripted.sandbox.workspace.post(
      GENERAL,
      { kind: 'bot' },
      { text: 'card', blocks: (await showCard()).blocks },
    );
    const sectionId = blockIdOf(card, 'section');
    await page('/sandbox/action', {
      container: { kind: 'message', channel: GENERAL, ts: card.ts },
      blockId: sectionId,
      actionId: 'machine_overflow',
      selected: 'destroy',
    });
    const [action] = received('action');
    expect(action?.body).toMatchObject({
      container: { is_ephemeral: false, message_ts: card.ts },
      message: { ts: card.ts, bot_id: 'B0PSBOT', blocks: card.blocks },
      actions: [
        {
          type: 'overflow',
          action_id: 'machine_overflow',
          block_id: sectionId,
          selected_option: { text: { type: 'plain_text', text: '🗑️ Destroy' }, value: 'destroy' },
        },
      ],
    });
  });

  it('refuse an option the element does not offer, without calling the app', async () => {
    const card = await showCard();
    const outcome = await page('/sandbox/action', {
      container: { kind: 'ephemeral', ts: card.ts },
      blockId: 'card_actions',
      actionId: 'pick_region',
      selected: 'mars',
    });
    expect(outcome.ok).toBe(false);
    expect(received('action')).toEqual([]);
  });
});

describe('modals', () => {
  /** Opens a new modal; one a previous test left open does not count (the app's views.open replaces it). */
  async function openModal(): Promise<string> {
    const before = new Set(scripted.sandbox.views.modals(ADA).map((view) => view.id));
    await type('/ps modal');
    const view = await waitFor(
      () => scripted.sandbox.views.modals(ADA).find((candidate) => !before.has(candidate.id)),
      'the modal',
    );
    return view.id;
  }

  const values = (name: string) => ({
    name: { name_input: name },
    region: { region_input: 'Europe (AMS1)' },
    billing: { billing_input: 'hourly' },
    owner: { owner_input: MAYA },
  });

  it('check required fields and lengths in the page, as Slack’s client does, without calling the app', async () => {
    const viewId = await openModal();
    await page('/sandbox/submit', { viewId, values: { name: { name_input: 'x'.repeat(21) } } });
    expect(scripted.sandbox.views.find(viewId)?.errors).toEqual({
      name: 'Please use 20 characters or fewer (you entered 21).',
      region: 'Please fill out this required field.',
      billing: 'Please fill out this required field.',
    });
    expect(received('view_submission')).toEqual([]);
  });

  it('send view.state.values in each element type’s own shape, initial values included', async () => {
    const viewId = await openModal();
    await page('/sandbox/submit', { viewId, values: values('gpu-1') });
    const [submission] = received('view_submission');
    expect(submission?.body).toMatchObject({
      type: 'view_submission',
      user: { id: ADA },
      view: {
        id: viewId,
        callback_id: 'scripted_modal',
        private_metadata: 'channel=C0GENERAL',
        state: {
          values: {
            name: { name_input: { type: 'plain_text_input', value: 'gpu-1' } },
            region: {
              region_input: {
                type: 'static_select',
                selected_option: {
                  text: { type: 'plain_text', text: 'Europe (AMS1)' },
                  value: 'Europe (AMS1)',
                },
              },
            },
            size: { size_input: { type: 'number_input', value: '50' } },
            options: {
              options_input: {
                type: 'checkboxes',
                selected_options: [{ text: { type: 'plain_text', text: 'Start on create' }, value: 'start' }],
              },
            },
            billing: { billing_input: { type: 'radio_buttons', selected_option: { value: 'hourly' } } },
            owner: { owner_input: { type: 'users_select', selected_user: MAYA } },
          },
        },
      },
    });
    expect(scripted.sandbox.views.modals(ADA)).toEqual([]);
  });

  it('show the app’s field errors under their inputs and keep the modal open', async () => {
    const viewId = await openModal();
    await page('/sandbox/submit', { viewId, values: values('taken') });
    expect(scripted.sandbox.views.modals(ADA).map((view) => view.id)).toEqual([viewId]);
    expect(scripted.sandbox.views.find(viewId)?.errors).toEqual({ name: 'A machine with this name exists.' });
  });

  it('replace the view on response_action update, keeping its id', async () => {
    const viewId = await openModal();
    await page('/sandbox/submit', { viewId, values: values('next') });
    const [view] = scripted.sandbox.views.modals(ADA);
    expect(view?.id).toBe(viewId);
    expect(view?.view.title).toEqual({ type: 'plain_text', text: 'Checking…' });
    await page('/sandbox/close', { viewId, all: true });
    expect(scripted.sandbox.views.modals(ADA)).toEqual([]);
  });
});

describe('App Home', () => {
  it('sends app_home_opened for the person, who alone sees the Home view the app publishes', async () => {
    await page('/sandbox/home', {});
    // Slack's events are acked before their listener runs, so the app records it a moment later.
    const [event] = await waitFor(
      () => (received('event').length > 0 ? received('event') : undefined),
      'the event',
    );
    expect(event?.body).toMatchObject({
      type: 'event_callback',
      event: { type: 'app_home_opened', user: ADA, channel: 'D0ADA', tab: 'home' },
    });
    const home = await waitFor(() => scripted.sandbox.views.home(ADA), 'the Home view');
    expect(JSON.stringify(home.view.blocks)).toContain('Hello <@U0ADA>');
    expect(scripted.sandbox.views.home(MAYA)).toBeUndefined();
  });

  it('sends a click in the Home tab with the view and no response_url', async () => {
    // The previous test left a Home view: wait for the one the app publishes for this opening.
    const before = scripted.sandbox.views.home(ADA)?.hash;
    await page('/sandbox/home', {});
    const home = await waitFor(() => {
      const published = scripted.sandbox.views.home(ADA);
      return published?.hash === before ? undefined : published;
    }, 'the Home view');
    const actionsId = (home.view.blocks as { type: string; block_id: string }[]).find(
      (b) => b.type === 'actions',
    )?.block_id;
    await page('/sandbox/action', {
      container: { kind: 'view', viewId: home.id },
      blockId: actionsId,
      actionId: 'home_refresh',
    });
    const [action] = received('action');
    expect(action?.body).toMatchObject({
      container: { type: 'view', view_id: home.id },
      view: { id: home.id, type: 'home' },
    });
    expect(action?.body).not.toHaveProperty('response_url');
  });
});

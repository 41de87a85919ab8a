import { randomBytes } from 'node:crypto';
// A small Bolt app behind the sandbox's Slack stand-in, built with the bot's own createSlackApp, so
// the page's behaviour can be tested apart from the bot's listeners: it answers `/ps <scene>` with
// messages and modals that use every Block Kit feature the bot renders, and records every request it
// receives (Bolt has checked each signature before a listener runs).
import type { App } from '@slack/bolt';
import { createSlackApp, SLACK_EVENTS_PATH, type SlackApp } from '../../../../src/slack/app.js';
import { type SlackSandbox, startSlackSandbox } from '../../../../tools/sandbox/slack-sandbox.js';
import { captureLogs, type LogCapture } from '../../../support/log-capture.js';

/** A machine name that tries to inject markup; every surface must show it as text. */
export const HOSTILE_NAME = '<img src=x onerror="window.__xss=1">';
const escapeMrkdwn = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface Received {
  kind: 'command' | 'action' | 'view_submission' | 'view_closed' | 'event';
  body: Record<string, unknown>;
}

export interface ScriptedSandbox {
  sandbox: SlackSandbox;
  app: SlackApp;
  /** The app's /slack/events URL. */
  requestUrl: string;
  logs: LogCapture;
  received: Received[];
  close(): Promise<void>;
}

const card = (state: 'off' | 'starting' | 'ready') => [
  { type: 'header', text: { type: 'plain_text', text: HOSTILE_NAME } },
  {
    type: 'section',
    text: {
      type: 'mrkdwn',
      text: `*${state === 'off' ? '⚫ Off' : state === 'ready' ? '🟢 Ready' : '🟡 Starting'}* · P4000`,
    },
    fields: [
      { type: 'mrkdwn', text: `*Name*\n${escapeMrkdwn(HOSTILE_NAME)}` },
      { type: 'mrkdwn', text: '*Region*\nEurope (AMS1)' },
    ],
    accessory: {
      type: 'overflow',
      action_id: 'machine_overflow',
      options: [
        { text: { type: 'plain_text', text: '⚙️ Settings' }, value: 'settings' },
        { text: { type: 'plain_text', text: '🗑️ Destroy' }, value: 'destroy' },
      ],
    },
  },
  {
    type: 'actions',
    block_id: 'card_actions',
    elements: [
      state === 'off'
        ? {
            type: 'button',
            action_id: 'machine_start',
            text: { type: 'plain_text', text: 'Start' },
            style: 'primary',
            value: 'ps1',
            accessibility_label: 'Start the machine',
          }
        : {
            type: 'button',
            action_id: 'machine_stop',
            text: { type: 'plain_text', text: 'Stop' },
            style: 'danger',
            value: 'ps1',
            confirm: {
              title: { type: 'plain_text', text: 'Stop it?' },
              text: { type: 'plain_text', text: 'Anyone logged in is disconnected.' },
              confirm: { type: 'plain_text', text: 'Stop' },
              deny: { type: 'plain_text', text: 'Cancel' },
              style: 'danger',
            },
          },
      {
        type: 'static_select',
        action_id: 'pick_region',
        placeholder: { type: 'plain_text', text: 'Region' },
        options: [
          { text: { type: 'plain_text', text: 'West Coast (CA1)' }, value: 'ca1' },
          { text: { type: 'plain_text', text: 'Europe (AMS1)' }, value: 'ams1' },
        ],
      },
    ],
  },
  {
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: 'Created <!date^1700000000^{date_num}|2023-11-14> by <@U0ADA> · `ps1` · ~old~ _new_',
      },
    ],
  },
  { type: 'divider' },
];

const modalView = {
  type: 'modal',
  callback_id: 'scripted_modal',
  title: { type: 'plain_text', text: 'Create machine' },
  submit: { type: 'plain_text', text: 'Create' },
  close: { type: 'plain_text', text: 'Cancel' },
  private_metadata: 'channel=C0GENERAL',
  blocks: [
    {
      type: 'input',
      block_id: 'name',
      label: { type: 'plain_text', text: 'Name' },
      element: { type: 'plain_text_input', action_id: 'name_input', max_length: 20 },
    },
    {
      type: 'input',
      block_id: 'region',
      label: { type: 'plain_text', text: 'Region' },
      element: {
        type: 'static_select',
        action_id: 'region_input',
        option_groups: [
          {
            label: { type: 'plain_text', text: 'America' },
            options: [{ text: { type: 'plain_text', text: 'West Coast (CA1)' }, value: 'West Coast (CA1)' }],
          },
          {
            label: { type: 'plain_text', text: 'Europe' },
            options: [{ text: { type: 'plain_text', text: 'Europe (AMS1)' }, value: 'Europe (AMS1)' }],
          },
        ],
      },
    },
    {
      type: 'input',
      block_id: 'size',
      label: { type: 'plain_text', text: 'Storage size (GB)' },
      element: {
        type: 'number_input',
        action_id: 'size_input',
        is_decimal_allowed: false,
        initial_value: '50',
      },
    },
    {
      type: 'input',
      block_id: 'options',
      optional: true,
      label: { type: 'plain_text', text: 'Options' },
      element: {
        type: 'checkboxes',
        action_id: 'options_input',
        options: [
          { text: { type: 'plain_text', text: 'Public IP' }, value: 'public_ip' },
          { text: { type: 'plain_text', text: 'Start on create' }, value: 'start' },
        ],
        initial_options: [{ text: { type: 'plain_text', text: 'Start on create' }, value: 'start' }],
      },
    },
    {
      type: 'input',
      block_id: 'billing',
      label: { type: 'plain_text', text: 'Billing' },
      element: {
        type: 'radio_buttons',
        action_id: 'billing_input',
        options: [
          { text: { type: 'plain_text', text: 'hourly' }, value: 'hourly' },
          { text: { type: 'plain_text', text: 'monthly' }, value: 'monthly' },
        ],
      },
    },
    {
      type: 'input',
      block_id: 'owner',
      optional: true,
      label: { type: 'plain_text', text: 'Owner' },
      element: { type: 'users_select', action_id: 'owner_input' },
    },
  ],
};

function register(app: App, received: Received[]): void {
  app.command('/ps', async ({ command, ack, respond, client }) => {
    received.push({ kind: 'command', body: { ...command } });
    const scene = command.text.trim();
    if (scene === 'card') {
      await ack();
      await respond({ response_type: 'ephemeral', text: 'Your machines', blocks: card('off') });
      return;
    }
    if (scene === 'modal') {
      await ack();
      await client.views.open({ trigger_id: command.trigger_id, view: modalView as never });
      return;
    }
    if (scene === 'slow') {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await ack();
      return;
    }
    await ack({ response_type: 'ephemeral', text: `You typed *${command.text}*` });
  });

  app.action('machine_start', async ({ ack, body, respond, client }) => {
    received.push({ kind: 'action', body: body as never });
    await ack();
    const channel = body.channel?.id ?? '';
    const posted = await client.chat.postMessage({
      channel,
      text: 'Starting',
      blocks: card('starting') as never,
    });
    await respond({ replace_original: true, text: 'Posted the card in the channel.' });
    await client.chat.update({ channel, ts: posted.ts ?? '', text: 'Ready', blocks: card('ready') as never });
    await client.chat.postMessage({
      channel,
      thread_ts: posted.ts ?? '',
      text: `*${escapeMrkdwn(HOSTILE_NAME)}* is ready`,
    });
  });
  for (const actionId of ['machine_stop', 'machine_overflow', 'pick_region']) {
    app.action(actionId, async ({ ack, body }) => {
      received.push({ kind: 'action', body: body as never });
      await ack();
    });
  }

  // Steps as the manifest declares them: Stop completes (leaving out its state output when the machine
  // is named "no-state", which Slack refuses), Restart fails, and Wait leaves its run open.
  app.function('stop_machine', async ({ body, event, complete, client }) => {
    received.push({ kind: 'event', body: body as never });
    const name = String(event.inputs.machine);
    const outputs: Record<string, string> = { machine_id: 'ps123', machine_name: name, state: 'stopping' };
    if (name === 'no-state') delete outputs.state;
    try {
      await complete({ outputs });
    } catch (error) {
      // What Slack refused is posted where the test reads it; the client carries the run's token.
      const code = (error as { data?: { error?: string } }).data?.error ?? 'unknown';
      await client.chat.postMessage({ channel: 'C0GENERAL', text: `completeSuccess refused: ${code}` });
    }
  });
  app.function('restart_machine', async ({ body, fail }) => {
    received.push({ kind: 'event', body: body as never });
    await fail({ error: 'gpu-1 is off, so there is nothing to restart.' });
  });
  app.function('wait_for_machine_state', async ({ body }) => {
    received.push({ kind: 'event', body: body as never });
  });

  // Unfurls every link Slack names with a running machine's card.
  app.event('link_shared', async ({ event, body, client }) => {
    received.push({ kind: 'event', body: body as never });
    const unfurls = Object.fromEntries(event.links.map((link) => [link.url, { blocks: card('ready') }]));
    await client.chat.unfurl({ channel: event.channel, ts: event.message_ts, unfurls: unfurls as never });
  });

  app.event('app_home_opened', async ({ event, body, client }) => {
    received.push({ kind: 'event', body: body as never });
    await client.views.publish({
      user_id: event.user,
      view: {
        type: 'home',
        blocks: [
          { type: 'section', text: { type: 'mrkdwn', text: `Hello <@${event.user}>` } },
          {
            type: 'actions',
            elements: [
              { type: 'button', action_id: 'home_refresh', text: { type: 'plain_text', text: 'Refresh' } },
            ],
          },
        ],
      },
    });
  });
  app.action('home_refresh', async ({ ack, body }) => {
    received.push({ kind: 'action', body: body as never });
    await ack();
  });

  app.view('scripted_modal', async ({ ack, body, view }) => {
    received.push({ kind: 'view_submission', body: body as never });
    const name = view.state.values.name?.name_input?.value ?? '';
    if (name === 'taken') {
      await ack({ response_action: 'errors', errors: { name: 'A machine with this name exists.' } });
      return;
    }
    if (name === 'next') {
      await ack({
        response_action: 'update',
        view: {
          ...modalView,
          title: { type: 'plain_text', text: 'Checking…' },
          blocks: modalView.blocks.slice(0, 1),
        } as never,
      });
      return;
    }
    await ack();
  });
}

/** The sandbox with the scripted app behind it; `ackTimeoutMs` short to test Slack's timeouts. */
export async function startScriptedSandbox(
  options: { ackTimeoutMs?: number } = {},
): Promise<ScriptedSandbox> {
  const logs = captureLogs('debug');
  const received: Received[] = [];
  const sandbox = await startSlackSandbox({ logger: logs.logger, port: 0, ...options });
  const app = createSlackApp({
    metadataKeys: [randomBytes(32)],
    mode: 'http',
    botToken: sandbox.botToken,
    signingSecret: sandbox.signingSecret,
    slackApiUrl: sandbox.apiUrl,
    logger: logs.logger,
    port: 0,
    register: (bolt) => register(bolt, received),
  });
  const { port } = await app.start();
  const requestUrl = `http://127.0.0.1:${port}${SLACK_EVENTS_PATH}`;
  sandbox.setRequestUrl(requestUrl);
  return {
    sandbox,
    app,
    requestUrl,
    logs,
    received,
    async close() {
      await app.stop();
      await sandbox.close();
    },
  };
}

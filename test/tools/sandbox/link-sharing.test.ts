// Link unfurling in the sandbox: a message typed in the page with a link under the app's unfurl domain
// (manifest.yml: paperspace.com) reaches a real Bolt app as a signed link_shared event, the app's
// chat.unfurl shows its card under the message, and a click in that card reaches the app as Slack
// sends a click in an unfurl.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PageMessage } from '../../../tools/sandbox/workspace.js';
import { type Received, type ScriptedSandbox, startScriptedSandbox } from './support/scripted-app.js';
import { waitFor } from './support/wait.js';

const GENERAL = 'C0GENERAL';
const ADA = 'U0ADA';
const LINK = 'https://console.paperspace.com/t7k2ab9x/machines/psada001';

let scripted: ScriptedSandbox;

beforeAll(async () => {
  scripted = await startScriptedSandbox();
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

const say = (text: string) => page('/sandbox/command', { channel: GENERAL, text });
const lastMessage = (): PageMessage | undefined =>
  scripted.sandbox.workspace
    .snapshotFor(ADA)
    .messages.filter((m) => m.channel === GENERAL)
    .at(-1);
const received = (kind: Received['kind']) => scripted.received.filter((entry) => entry.kind === kind);

describe('link_shared and chat.unfurl in the sandbox', () => {
  it('sends the app a link_shared event for the console link only, and shows its unfurl under the message', async () => {
    expect(await say(`look at ${LINK} and https://example.com/x`)).toEqual({ ok: true });
    const message = lastMessage();
    const unfurled = await waitFor(
      () => scripted.sandbox.workspace.message(GENERAL, message?.ts ?? '')?.unfurls[0],
      'the unfurl under the message',
    );
    const [event] = received('event');
    expect(event?.body).toMatchObject({
      type: 'event_callback',
      team_id: 'T0SANDBOX',
      event: {
        type: 'link_shared',
        channel: GENERAL,
        user: ADA,
        message_ts: message?.ts,
        source: 'conversations_history',
        links: [{ domain: 'console.paperspace.com', url: LINK }],
      },
    });
    expect(unfurled.url).toBe(LINK);
    expect(JSON.stringify(unfurled.blocks)).toContain('🟢 Ready');
    // The message itself stays Ada's, as she typed it.
    expect(scripted.sandbox.workspace.message(GENERAL, message?.ts ?? '')).toMatchObject({
      author: { kind: 'user', userId: ADA },
      text: `look at <${LINK}> and <https://example.com/x>`,
    });
  });

  it('sends nothing for a message without a link under the app’s domains', async () => {
    await say('see https://docs.example.com/paperspace.com and https://notpaperspace.com/machines/ps1');
    await say(`now ${LINK}`);
    await waitFor(() => received('event')[0], 'the link_shared event of the second message');
    expect(received('event')).toHaveLength(1);
  });

  it('sends a click in the unfurl as Slack does: the container names the unfurl, the message is the poster’s', async () => {
    await say(LINK);
    const message = lastMessage();
    await waitFor(
      () => scripted.sandbox.workspace.message(GENERAL, message?.ts ?? '')?.unfurls[0],
      'the unfurl',
    );
    expect(
      await page('/sandbox/action', {
        container: { kind: 'unfurl', channel: GENERAL, ts: message?.ts, url: LINK },
        blockId: 'card_actions',
        actionId: 'machine_stop',
      }),
    ).toEqual({ ok: true });
    const [action] = received('action');
    expect(action?.body).toMatchObject({
      type: 'block_actions',
      container: {
        type: 'message_attachment',
        message_ts: message?.ts,
        channel_id: GENERAL,
        is_ephemeral: false,
        is_app_unfurl: true,
        app_unfurl_url: LINK,
      },
      message: { ts: message?.ts, user: ADA, attachments: [{ app_unfurl_url: LINK, is_app_unfurl: true }] },
      actions: [{ action_id: 'machine_stop', value: 'ps1' }],
    });
    expect(
      await page('/sandbox/action', {
        container: { kind: 'unfurl', channel: GENERAL, ts: message?.ts, url: 'https://paperspace.com/other' },
        blockId: 'card_actions',
        actionId: 'machine_stop',
      }),
    ).toEqual({ ok: false, error: 'that unfurl is gone' });
  });
});

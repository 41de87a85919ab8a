// The sandbox page's side of its server, for tests that drive a running sandbox over HTTP as the page
// does: JSON posts to its endpoints, the event stream's snapshot of what a person sees, and linking a
// demo key through the real /ps login modal.
import { LoginFields } from '../../../../src/features/account/blocks/login-modal.js';

interface PageMessage {
  channel: string;
  ts: string;
  text: string;
  blocks: Record<string, unknown>[];
  threadTs: string | null;
}

interface PageSnapshot {
  messages: PageMessage[];
  ephemerals: PageMessage[];
  modals: { id: string; view: { blocks?: Record<string, unknown>[] } }[];
}

export interface SandboxPage {
  /** A JSON post to one of the page's endpoints, as `user`; the status and the answer. */
  post(
    path: string,
    body: Record<string, unknown>,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** What the person's page would show on connecting (the event stream's first event). */
  snapshot(user: string): Promise<PageSnapshot>;
  /**
   * Types `/ps login` in #general and submits the modal with the key (and the GraphQL access token,
   * when given), until the key is linked and the modal closed.
   */
  login(user: string, apiKey: string, accessToken?: string): Promise<void>;
}

/** `pageUrl` ends without a slash: `http://127.0.0.1:<port>`. */
export function sandboxPage(pageUrl: string): SandboxPage {
  const post: SandboxPage['post'] = async (path, body) => {
    const response = await fetch(`${pageUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  const snapshot = async (user: string): Promise<PageSnapshot> => {
    const controller = new AbortController();
    const response = await fetch(`${pageUrl}/sandbox/events?user=${user}`, { signal: controller.signal });
    const reader = response.body?.getReader();
    let text = '';
    while (!text.includes('\n\n')) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    controller.abort();
    return JSON.parse(/^data: (.+)$/m.exec(text)?.[1] ?? '{}') as PageSnapshot;
  };

  const hasKeyForm = (modal: PageSnapshot['modals'][number]) =>
    (modal.view.blocks ?? []).some((block) => block.block_id === LoginFields.apiKey.blockId);

  return {
    post,
    snapshot,
    async login(user, apiKey, accessToken) {
      const typed = await post('/sandbox/command', { user, channel: 'C0GENERAL', text: '/ps login' });
      if (typed.body.ok !== true) throw new Error(`/ps login failed: ${JSON.stringify(typed.body)}`);
      const form = await eventually(
        async () => (await snapshot(user)).modals.find(hasKeyForm),
        'the login modal to open',
      );
      const values: Record<string, Record<string, string>> = {
        [LoginFields.apiKey.blockId]: { [LoginFields.apiKey.actionId]: apiKey },
      };
      if (accessToken !== undefined) {
        values[LoginFields.accessToken.blockId] = { [LoginFields.accessToken.actionId]: accessToken };
      }
      await post('/sandbox/submit', { user, viewId: form.id, values });
      // The modal closes, or shows the linked result once the check outlived Slack's 3 seconds.
      const { modals } = await eventually(async () => {
        const seen = await snapshot(user);
        const waiting = seen.modals.some(
          (modal) => hasKeyForm(modal) || JSON.stringify(modal.view).includes('Checking'),
        );
        return waiting ? undefined : seen;
      }, `${user}'s key to be linked`);
      // The linked result, when the bot showed it in the modal, is closed as a person would.
      const [bottom] = modals;
      if (bottom !== undefined) await post('/sandbox/close', { user, viewId: modals.at(-1)?.id, all: true });
    },
  };
}

/** Polls an asynchronous probe until it finds something, as effects arrive after the acknowledgement. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

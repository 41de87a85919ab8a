// The sandbox server: the page's files with a strict content security policy, the page's endpoints
// closed to other origins and hosts, and an event stream that tells each person only what they may see.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SlackSandbox, startSlackSandbox } from '../../../tools/sandbox/slack-sandbox.js';
import { captureLogs } from '../../support/log-capture.js';

let sandbox: SlackSandbox;

beforeAll(async () => {
  sandbox = await startSlackSandbox({
    logger: captureLogs().logger,
    port: 0,
    notes: { U0ADA: 'link with demo-key' },
  });
});
afterAll(async () => {
  await sandbox.close();
});

/** A raw request, so that Host and Origin can be set as a browser on another site would send them. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body = '',
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { port } = new URL(sandbox.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}

interface Stream {
  /** Resolves with the data of the next event of that name that matches. */
  next(name: string, match?: (data: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Every event received so far. */
  seen: { name: string; data: Record<string, unknown> }[];
  close(): void;
}

async function openStream(user: string, query = ''): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(`${sandbox.url}/sandbox/events?user=${user}${query}`, {
    signal: controller.signal,
  });
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no stream');
  const seen: Stream['seen'] = [];
  let buffer = '';
  const pump = async () => {
    const { value, done } = await reader.read();
    if (done) return false;
    buffer += new TextDecoder().decode(value);
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const name = /^event: (.+)$/m.exec(frame)?.[1];
      const data = /^data: (.+)$/m.exec(frame)?.[1];
      if (name && data) seen.push({ name, data: JSON.parse(data) as Record<string, unknown> });
      end = buffer.indexOf('\n\n');
    }
    return true;
  };
  return {
    seen,
    async next(name, match = () => true) {
      let index = 0;
      for (;;) {
        const found = seen.slice(index).find((event) => event.name === name && match(event.data));
        if (found) return found.data;
        index = seen.length;
        if (!(await pump())) throw new Error(`the stream ended before a ${name} event`);
      }
    },
    close: () => controller.abort(),
  };
}

describe('the page', () => {
  it('is served with a content security policy that allows only its own scripts and requests', async () => {
    const response = await fetch(`${sandbox.url}/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<script type="module" src="/app.js"></script>');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    for (const file of ['/app.js', '/blockkit.js', '/chart.js', '/dialogs.js', '/mrkdwn.js', '/app.css']) {
      expect((await fetch(`${sandbox.url}${file}`)).status).toBe(200);
    }
  });

  it('serves its own files only', async () => {
    expect((await raw('GET', '/../package.json', { host: new URL(sandbox.url).host })).status).toBe(404);
    expect((await fetch(`${sandbox.url}/start-sandbox.ts`)).status).toBe(404);
  });
});

describe('the page’s endpoints', () => {
  const command = JSON.stringify({ user: 'U0ADA', channel: 'C0GENERAL', text: 'hello' });

  it('refuse requests from another origin, so no website can drive the sandbox from a visitor’s browser', async () => {
    const host = new URL(sandbox.url).host;
    const response = await raw(
      'POST',
      '/sandbox/command',
      { host, origin: 'https://evil.example', 'content-type': 'application/json' },
      command,
    );
    expect(response.status).toBe(403);
  });

  it('refuse a host name other than loopback (DNS rebinding)', async () => {
    const { port } = new URL(sandbox.url);
    const response = await raw(
      'POST',
      '/sandbox/command',
      { host: `rebind.evil.example:${port}`, 'content-type': 'application/json' },
      command,
    );
    expect(response.status).toBe(403);
    expect((await raw('GET', '/', { host: `rebind.evil.example:${port}` })).status).toBe(403);
  });

  it('take JSON only, so a cross-site form post cannot reach them', async () => {
    const host = new URL(sandbox.url).host;
    const response = await raw('POST', '/sandbox/command', { host, 'content-type': 'text/plain' }, command);
    expect(response.status).toBe(415);
  });

  it('name what is wrong with a bad request', async () => {
    const response = await fetch(`${sandbox.url}/sandbox/command`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'ada', channel: 'C0GENERAL', text: 'hi' }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain('must be a Slack user id');
  });

  it('post what a person types without a slash as their message', async () => {
    const response = await fetch(`${sandbox.url}/sandbox/command`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'U0ADA', channel: 'C0GENERAL', text: 'good morning @maya' }),
    });
    expect(await response.json()).toEqual({ ok: true });
    const posted = sandbox.workspace.snapshotFor('U0MAYA').messages.at(-1);
    expect(posted).toMatchObject({
      author: { kind: 'user', userId: 'U0ADA' },
      text: 'good morning <@U0MAYA|maya>',
    });
  });
});

describe('the event stream', () => {
  it('starts with what the person sees, their note and the browser’s time zone taken for everyone', async () => {
    const stream = await openStream('U0ADA', '&tz=Europe/Lisbon');
    try {
      const snapshot = await stream.next('snapshot');
      expect(snapshot.me).toBe('U0ADA');
      expect(snapshot.people).toContainEqual(
        expect.objectContaining({ id: 'U0ADA', note: 'link with demo-key' }),
      );
      const channels = (snapshot.channels as { id: string }[]).map((channel) => channel.id);
      expect(channels).toEqual(['C0GENERAL', 'G0PRIVATE', 'D0ADA']);
      expect(sandbox.workspace.timeZone()).toBe('Europe/Lisbon');
    } finally {
      stream.close();
    }
  });

  it('tells each person about channel messages, but about ephemeral messages and DMs only their own', async () => {
    const ada = await openStream('U0ADA');
    const maya = await openStream('U0MAYA');
    try {
      await ada.next('snapshot');
      await maya.next('snapshot');
      const { workspace } = sandbox;
      workspace.postEphemeral('C0GENERAL', 'U0ADA', { kind: 'bot' }, { text: 'for Ada', blocks: [] });
      workspace.post('D0ADA', { kind: 'bot' }, { text: 'DM to Ada', blocks: [] });
      workspace.post('C0GENERAL', { kind: 'bot' }, { text: 'for everyone', blocks: [] });
      const isEveryone = (data: Record<string, unknown>) =>
        (data.message as { text?: string } | undefined)?.text === 'for everyone';
      await ada.next('change', isEveryone);
      await maya.next('change', isEveryone);
      const texts = (stream: Stream) =>
        stream.seen.map((event) => (event.data.message as { text?: string } | undefined)?.text);
      expect(texts(ada)).toEqual(expect.arrayContaining(['for Ada', 'DM to Ada', 'for everyone']));
      expect(texts(maya)).not.toContain('for Ada');
      expect(texts(maya)).not.toContain('DM to Ada');
    } finally {
      ada.close();
      maya.close();
    }
  });

  it('refuses someone who is not in the workspace', async () => {
    expect((await fetch(`${sandbox.url}/sandbox/events?user=U0NOBODY`)).status).toBe(400);
  });
});

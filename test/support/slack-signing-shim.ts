// What stands in for Slack between an ordinary MCP client (the official conformance suite) and the bot's
// /mcp: the client sends unsigned requests with no caller, as any MCP client does, and the bot answers
// only what Slackbot's MCP client sends under Slack identity auth. So the shim signs each body as Slack
// signs (a fresh timestamp, `v0=` HMAC-SHA256 of `v0:<ts>:<body>`) and names a Slack caller in every
// tools/call's `params._meta.slack`; everything else passes through unchanged, both ways.
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { type SlackIdentity, signingFetch } from './slackbot-client.js';

export interface SlackSigningShimOptions {
  /** The bot's base URL; a request to the shim's path P goes to `${target}P`. */
  target: string;
  signingSecret: string;
  /** The person every tools/call is made for. */
  identity: SlackIdentity;
  now?: () => number;
}

export interface SlackSigningShim {
  /** The shim's base URL (port 0, loopback). */
  url: string;
  /** How many requests it forwarded. */
  forwarded(): number;
  close(): Promise<void>;
}

// Headers of one hop (RFC 9110 section 7.6.1) and the ones fetch sets from the body it sends.
const NOT_FORWARDED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

export async function startSlackSigningShim(options: SlackSigningShimOptions): Promise<SlackSigningShim> {
  const now = options.now ?? Date.now;
  const timestamps = createFreshTimestamps(now);
  let forwarded = 0;
  const server = createServer((request, response) => {
    void (async () => {
      const body = withCaller(await bodyOf(request), options.identity);
      const timestamp = await timestamps.fresh(body);
      const method = request.method ?? 'GET';
      // Slackbot's signing, as the tests' Slackbot client signs, at the second chosen for this body.
      const signed = signingFetch(options.signingSecret, () => timestamp * 1000);
      const answer = await signed(`${options.target}${request.url ?? '/'}`, {
        method,
        headers: forwardedHeaders(request.headers),
        ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
      });
      forwarded += 1;
      const answerHeaders: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!NOT_FORWARDED.has(name) && name !== 'content-encoding') answerHeaders[name] = value;
      });
      response.writeHead(answer.status, answerHeaders);
      if (answer.body === null) response.end();
      else Readable.fromWeb(answer.body).pipe(response);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`the signing shim could not forward the request: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded: () => forwarded,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * The second to sign a body at: now, unless that body was already signed at this second. The bot refuses
 * a tools/call whose signature it has seen (a replay), and a client may well send the same call twice
 * within one second; the shim waits for the next second rather than send what would be refused.
 */
function createFreshTimestamps(now: () => number) {
  const used = new Set<string>();
  return {
    async fresh(body: string): Promise<number> {
      const digest = createHash('sha256').update(body).digest('hex');
      for (;;) {
        const timestamp = Math.floor(now() / 1000);
        const key = `${timestamp}:${digest}`;
        if (!used.has(key)) {
          used.add(key);
          return timestamp;
        }
        await new Promise((resolve) => setTimeout(resolve, (timestamp + 1) * 1000 - now() + 1));
      }
    },
  };
}

/** The body with `identity` as `params._meta.slack` of each tools/call in it (one message or a batch). */
function withCaller(body: string, identity: SlackIdentity): string {
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return body;
  }
  const messages = Array.isArray(message) ? message : [message];
  const calls = messages.filter(
    (one): one is { params?: { _meta?: Record<string, unknown> } } =>
      typeof one === 'object' && one !== null && (one as { method?: unknown }).method === 'tools/call',
  );
  if (calls.length === 0) return body;
  for (const call of calls) {
    call.params = { ...call.params, _meta: { ...call.params?._meta, slack: identity } };
  }
  return JSON.stringify(message);
}

function forwardedHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || NOT_FORWARDED.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

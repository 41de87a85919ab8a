// How the Web API client reaches Slack. @slack/web-api calls a WHATWG fetch, and Node's own fetch
// builds web streams, a Headers object and a body mixin for every call, all on the bot's one event
// loop, where a burst of completions is as many posts; undici's request() on a keep-alive pool does
// the same work with far less CPU (the commit that made this change has the figures).
// This adapts request() to the part of fetch the client reads: status, headers and the whole body.
import type { webApi } from '@slack/bolt';
import { Agent, type Dispatcher, request } from 'undici';

const KEEP_ALIVE_MS = 30_000;

type FetchRequestInit = NonNullable<Parameters<webApi.FetchFunction>[1]>;
type FetchResponse = Awaited<ReturnType<webApi.FetchFunction>>;

export interface SlackTransport {
  fetch: webApi.FetchFunction;
  /** Waits for the calls under way, then closes; `force` cuts them off instead. */
  close(options?: { force?: boolean }): Promise<void>;
}

/** `connections`: as many as the clients using it run calls at once (their maxRequestConcurrency). */
export function createSlackTransport(connections: number): SlackTransport {
  const dispatcher = new Agent({ connections, keepAliveTimeout: KEEP_ALIVE_MS });
  return {
    fetch: (url, init) => requestAsFetch(dispatcher, url, init),
    close: (options) => (options?.force ? dispatcher.destroy() : dispatcher.close()),
  };
}

async function requestAsFetch(
  dispatcher: Dispatcher,
  url: string | URL,
  init: FetchRequestInit = {},
): Promise<FetchResponse> {
  // Multipart bodies (file uploads, which the bot does not make today) are Node's FormData, which
  // undici's own request() does not take: those keep Node's fetch.
  if (typeof init.body === 'object') return fetch(url, init);
  const response = await request(url, {
    dispatcher,
    method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
    ...(init.headers === undefined ? {} : { headers: init.headers }),
    ...(init.body === undefined ? {} : { body: init.body }),
    ...(init.signal === undefined ? {} : { signal: init.signal }),
  });
  // Slack's answers are small JSON documents: read once, then served as text, JSON or bytes.
  const body = Buffer.from(await response.body.arrayBuffer());
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    for (const each of Array.isArray(value) ? value : [value]) headers.append(name, each);
  }
  return {
    ok: response.statusCode >= 200 && response.statusCode < 300,
    status: response.statusCode,
    statusText: '',
    url: String(url),
    headers,
    arrayBuffer: async () => new Uint8Array(body).buffer,
    text: async () => body.toString('utf8'),
    json: async () => JSON.parse(body.toString('utf8')) as unknown,
  };
}

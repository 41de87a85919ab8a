// Every check a request to the Slack endpoint passes before Bolt sees it. The guard is where the
// signature is verified (with Bolt's own verifySlackRequest; the receiver's is switched off in app.ts),
// once: Bolt verified it a second time after the guard, a third of the guard's cost per request for
// nothing. What Bolt refused, the guard refuses the same way:
// - a request whose signature or timestamp header is missing or malformed, signed more than five
//   minutes ago, or whose signature does not match is refused with 401;
// - `ssl_check=1` (Slack's certificate check, unsigned) is answered 200 here and goes no further: Bolt,
//   without its verification, would dispatch a payload smuggled beside it.
// Then the checks Bolt does not make:
// - a body that is not an object (`null`, `payload=null`, a number) is refused with 400: Bolt reads
//   `body.ssl_check` on it and the rejection escapes every handler, killing the process;
// - a timestamp more than MAX_FUTURE_SKEW_S ahead is refused: Bolt only refuses stale ones, so a
//   request signed for the future could be replayed for as long as its author liked;
// - a correctly signed request whose signature was already seen within Slack's 5-minute window is
//   refused: replaying it would run the command again (a second machine, Start sent twice);
// - a response_url on any host but Slack's hooks host (or the stand-in Slack of SLACK_API_URL in the
//   sandbox and tests) is refused: the bot would POST to wherever a signed request pointed it.
//
// - a body over BODY_LIMIT_BYTES is refused with 413 before it is read further.
//
// Slackbot's MCP client signs its requests to `mcpPath` the same way (Slack identity auth), so they pass
// the same checks (the replay check for tools/call, the one method that does work); being JSON-RPC,
// they are refused with a JSON-RPC error in the body.
//
// When the store cannot be asked whether a request is a replay (the database is unreachable), nothing
// can be done for the person anyway (their key is in it), so the request is answered in words on its
// own surface instead of Slack's generic failure: a command's ephemeral reply, a pushed modal over a
// submitted form (closing it goes back to what was typed), an ephemeral at a clicked button. `/ps help`
// needs no database and running it twice harms nobody, so it goes through. Events get a 503, which
// Slack retries.
//
// Seen signatures are claimed in the store (the SHA-256 of each, never the signature itself), so a
// replay reaching another replica behind the load balancer is refused too; the claim is one INSERT on
// a primary key, atomic across replicas. This process's memory stays in front, so a replay to the same
// replica costs no query. Claims arriving within a few milliseconds go to the store together
// (gathered-claims.ts), so a burst commits them in one transaction rather than one each.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { HTTPModuleFunctions, verifySlackRequest } from '@slack/bolt';
import type { Logger } from 'pino';
import { request as httpRequest } from 'undici';
import { describeError } from '../errors/describe-error.js';
import { statusModal } from './block-kit/status-modal.js';
import { gatheredClaims } from './gathered-claims.js';
import { JsonRpcCode, jsonRpcError } from './mcp/json-rpc-error.js';

/** How far ahead of this clock Slack's timestamp may be (clock drift between Slack and this host). */
const MAX_FUTURE_SKEW_S = 60;
/** Bolt refuses requests older than this, so a signature need not be remembered longer. */
export const REPLAY_WINDOW_MS = 5 * 60_000;
/** How often the store's expired signatures are deleted (by whichever replica gets there). */
const PRUNE_EVERY_MS = 60_000;
/**
 * Slack's largest payload, a submitted modal, carries at most 100 blocks of a few thousand characters
 * and their state: a few hundred KB. Anything far beyond that is not Slack, and reading it costs memory.
 */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** What a person is told when the store cannot be asked whether their request is a replay. */
const GUARD_STORE_UNREACHABLE_TEXT =
  "I can't reach my database right now, so nothing was done. Try again in a minute.";
/** How long the guard waits for a response_url to take the answer above. */
const RESPONSE_URL_TIMEOUT_MS = 5_000;

/** The store's record of signatures served (RequestReplayRepository). */
export interface SeenSignatures {
  /** True for the first caller on any replica; false for a replay. */
  claim(signatureHash: string, expiresAt: number): Promise<boolean>;
  prune(now: number): Promise<number>;
}

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

export interface RequestGuardOptions {
  signingSecret: string;
  path: string;
  /** Slackbot's MCP endpoint, checked the same way; its refusals are JSON-RPC errors. */
  mcpPath?: string;
  /** Hosts a response_url may point at (`hooks.slack.com`, or a stand-in's host). */
  responseUrlHosts: readonly string[];
  /** Shared by every replica; without it only this process's memory catches replays. */
  seenSignatures?: SeenSignatures;
  logger: Logger;
  now?: () => number;
}

export function guardSlackRequests(listener: Listener, options: RequestGuardOptions): Listener {
  const now = options.now ?? Date.now;
  const seen = new Map<string, number>();
  const store = options.seenSignatures;
  const claim = store && gatheredClaims((hash, expiresAt) => store.claim(hash, expiresAt));

  const refuse = (response: ServerResponse, status: number, reason: string) => {
    options.logger.warn({ status, reason }, 'refused a request to the Slack endpoint');
    if (isMcp(response)) jsonRpcError(response, status, JsonRpcCode.invalidRequest, mcpRefusal(status));
    else response.writeHead(status).end();
  };

  let prunedAt = now();
  const pruneStore = (at: number) => {
    if (store === undefined || at - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = at;
    store.prune(at).catch((error: unknown) => {
      options.logger.warn({ error: String(error) }, 'could not prune the seen Slack request signatures');
    });
  };

  /** True the first time a signature is seen by any replica; false for a replay. */
  const rememberOnce = async (signature: string): Promise<boolean> => {
    const at = now();
    for (const [known, expiresAt] of seen) {
      if (expiresAt > at) break;
      seen.delete(known);
    }
    if (seen.has(signature)) return false;
    seen.set(signature, at + REPLAY_WINDOW_MS);
    if (claim === undefined) return true;
    const hash = createHash('sha256').update(signature).digest('hex');
    const first = await claim(hash, at + REPLAY_WINDOW_MS);
    pruneStore(at);
    return first;
  };

  const check = async (request: IncomingMessage, response: ServerResponse): Promise<boolean> => {
    const buffered = await HTTPModuleFunctions.bufferIncomingMessage(request, BODY_LIMIT_BYTES);
    const raw = buffered.rawBody.toString();
    const contentType = request.headers['content-type'] ?? '';
    if (contentType === 'application/x-www-form-urlencoded' && parseQuery(raw).ssl_check === '1') {
      response.writeHead(200).end();
      return false;
    }
    const signature = request.headers['x-slack-signature'];
    if (typeof signature !== 'string') {
      refuse(response, 401, 'the request has no x-slack-signature header');
      return false;
    }
    const timestamp = Number(request.headers['x-slack-request-timestamp']);
    const forged = signatureRefusal(raw, signature, timestamp, options.signingSecret, now());
    if (forged !== undefined) {
      refuse(response, 401, forged);
      return false;
    }
    if (timestamp * 1000 > now() + MAX_FUTURE_SKEW_S * 1000) {
      refuse(response, 401, 'the request timestamp is in the future');
      return false;
    }
    const body = objectBody(raw, contentType);
    if (body === 'not_an_object') {
      refuse(response, 400, 'the body is not a JSON object');
      return false;
    }
    if (body !== undefined && !responseUrlsAllowed(body, options.responseUrlHosts)) {
      refuse(response, 400, 'a response_url points outside Slack');
      return false;
    }
    // Slackbot sends the same initialize (and tools/list) for every conversation: two in one second are
    // byte for byte the same request, signature included. Served twice they only describe the server
    // again; a tools/call, which does work, is refused when it comes again.
    if (isMcp(response) && body?.method !== 'tools/call') return true;
    let first: boolean;
    try {
      first = await rememberOnce(signature);
    } catch (error) {
      // Without the store there is no telling a replay from a first request: nothing runs that could
      // run twice, and the person is told why.
      options.logger.error({ error: describeError(error) }, 'could not check a Slack request for a replay');
      if (body !== undefined && isHelpCommand(body)) return true;
      if (isMcp(response)) {
        jsonRpcError(response, 503, JsonRpcCode.internalError, GUARD_STORE_UNREACHABLE_TEXT);
        return false;
      }
      await answerWithoutStore(body, response, options.logger);
      return false;
    }
    if (!first) {
      refuse(response, 401, 'the request was already received (a replay)');
      return false;
    }
    return true;
  };

  return (request, response) => {
    // Before anything else: listeners' budgets before their ack count from here (ack-deadline.ts).
    stampArrival(request, now());
    // Matched exactly as the receiver matches its endpoint: anything it would treat as a Slack request
    // must pass through here, since the receiver no longer verifies signatures itself.
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const guarded = path === options.path || (options.mcpPath !== undefined && path === options.mcpPath);
    if (request.method?.toUpperCase() !== 'POST' || !guarded) {
      listener(request, response);
      return;
    }
    if (path === options.mcpPath) mcpResponses.add(response);
    check(request, response).then(
      (passed) => {
        if (passed) listener(request, response);
      },
      (error: unknown) => {
        const tooLarge = HTTPModuleFunctions.isRawBodyError(error) && error.statusCode === 413;
        if (response.headersSent) return;
        if (!tooLarge) {
          refuse(response, 400, 'the body could not be read');
          return;
        }
        // The rest of the body is still on its way; closing the connection stops it, where keep-alive
        // would have the server read (and the client send) all of it first.
        options.logger.warn(
          { status: 413, limit: BODY_LIMIT_BYTES },
          'refused a request to the Slack endpoint',
        );
        if (isMcp(response)) {
          jsonRpcError(response, 413, JsonRpcCode.invalidRequest, mcpRefusal(413), { connection: 'close' });
        } else {
          response.writeHead(413, { connection: 'close' }).end();
        }
      },
    );
  };
}

const arrivals = new WeakMap<IncomingMessage, number>();
/** The responses to requests at the MCP endpoint, whose refusals are JSON-RPC errors. */
const mcpResponses = new WeakSet<ServerResponse>();

function isMcp(response: ServerResponse): boolean {
  return mcpResponses.has(response);
}

/** What an MCP client is told about a refused request: the rule it broke, never a secret. */
function mcpRefusal(status: number): string {
  if (status === 401)
    return 'The request is not signed by Slack, or was signed too long ago, or was already received.';
  if (status === 413) return `The request is larger than ${BODY_LIMIT_BYTES / 1024 / 1024} MB.`;
  return 'The request is not a JSON-RPC message.';
}

function stampArrival(request: IncomingMessage, at: number): void {
  arrivals.set(request, at);
}

/** When the guard first saw `request` (epoch ms), for the receiver to put in the request's context. */
export function arrivalOf(request: IncomingMessage): number | undefined {
  return arrivals.get(request);
}

function isHelpCommand(body: Record<string, unknown>): boolean {
  return typeof body.command === 'string' && typeof body.text === 'string' && /^\s*help\b/i.test(body.text);
}

/** Answers a request the guard cannot let through because the store is unreachable (see the header). */
async function answerWithoutStore(
  body: Record<string, unknown> | undefined,
  response: ServerResponse,
  logger: Logger,
): Promise<void> {
  const answerJson = (answer: unknown) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  if (body !== undefined && typeof body.command === 'string') {
    answerJson({ response_type: 'ephemeral', text: `❌ ${GUARD_STORE_UNREACHABLE_TEXT}` });
    return;
  }
  if (body?.type === 'view_submission') {
    answerJson({
      response_action: 'push',
      view: statusModal({
        title: 'Nothing was done',
        text: `❌ ${GUARD_STORE_UNREACHABLE_TEXT}`,
        close: 'Back',
      }),
    });
    return;
  }
  if (body?.type === 'block_actions') {
    response.writeHead(200).end();
    // The host was checked above (responseUrlsAllowed) before anything else was read.
    if (typeof body.response_url === 'string' && body.response_url !== '') {
      await httpRequest(body.response_url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          response_type: 'ephemeral',
          replace_original: false,
          text: `❌ ${GUARD_STORE_UNREACHABLE_TEXT}`,
        }),
        headersTimeout: RESPONSE_URL_TIMEOUT_MS,
        bodyTimeout: RESPONSE_URL_TIMEOUT_MS,
      })
        .then((answer) => answer.body.dump())
        .catch((error: unknown) =>
          logger.warn(
            { error: describeError(error) },
            'could not tell a clicker the database is unreachable',
          ),
        );
    }
    return;
  }
  // Events and the rest: Slack retries a 5xx answer, by which time the store may be back.
  logger.warn({ status: 503 }, 'refused a request to the Slack endpoint: the store is unreachable');
  response.writeHead(503).end();
}

/**
 * Why a request is not Slack's (Bolt's own verification: version, staleness, HMAC), or undefined when
 * it is. Bolt's messages name the header or rule, never the secret or the signatures.
 */
function signatureRefusal(
  raw: string,
  signature: string,
  timestamp: number,
  signingSecret: string,
  nowMs: number,
): string | undefined {
  if (!Number.isFinite(timestamp)) return 'the request has no valid x-slack-request-timestamp header';
  try {
    verifySlackRequest({
      signingSecret,
      body: raw,
      headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': timestamp },
      nowMilliseconds: nowMs,
    });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The parsed body; undefined when it is not JSON (Bolt answers that with 400 itself). */
function objectBody(raw: string, contentType: string): Record<string, unknown> | 'not_an_object' | undefined {
  let body: unknown;
  try {
    if (contentType === 'application/x-www-form-urlencoded') {
      const form = parseQuery(raw);
      if (form.payload === undefined) return { ...form };
      if (typeof form.payload !== 'string') return 'not_an_object';
      body = JSON.parse(form.payload);
    } else {
      body = JSON.parse(raw);
    }
  } catch {
    return undefined;
  }
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : 'not_an_object';
}

/** Every response_url of the request (a command's, an action's, a modal's response_urls) is https on an allowed host. */
export function responseUrlsAllowed(body: Record<string, unknown>, hosts: readonly string[]): boolean {
  const urls: unknown[] = [body.response_url];
  if (Array.isArray(body.response_urls)) {
    for (const entry of body.response_urls) {
      if (typeof entry === 'object' && entry !== null)
        urls.push((entry as Record<string, unknown>).response_url);
    }
  }
  return urls.every((url) => {
    if (url === undefined || url === '') return true;
    if (typeof url !== 'string' || !URL.canParse(url)) return false;
    const parsed = new URL(url);
    return (
      hosts.includes(parsed.host) && (parsed.protocol === 'https:' || parsed.hostname !== 'hooks.slack.com')
    );
  });
}

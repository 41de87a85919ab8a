// The sandbox's one HTTP server: the Slack stand-in (Web API and response_urls, for the bot), the
// page (plain files, no build step) and the page's own endpoints (what a person does, and the event
// stream back). It listens on loopback; the page's endpoints only take JSON from the page's own
// origin and host, so another website cannot drive the sandbox from a visitor's browser.
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { EventStream } from './events.js';
import { BodyTooLargeError, readBody, sendJson } from './http-util.js';
import type { Interactions, Outcome } from './interactions.js';
import type { SlackStandin } from './slack-standin.js';
import type { SlackbotMcp } from './slackbot-mcp.js';
import { isTimeZone } from './time-zone.js';
import { WORKFLOW_COMMAND, type WorkflowRuns } from './workflow-runs.js';
import type { Workspace } from './workspace.js';

const CLOCK_COMMAND = '/clock';
const PAGE_DIRECTORY = fileURLToPath(new URL('./page/', import.meta.url));
const PAGE_FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/blockkit.js': { file: 'blockkit.js', type: 'text/javascript; charset=utf-8' },
  '/mrkdwn.js': { file: 'mrkdwn.js', type: 'text/javascript; charset=utf-8' },
  '/chart.js': { file: 'chart.js', type: 'text/javascript; charset=utf-8' },
  '/dialogs.js': { file: 'dialogs.js', type: 'text/javascript; charset=utf-8' },
  '/slackbot.js': { file: 'slackbot.js', type: 'text/javascript; charset=utf-8' },
  '/tool-form.js': { file: 'tool-form.js', type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};
// Everything the page needs is its own files and its own endpoints; nothing else may load or run.
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const userId = z.string().regex(/^U[A-Z0-9]+$/, 'must be a Slack user id');
const entered = z.record(
  z.string(),
  z.record(z.string(), z.union([z.string().max(10_000), z.array(z.string().max(200)).max(100), z.null()])),
);
const schemas = {
  '/sandbox/command': z.object({
    user: userId,
    channel: z.string().min(1),
    text: z.string().min(1).max(10_000),
    threadTs: z.string().optional(),
  }),
  '/sandbox/action': z.object({
    user: userId,
    container: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('message'), channel: z.string(), ts: z.string() }),
      z.object({ kind: z.literal('ephemeral'), ts: z.string() }),
      z.object({ kind: z.literal('unfurl'), channel: z.string(), ts: z.string(), url: z.string() }),
      z.object({ kind: z.literal('view'), viewId: z.string() }),
    ]),
    blockId: z.string(),
    actionId: z.string(),
    selected: z.union([z.string(), z.array(z.string()), z.null()]).optional(),
    values: entered.optional(),
  }),
  '/sandbox/submit': z.object({ user: userId, viewId: z.string(), values: entered }),
  '/sandbox/close': z.object({ user: userId, viewId: z.string(), all: z.boolean() }),
  '/sandbox/home': z.object({ user: userId }),
  '/sandbox/clock': z.object({ user: userId, step: z.string().max(40) }),
  '/sandbox/slackbot/tools': z.object({ user: userId }),
  '/sandbox/slackbot/call': z.object({
    user: userId,
    tool: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be the name of one of the bot’s tools'),
    arguments: z.record(z.string(), z.unknown(), 'must be an object of the tool’s arguments'),
  }),
} as const;
type PagePath = keyof typeof schemas;
type PageAnswer =
  | Outcome
  | Awaited<ReturnType<SlackbotMcp['tools']>>
  | Awaited<ReturnType<SlackbotMcp['call']>>;

export interface SandboxServerOptions {
  standin: SlackStandin;
  interactions: Interactions;
  workflowRuns: WorkflowRuns;
  /** Slackbot's side of the bot's /mcp, played by the page's Slackbot panel. */
  slackbot: SlackbotMcp;
  events: EventStream;
  workspace: Workspace;
  /** Moves the sandbox clock by a step such as `+8h` (the page's buttons and `/clock`). */
  moveClock: (step: string) => Promise<Outcome>;
  logger: Logger;
  port: number;
  host: string;
}

export interface SandboxServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startSandboxServer(options: SandboxServerOptions): Promise<SandboxServer> {
  const { standin, interactions, workflowRuns, slackbot, events, workspace, moveClock, logger } = options;
  let allowedHosts = new Set<string>();

  const pageAction = async (path: PagePath, body: unknown): Promise<PageAnswer> => {
    switch (path) {
      case '/sandbox/command': {
        const input = schemas[path].parse(body);
        const typed = {
          userId: input.user,
          channel: input.channel,
          text: input.text,
          threadTs: input.threadTs,
        };
        const [command] = input.text.trim().split(/\s+/);
        // Workflow Builder's part, played by the page: runs one of the app's steps.
        if (command === WORKFLOW_COMMAND)
          return workflowRuns.run({ userId: input.user, channel: input.channel, text: input.text });
        // The sandbox's own control, not Slack's: the page's clock buttons, typed.
        if (command === CLOCK_COMMAND) return moveClock(input.text.trim().slice(CLOCK_COMMAND.length));
        return input.text.trimStart().startsWith('/')
          ? interactions.slashCommand(typed)
          : interactions.say(typed);
      }
      case '/sandbox/action': {
        const input = schemas[path].parse(body);
        return interactions.blockAction({ ...input, userId: input.user });
      }
      case '/sandbox/submit': {
        const input = schemas[path].parse(body);
        return interactions.submitView({ userId: input.user, viewId: input.viewId, values: input.values });
      }
      case '/sandbox/close': {
        const input = schemas[path].parse(body);
        return interactions.closeView({ userId: input.user, viewId: input.viewId, all: input.all });
      }
      case '/sandbox/home':
        return interactions.openHome(schemas[path].parse(body).user);
      case '/sandbox/clock':
        return moveClock(schemas[path].parse(body).step);
      case '/sandbox/slackbot/tools':
        schemas[path].parse(body);
        return slackbot.tools();
      case '/sandbox/slackbot/call': {
        const input = schemas[path].parse(body);
        if (workspace.person(input.user) === undefined)
          return { ok: false, error: 'user must be a person of the sandbox workspace' };
        return slackbot.call({ userId: input.user, tool: input.tool, arguments: input.arguments });
      }
    }
  };

  const servePage = async (path: string, response: ServerResponse): Promise<void> => {
    const entry = PAGE_FILES[path];
    if (entry === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    const content = await readFile(`${PAGE_DIRECTORY}${entry.file}`);
    response.writeHead(200, {
      'content-type': entry.type,
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
    response.end(content);
  };

  /** Refuses requests that name another host (DNS rebinding) or come from another origin (CSRF). */
  const fromThePage = (request: IncomingMessage): boolean => {
    const host = request.headers.host ?? '';
    if (!allowedHosts.has(host)) return false;
    const origin = request.headers.origin;
    return origin === undefined || origin === `http://${host}`;
  };

  const route = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://sandbox.invalid');
    const path = url.pathname;
    if (await standin.handle(request, response, path)) return;
    if (!fromThePage(request)) {
      response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end('Forbidden');
      return;
    }
    if (request.method === 'GET' && path === '/sandbox/events') {
      const user = url.searchParams.get('user') ?? '';
      if (workspace.person(user) === undefined) {
        sendJson(response, 400, { ok: false, error: 'user must be a person of the sandbox workspace' });
        return;
      }
      const timeZone = url.searchParams.get('tz');
      if (timeZone !== null && isTimeZone(timeZone)) workspace.setTimeZone(timeZone);
      events.open(request, response, user);
      return;
    }
    if (request.method === 'GET') {
      await servePage(path, response);
      return;
    }
    if (request.method !== 'POST' || !Object.hasOwn(schemas, path)) {
      response.writeHead(404).end();
      return;
    }
    if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
      sendJson(response, 415, { ok: false, error: 'send JSON' });
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(request));
    } catch (error) {
      sendJson(response, error instanceof BodyTooLargeError ? 413 : 400, {
        ok: false,
        error: 'unreadable body',
      });
      return;
    }
    try {
      const outcome = await pageAction(path as PagePath, body);
      sendJson(response, 200, outcome);
    } catch (error) {
      if (error instanceof z.ZodError) {
        sendJson(response, 400, { ok: false, error: z.prettifyError(error) });
        return;
      }
      throw error;
    }
  };

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      logger.error(
        { error: error instanceof Error ? error.message : String(error) },
        'sandbox request failed',
      );
      if (!response.headersSent) sendJson(response, 500, { ok: false, error: 'internal error' });
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `Port ${options.port} is already in use by another program: choose a free one with PORT ` +
                '(for example PORT=3100 npm start).',
            )
          : error,
      );
    });
    server.listen(options.port, options.host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  allowedHosts = new Set([
    `127.0.0.1:${port}`,
    `localhost:${port}`,
    `[::1]:${port}`,
    `${options.host}:${port}`,
  ]);
  const displayHost = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;

  return {
    url: `http://${displayHost.includes(':') ? `[${displayHost}]` : displayHost}:${port}`,
    port,
    close() {
      events.closeAll();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

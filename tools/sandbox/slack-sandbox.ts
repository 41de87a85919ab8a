// Slack's half of the sandbox, apart from any bot: the workspace, the Web API stand-in, the page and
// the signed requests to whatever app listens at the request URL. startSandbox puts the real bot
// behind it; tests can put a scripted Bolt app there instead.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { createChangeFeed } from './change-feed.js';
import { createEventStream } from './events.js';
import { createGrants } from './grants.js';
import { createInteractions } from './interactions.js';
import { createLinkSharing } from './link-sharing.js';
import { createFakeUnfurls } from './link-unfurls.js';
import { CLOCK_STEP_USAGE, type ClockControl, parseClockStep } from './sandbox-clock.js';
import { SANDBOX_APP } from './sandbox-identity.js';
import { type SandboxServer, startSandboxServer } from './sandbox-server.js';
import { API_PATH_PREFIX, createSlackStandin, RESPONSE_URL_PATH_PREFIX } from './slack-standin.js';
import { createSlackbotMcp } from './slackbot-mcp.js';
import { createViewStacks, type ViewStacks } from './view-stacks.js';
import { createFakeFunctions } from './workflow-functions.js';
import { createWorkflowRuns } from './workflow-runs.js';
import { createWorkspace, type Workspace } from './workspace.js';

export interface SlackSandboxOptions {
  logger: Logger;
  /** Port of the page and the stand-in; 0 picks a free one. */
  port: number;
  host?: string;
  /** A line per person for the user switcher (which demo key fits them). */
  notes?: Record<string, string>;
  /** Real time, for what Slack checks against it (signatures, trigger and response URL expiry). */
  now?: () => number;
  /** How long the app has to acknowledge (Slack: 3 s). */
  ackTimeoutMs?: number;
  /** The bot's movable clock (startSandbox); without it the page shows no clock and `/clock` says why. */
  clock?: ClockControl;
}

export interface SlackSandbox {
  /** `http://127.0.0.1:<port>`; the page is at `${url}/`. */
  url: string;
  /** SLACK_API_URL for the app: `${url}/api/`. */
  apiUrl: string;
  /** The bot token the stand-in accepts; fresh per start and never shown. */
  botToken: string;
  /** The secret requests to the app are signed with; fresh per start and never shown. */
  signingSecret: string;
  /** Where Slack's requests go: the app's `/slack/events` URL, once it listens. */
  setRequestUrl(url: string): void;
  workspace: Workspace;
  views: ViewStacks;
  close(): Promise<void>;
}

export async function startSlackSandbox(options: SlackSandboxOptions): Promise<SlackSandbox> {
  const { logger } = options;
  const now = options.now ?? Date.now;
  const botToken = `xoxb-sandbox-${randomBytes(16).toString('hex')}`;
  const signingSecret = randomBytes(32).toString('hex');
  const feed = createChangeFeed();
  // A message is stamped with the sandbox's time, as Slack stamps it with the time it was posted: a
  // reminder that fired at the sandbox's 12:00 reads 12:00. Signatures and expiries keep real time.
  const clock = options.clock;
  const workspace = createWorkspace({ feed, now: clock === undefined ? now : () => clock.reading().now });
  const views = createViewStacks({ feed, now });
  const grants = createGrants({ now });
  let requestUrl = '';
  let server: SandboxServer | undefined;
  const ackTimeout = options.ackTimeoutMs === undefined ? {} : { ackTimeoutMs: options.ackTimeoutMs };
  const unfurls = createFakeUnfurls(() => workspace.nextTs());
  const linkSharing = createLinkSharing({
    unfurls,
    workspace,
    signingSecret,
    requestUrl: () => requestUrl,
    logger,
    now,
    ...ackTimeout,
  });
  const interactions = createInteractions({
    workspace,
    views,
    grants,
    feed,
    signingSecret,
    requestUrl: () => requestUrl,
    responseUrl: (id) => `${server?.url ?? ''}${RESPONSE_URL_PATH_PREFIX}${encodeURIComponent(id)}`,
    logger,
    now,
    ...ackTimeout,
    onPosted: linkSharing.posted,
  });
  const functions = createFakeFunctions(SANDBOX_APP.appId);
  const workflowRuns = createWorkflowRuns({
    functions,
    workspace,
    signingSecret,
    requestUrl: () => requestUrl,
    logger,
    now,
    ...ackTimeout,
  });
  const slackbot = createSlackbotMcp({ signingSecret, requestUrl: () => requestUrl, logger, now });
  server = await startSandboxServer({
    standin: createSlackStandin({
      workspace,
      views,
      grants,
      botToken,
      functions,
      onRunEnded: workflowRuns.ended,
      unfurls,
      onUnfurled: linkSharing.unfurled,
      logger,
      now,
    }),
    interactions,
    workflowRuns,
    slackbot,
    events: createEventStream({
      feed,
      workspace,
      views,
      notes: options.notes ?? {},
      clock: options.clock?.reading,
    }),
    workspace,
    moveClock: async (step) => {
      const { clock } = options;
      if (clock === undefined)
        return { ok: false, error: 'This sandbox has no clock to move: its app keeps real time.' };
      const ms = parseClockStep(step);
      if (ms === undefined) return { ok: false, error: CLOCK_STEP_USAGE };
      await clock.advance(ms);
      feed.emit({ type: 'clock', ...clock.reading() });
      return { ok: true };
    },
    logger,
    port: options.port,
    host: options.host ?? '127.0.0.1',
  });
  const started = server;
  return {
    url: started.url,
    apiUrl: `${started.url}${API_PATH_PREFIX}`,
    botToken,
    signingSecret,
    setRequestUrl(url) {
      requestUrl = url;
    },
    workspace,
    views,
    async close() {
      await slackbot.close();
      await started.close();
    },
  };
}

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type CustomRoute, HTTPReceiver, type Receiver, SocketModeReceiver } from '@slack/bolt';
import type { InstallationStore } from '@slack/oauth';
import { WebClient, type WebClientOptions } from '@slack/web-api';
import type { Logger } from 'pino';
import { describeError } from '../errors/describe-error.js';
import { ARRIVED_AT } from './ack-deadline.js';
import { createBoltLogger } from './bolt-logger.js';
import {
  acknowledgeFailedSocketModeEvent,
  answerFailedHttpRequest,
  createSlackErrorHandler,
} from './error-handler.js';
import { installCallbacks } from './install-pages.js';
import { MCP_PATH } from './mcp/mcp-endpoint.js';
import { createMetadataSeal } from './metadata-seal.js';
import { oneTimeStateStore } from './one-time-oauth-state.js';
import { arrivalOf, BODY_LIMIT_BYTES, guardSlackRequests, type SeenSignatures } from './request-guard.js';
import { close, createRoutesServer, listen } from './routes-server.js';
import { openSealedMetadata, sealingFetch } from './sealed-views.js';
import { createSlackTransport } from './slack-transport.js';
import { guardSocketModePayloads } from './socket-mode-guard.js';

/** The one endpoint Slack posts slash commands, interactions and events to (manifest.yml says the same). */
export const SLACK_EVENTS_PATH = '/slack/events';
/** Where an installation starts (OAuth mode): a redirect to Slack's authorize page with a fresh state. */
export const SLACK_INSTALL_PATH = '/slack/install';
/** Where Slack sends the installer back with a code (manifest.yml's oauth_config.redirect_urls). */
export const SLACK_OAUTH_REDIRECT_PATH = '/slack/oauth_redirect';

const DEFAULT_PORT = 3000;
const SLACK_WEB_API_TIMEOUT_MS = 10_000;
/** Calls at once for people's requests: the Web API client's default queue. */
const INTERACTIVE_SLACK_CALLS = 100;
/**
 * Calls at once for the bot's own work (the scheduler's completions, reminders, alerts, cards). A tick
 * that finishes thousands of watches posts as many replies at once, each small and answered by Slack in
 * tens of milliseconds; a queue as short as the interactive one makes them wait for the queue instead
 * of for Slack. Slack's own limits are per channel and method, kept by the channel pacer and answered
 * with Retry-After, not by a queue.
 */
const BACKGROUND_SLACK_CALLS = 500;
/**
 * Connections the kernel holds for the HTTP server until the event loop accepts them (Linux caps it at
 * net.core.somaxconn). Node's default, 511, can overflow under a burst of Slack deliveries while the
 * loop is busy acking, and a dropped connection is retried by the sender seconds later: past Slack's
 * 3 s ack budget.
 */
const LISTEN_BACKLOG = 4096;

interface CommonSlackAppOptions {
  /** Bot token (xoxb-) of the one workspace served; undefined with `oauth`, where each installation has its own. */
  botToken: string | undefined;
  /** Base URL of the Slack Web API, e.g. `https://slack.com/api/`; tests point it at a fake server. */
  slackApiUrl: string;
  logger: Logger;
  /**
   * Port of the HTTP server: Slack's requests and customRoutes in HTTP mode, customRoutes only in Socket Mode.
   * 0 picks a free port; start() reports the one bound. Default 3000.
   */
  port?: number;
  /** Address the HTTP server binds to (`127.0.0.1` behind a local proxy); undefined: every interface. */
  host?: string;
  /**
   * Keys of the HMAC over views' private_metadata (metadata-seal.ts), the sealing key first: the
   * vault's `derivedKeys(METADATA_SEAL_PURPOSE)`.
   */
  metadataKeys: readonly Buffer[];
  /** Adds the listeners. Called once, before start(). */
  register: (app: App) => void;
  /**
   * Extra HTTP routes such as `GET /healthz`. HTTP mode serves them through Bolt's receiver (path patterns
   * like `/x/:id` work); Socket Mode serves them on its own server and matches paths exactly.
   */
  customRoutes?: CustomRoute[];
}

export interface HttpSlackAppOptions extends CommonSlackAppOptions {
  mode: 'http';
  /** Verifies that requests come from Slack. */
  signingSecret: string;
  /** The signatures served, shared by every replica (the store); without it, this process's memory only. */
  seenSignatures?: SeenSignatures;
  /** Installs in many workspaces by OAuth (Bolt's InstallProvider) instead of serving `botToken`'s one. */
  oauth?: SlackOAuthOptions;
}

/** The Slack app's OAuth credentials and where installations are kept; Bolt's authorize reads them. */
export interface SlackOAuthOptions {
  clientId: string;
  clientSecret: string;
  /** Signs the state that ties Slack's redirect to the browser that started the install. */
  stateSecret: string;
  installationStore: InstallationStore;
  /** The bot scopes asked for (scopes.ts). */
  scopes: readonly string[];
  /**
   * Slack's authorize page; Slack's own by default. Tests point it at the fake, whose page it is not:
   * the install flow's redirect is only followed, never rendered.
   */
  authorizationUrl?: string;
}

interface SocketSlackAppOptions extends CommonSlackAppOptions {
  mode: 'socket';
  /** App-level token (xapp-) with connections:write. */
  appToken: string;
}

export type SlackAppOptions = HttpSlackAppOptions | SocketSlackAppOptions;

export interface SlackApp {
  app: App;
  /**
   * A Web API client for the bot's own work in one workspace (the scheduler's), set up like the app's
   * (timeouts, no retries) but on connections of its own, BACKGROUND_SLACK_CALLS at once: a burst of
   * completions neither waits in the people's queue nor holds their calls up.
   */
  backgroundClient(botToken: string): WebClient;
  /**
   * A Web API client for a person's request that did not come through Bolt (a Slackbot tool call), set
   * up as Bolt's own clients are: the people's queue, the app's timeouts and sealing.
   */
  requestClient(botToken: string): WebClient;
  /**
   * Verifies the bot token (one auth.test call, at slackApiUrl), then listens (HTTP) or connects (Socket Mode).
   * Rejects with a message naming the problem when Slack refuses the token or cannot be reached.
   */
  start(): Promise<{ port: number }>;
  /** Stops accepting requests; a no-op when not started. */
  stop(): Promise<void>;
  /**
   * Closes the connections to Slack's Web API after stop(), once the listeners still answering are done:
   * it waits for calls under way, or cuts them off with `force`. Idle connections never hold the
   * process open, so this only tidies up.
   */
  closeConnections(options?: { force?: boolean }): Promise<void>;
}

function requireValue(value: string, name: string, mode: string): void {
  if (value.trim() === '') throw new Error(`createSlackApp: ${name} is required in ${mode} mode`);
}

/**
 * Builds the Bolt app for either transport.
 *
 * - HTTP mode uses Bolt's HTTPReceiver (node:http, no Express): one POST endpoint behind the request
 *   guard (which verifies signatures and timestamps, request-guard.ts), customRoutes, and a start() that
 *   resolves with the server so port 0 can be reported.
 * - The app is created with `deferInitialization`, so no Web API call happens in the constructor; start() runs
 *   auth.test once (against slackApiUrl) and Bolt caches the bot ids, so no request triggers another call.
 * - `processBeforeResponse` stays false: ack() answers Slack immediately and the listener keeps working.
 *   Nothing holds that work back for the acks of a burst: the replies people wait for would come later.
 */
export function createSlackApp(options: SlackAppOptions): SlackApp {
  const oauth = options.mode === 'http' ? options.oauth : undefined;
  if (oauth === undefined) requireValue(options.botToken ?? '', 'botToken', options.mode);
  else if (options.botToken !== undefined)
    throw new Error('createSlackApp: give botToken or oauth, not both');
  requireValue(options.slackApiUrl, 'slackApiUrl', options.mode);
  if (options.mode === 'http') requireValue(options.signingSecret, 'signingSecret', 'http');
  else requireValue(options.appToken, 'appToken', 'socket');

  const boltLogger = createBoltLogger(options.logger);
  const metadataSeal = createMetadataSeal(options.metadataKeys);
  const port = options.port ?? DEFAULT_PORT;
  const customRoutes = options.customRoutes ?? [];

  const receiver: Receiver =
    options.mode === 'http'
      ? new HTTPReceiver({
          signingSecret: options.signingSecret,
          endpoints: SLACK_EVENTS_PATH,
          port,
          customRoutes,
          logger: boltLogger,
          processBeforeResponse: false,
          // guardSlackRequests (below) verifies every request before the receiver sees it; a second
          // verification here would cost each request its HMACs again for nothing.
          signatureVerification: false,
          processEventErrorHandler: answerFailedHttpRequest,
          bodyLimit: BODY_LIMIT_BYTES,
          customPropertiesExtractor: (request) => ({ [ARRIVED_AT]: arrivalOf(request) ?? Date.now() }),
          ...(oauth === undefined
            ? {}
            : oauthReceiverOptions(oauth, options.slackApiUrl, options.seenSignatures)),
        })
      : new SocketModeReceiver({
          appToken: options.appToken,
          logger: boltLogger,
          // A separate object: the Socket Mode client mutates the options it is given.
          installerOptions: { clientOptions: { slackApiUrl: options.slackApiUrl } },
          processEventErrorHandler: acknowledgeFailedSocketModeEvent,
          customPropertiesExtractor: () => ({ [ARRIVED_AT]: Date.now() }),
        });

  if (receiver instanceof HTTPReceiver && options.mode === 'http') {
    receiver.requestListener = guardSlackRequests(receiver.requestListener, {
      signingSecret: options.signingSecret,
      path: SLACK_EVENTS_PATH,
      mcpPath: MCP_PATH,
      responseUrlHosts: responseUrlHosts(options.slackApiUrl),
      ...(options.seenSignatures === undefined ? {} : { seenSignatures: options.seenSignatures }),
      logger: options.logger,
    });
  }

  const transport = createSlackTransport(INTERACTIVE_SLACK_CALLS);
  const backgroundTransport = createSlackTransport(BACKGROUND_SLACK_CALLS);
  const clientOptions: WebClientOptions = {
    slackApiUrl: options.slackApiUrl,
    // The Web API client's defaults are no timeout and ten retries over about half an hour: a person waiting
    // on a reply, or a scheduler tick, must not hang that long when Slack is slow or unreachable.
    timeout: SLACK_WEB_API_TIMEOUT_MS,
    // No automatic retry: the client retries a timed-out chat.postMessage, and a post Slack received but
    // did not answer in time then lands twice. posting.ts moves a message on only when Slack's answer
    // proves nothing was posted; the scheduler retries its own work on a later tick.
    retryConfig: { retries: 0 },
    // On a 429 the client would pause its whole queue for Retry-After, and every request of every person
    // behind it: a views.open waiting there outlives its trigger's 3 s. A rate-limited call fails at
    // once instead; posting.ts takes the message to the next conversation, and background work
    // (a separate client, backgroundClient, used by the scheduler) tries again on a later tick.
    rejectRateLimitedCalls: true,
    maxRequestConcurrency: INTERACTIVE_SLACK_CALLS,
    fetch: sealingFetch(metadataSeal, transport.fetch),
  };
  const backgroundClientOptions: WebClientOptions = {
    ...clientOptions,
    maxRequestConcurrency: BACKGROUND_SLACK_CALLS,
    fetch: sealingFetch(metadataSeal, backgroundTransport.fetch),
  };
  const app = new App({
    // Without a token Bolt's authorize is the installer's: each request gets its workspace's token.
    ...(options.botToken === undefined ? {} : { token: options.botToken }),
    receiver,
    logger: boltLogger,
    logLevel: boltLogger.getLevel(),
    clientOptions,
    deferInitialization: true,
    extendedErrorHandler: true,
    // Bolt's default in-memory conversation store is per process; nothing here uses it, and with several
    // replicas it would silently disagree between them.
    convoStore: false,
  });
  app.error(createSlackErrorHandler(options.logger));
  // Over HTTP the same checks ran before Bolt saw the request (guardSlackRequests above).
  if (options.mode === 'socket')
    app.use(guardSocketModePayloads(responseUrlHosts(options.slackApiUrl), options.logger));
  app.use(openSealedMetadata(metadataSeal, options.logger));
  options.register(app);

  let state: 'idle' | 'starting' | 'started' | 'stopped' = 'idle';
  let routesServer: Server | undefined;

  const start = async (): Promise<{ port: number }> => {
    if (state !== 'idle') throw new Error(`createSlackApp: start() called when the app is ${state}`);
    state = 'starting';
    try {
      // app.init() runs auth.test on a single workspace's token; Bolt keeps the bot's ids from it for every
      // later request. Installed by OAuth there is no one token: each installation was checked as it came.
      await explainStartupFailure(() => app.init(), 'bot token', 'auth.test', options.slackApiUrl);
      if (options.mode === 'http') {
        const server = await app.start({
          port,
          ...(options.host === undefined ? {} : { host: options.host }),
          backlog: LISTEN_BACKLOG,
        });
        state = 'started';
        return { port: (server.address() as AddressInfo).port };
      }
      routesServer = await listen(createRoutesServer(customRoutes, options.logger), port, options.host);
      await explainStartupFailure(
        () => app.start(),
        'app token',
        'apps.connections.open',
        options.slackApiUrl,
      );
      state = 'started';
      return { port: (routesServer.address() as AddressInfo).port };
    } catch (error) {
      state = 'stopped';
      if (routesServer) await close(routesServer);
      throw error;
    }
  };

  const stop = async (): Promise<void> => {
    if (state !== 'started') return;
    state = 'stopped';
    await app.stop();
    if (routesServer) await close(routesServer);
  };

  return {
    app,
    backgroundClient: (botToken) =>
      new WebClient(botToken, { ...backgroundClientOptions, logger: boltLogger }),
    requestClient: (botToken) => new WebClient(botToken, { ...clientOptions, logger: boltLogger }),
    start,
    stop,
    closeConnections: async (closing) => {
      await Promise.all([transport.close(closing), backgroundTransport.close(closing)]);
    },
  };
}

/**
 * Bolt's HTTPReceiver runs the install flow itself (@slack/oauth's InstallProvider): GET /slack/install
 * redirects to Slack's authorize page with the scopes and a signed state kept in a cookie, and GET
 * /slack/oauth_redirect checks the state, exchanges the code (oauth.v2.access, then auth.test for the
 * bot id) and stores the installation. Our pages replace its bare defaults (install-pages.ts).
 */
function oauthReceiverOptions(
  oauth: SlackOAuthOptions,
  slackApiUrl: string,
  seenSignatures: SeenSignatures | undefined,
) {
  return {
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    scopes: [...oauth.scopes],
    installationStore: oauth.installationStore,
    installerOptions: {
      installPath: SLACK_INSTALL_PATH,
      stateStore: oneTimeStateStore(oauth.stateSecret, seenSignatures),
      redirectUriPath: SLACK_OAUTH_REDIRECT_PATH,
      // Straight to Slack: the page in between would only hold an "Add to Slack" button.
      directInstall: true,
      callbackOptions: installCallbacks,
      clientOptions: { slackApiUrl, timeout: SLACK_WEB_API_TIMEOUT_MS, retryConfig: { retries: 0 } },
      ...(oauth.authorizationUrl === undefined ? {} : { authorizationUrl: oauth.authorizationUrl }),
    },
  };
}

/**
 * Slack's response_urls live on hooks.slack.com. When SLACK_API_URL points at a stand-in (the sandbox,
 * the tests), its host is allowed too, so they keep working without another setting.
 */
function responseUrlHosts(slackApiUrl: string): string[] {
  const apiHost = new URL(slackApiUrl).host;
  return apiHost === 'slack.com' ? ['hooks.slack.com'] : ['hooks.slack.com', apiHost];
}

/** Turns a failed startup call into one sentence saying which credential or connection is at fault. */
async function explainStartupFailure(
  step: () => Promise<unknown>,
  credential: string,
  method: string,
  slackApiUrl: string,
): Promise<void> {
  try {
    await step();
  } catch (error) {
    const description = describeError(error);
    const reason = description.slackError
      ? `Slack refused the ${credential} (${method}: ${description.slackError})`
      : `${method} failed (${description.message}); is the Slack Web API at ${slackApiUrl} reachable?`;
    throw new Error(reason, { cause: error });
  }
}

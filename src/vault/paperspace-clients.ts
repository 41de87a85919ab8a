// One Paperspace client per person: every call made for a click or a command carries the API key of
// the Slack user who clicked or typed, read from the vault at that moment. Clients share one undici
// connection pool, so building one per request costs an object, not a connection.
import type { Dispatcher } from 'undici';
import {
  createPaperspaceClient,
  type PaperspaceClient,
  type PaperspaceClientOptions,
} from '../paperspace/client.js';
import { CAPABILITIES, type Capabilities, dialectOf } from '../paperspace/dialect.js';
import type { ResponseEvent } from '../paperspace/http.js';
import type { SlackUser } from '../store/slack-user.js';
import type { Credentials, KeyVault, LinkedAccount } from './key-vault.js';

export interface PaperspaceClientFactoryDeps {
  vault: KeyVault;
  baseUrl: string;
  graphqlUrl: string;
  dispatcher?: Dispatcher;
  timeoutMs?: number;
  /** Metrics and logging hook; the events carry no secret. */
  onResponse?: (event: ResponseEvent) => void;
  /** Injected into every client, so tests can run wait loops and backoff without real time. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  /**
   * The id of the Slack request being served (the bot's request scope), used when a caller passes
   * none: every Paperspace call made while serving a request carries its X-Request-Id.
   */
  currentRequestId?: () => string | undefined;
}

interface ClientRequestOptions {
  /** Correlates the Slack request with the API calls it causes (sent as X-Request-Id). */
  requestId?: string;
}

export interface PaperspaceClientFactory {
  /** What the configured API can do, known before any key is: the login form asks only what it needs. */
  capabilities: Capabilities;
  /** A client acting with the user's own linked key; undefined when the user has linked none. */
  forUser(user: SlackUser, options?: ClientRequestOptions): Promise<PaperspaceClient | undefined>;
  /** forUser's client and the account the key belongs to, from one read of the vault. */
  linkedClient(
    user: SlackUser,
    options?: ClientRequestOptions,
  ): Promise<{ client: PaperspaceClient; account: LinkedAccount } | undefined>;
  /** A client for credentials that are not stored yet, e.g. to check a key before linking it. */
  forCredentials(credentials: Credentials, options?: ClientRequestOptions): PaperspaceClient;
}

export function createPaperspaceClientFactory(deps: PaperspaceClientFactoryDeps): PaperspaceClientFactory {
  const clientOptions = (credentials: Credentials): PaperspaceClientOptions => ({
    apiKey: credentials.apiKey,
    ...(credentials.accessToken === undefined ? {} : { accessToken: credentials.accessToken }),
    baseUrl: deps.baseUrl,
    graphqlUrl: deps.graphqlUrl,
    ...(deps.dispatcher === undefined ? {} : { dispatcher: deps.dispatcher }),
    ...(deps.timeoutMs === undefined ? {} : { timeoutMs: deps.timeoutMs }),
    ...(deps.onResponse === undefined ? {} : { onResponse: deps.onResponse }),
    ...(deps.sleep === undefined ? {} : { sleep: deps.sleep }),
    ...(deps.now === undefined ? {} : { now: deps.now }),
  });

  const forCredentials = (credentials: Credentials, options: ClientRequestOptions = {}) => {
    const requestId = options.requestId ?? deps.currentRequestId?.();
    return createPaperspaceClient({
      ...clientOptions(credentials),
      ...(requestId === undefined ? {} : { requestId }),
    });
  };

  // A person's client is kept for as long as the vault keeps their key opened: the vault answers the
  // same credentials object for the same sealed record until it changes (opened-credentials.ts), so a
  // new link, a logout or a key rotation brings a new client, and nothing here holds a key longer than
  // the vault does. A kept client serves many requests, so its calls read the request id from the
  // request scope as each is made; a caller that names another id gets a client of its own. Building a
  // client per request was a share of every request's garbage. Only the contract's clients are kept:
  // a v1 client remembers its key's session (whose key, which team, whether an administrator) for its
  // whole life, and that must stay one request's.
  const dialect = dialectOf(deps.baseUrl);
  const kept = new WeakMap<Credentials, PaperspaceClient>();
  const clientFor = (credentials: Credentials, options: ClientRequestOptions = {}) => {
    const keep =
      dialect === 'contract' &&
      (options.requestId === undefined || options.requestId === deps.currentRequestId?.());
    if (!keep) return forCredentials(credentials, options);
    let client = kept.get(credentials);
    if (client === undefined) {
      client = createPaperspaceClient({
        ...clientOptions(credentials),
        ...(deps.currentRequestId === undefined ? {} : { currentRequestId: deps.currentRequestId }),
      });
      kept.set(credentials, client);
    }
    return client;
  };

  const linkedClient: PaperspaceClientFactory['linkedClient'] = async (user, options) => {
    const linked = await deps.vault.linked(user);
    return linked && { client: clientFor(linked.credentials, options), account: linked.account };
  };

  return {
    capabilities: CAPABILITIES[dialect],
    forCredentials,
    forUser: async (user, options) => (await linkedClient(user, options))?.client,
    linkedClient,
  };
}

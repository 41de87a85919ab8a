// A scaled-out deployment of real processes: replicas of src/main.ts (bot-process.ts) sharing one
// PostgreSQL schema, one Paperspace emulator (v1, today's API) and one fake Slack Web API, which run in
// the test's process on port 0 on the real clock. Unlike cluster.ts nothing here reaches into a
// replica: it is configured by its environment, spoken to over HTTP, and killed with a signal.
import { randomBytes } from 'node:crypto';
import { openStore, type Store } from '../../src/store/store.js';
import { createKeyVault, type KeyVault } from '../../src/vault/key-vault.js';
import { type RunningEmulator, startEmulator } from '../../tools/emulator/index.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack.js';
import {
  createSlackRequests,
  type SlackRequest,
  type SlackRequests,
  type SlackResponse,
  send,
} from '../support/slack-requests.js';
import { BOT_TOKEN, SIGNING_SECRET, TEAM_ID, type TestUserName, USERS } from '../support/test-bot.js';
import { type BotProcess, type BotProcessEnvironment, startBotProcess } from './bot-process.js';

/** The replicas' POLL_INTERVAL_MS: short, so a test on the real clock sees recovery within minutes. */
const PROCESS_POLL_INTERVAL_MS = 1000;
/** How long the emulator's starting state lasts, in real time. */
const TRANSITION_MS = 2000;

export interface ProcessDeploymentOptions {
  /** The schema the replicas connect to (through a proxy, for a test that cuts it). */
  replicaDatabaseUrl: string;
  /** The same schema, reached directly: the test links keys and reads progress through it. */
  databaseUrl: string;
  replicaNames: readonly string[];
  /** Demo users whose keys are in the vault before the replicas start, as if they had typed /ps login. */
  linked: readonly TestUserName[];
}

export interface ProcessDeployment {
  emulator: RunningEmulator;
  slack: FakeSlack;
  /** The test's own connection to the shared schema. */
  store: Store;
  /** The running replicas by name; a restarted one replaces its dead self. */
  replica(name: string): BotProcess;
  /** Signed requests, as Slack would send them to any replica. */
  requests: SlackRequests;
  /** Delivers a signed request to one replica, as Slack's load balancer would. */
  send(replica: BotProcess, request: SlackRequest): Promise<SlackResponse>;
  /** Starts a replica again under its name, as an orchestrator restarts a dead container. */
  restart(name: string): Promise<BotProcess>;
  close(): Promise<void>;
}

/** Writes a demo user's key into the vault through the same vault code and key the replicas use. */
async function link(vault: KeyVault, emulator: RunningEmulator, name: TestUserName): Promise<void> {
  const account = emulator.state.user(USERS[name].emulatorUserId);
  if (!account) throw new Error(`the emulator seed has no user ${USERS[name].emulatorUserId}`);
  await vault.link(
    { teamId: TEAM_ID, userId: USERS[name].slackId },
    {
      apiKey: USERS[name].apiKey,
      account: {
        userId: account.id,
        email: account.email,
        teamId: account.accountKind === 'team' ? account.accountId : null,
      },
    },
  );
}

export async function startProcessDeployment(options: ProcessDeploymentOptions): Promise<ProcessDeployment> {
  const emulator = await startEmulator({ transitionMs: TRANSITION_MS });
  const opened: Array<{ close(): Promise<void> }> = [emulator];
  const replicas = new Map<string, BotProcess>();
  const close = async () => {
    await Promise.allSettled([...replicas.values()].map((replica) => replica.stop()));
    await Promise.allSettled(opened.map((resource) => resource.close()));
  };
  try {
    const slack = await startFakeSlack({
      teamId: TEAM_ID,
      botToken: BOT_TOKEN,
      users: Object.values(USERS).map((user) => ({ id: user.slackId, tz: 'Europe/Amsterdam' })),
    });
    opened.push(slack);
    // Opened (and migrated) before any replica starts, so the replicas find the schema ready.
    const store = await openStore(options.databaseUrl);
    opened.push(store);
    const vaultKey = randomBytes(32);
    const vault: KeyVault = createKeyVault({ keys: [vaultKey], store, now: Date.now });
    for (const name of options.linked) await link(vault, emulator, name);
    const environment: BotProcessEnvironment = {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      PAPERSPACE_API_URL: emulator.v1Url,
      PAPERSPACE_GRAPHQL_URL: emulator.graphqlUrl,
      VAULT_KEY: vaultKey.toString('base64'),
      DATABASE_URL: options.replicaDatabaseUrl,
      POLL_INTERVAL_MS: String(PROCESS_POLL_INTERVAL_MS),
    };
    const start = async (name: string) => {
      const replica = await startBotProcess(name, environment);
      replicas.set(name, replica);
      return replica;
    };
    const started = await Promise.allSettled(options.replicaNames.map(start));
    const failed = started.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;

    return {
      emulator,
      slack,
      store,
      replica(name) {
        const replica = replicas.get(name);
        if (replica === undefined) throw new RangeError(`no replica named ${name}`);
        return replica;
      },
      requests: createSlackRequests({
        signingSecret: SIGNING_SECRET,
        responseUrl: slack.responseUrl,
        slack,
        teamId: TEAM_ID,
        userId: USERS.ada.slackId,
        botUserId: slack.botUserId,
      }),
      send: (replica, request) => send(replica.url, request),
      restart: start,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

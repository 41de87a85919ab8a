// Two replicas behind one load balancer share the store: a signed request replayed to the other
// replica is refused there too, and runs once. Real Bolt receivers on port 0, signed requests, and
// the store on SQLite and on PostgreSQL.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSlackApp, type SlackApp } from '../../src/slack/app.js';
import { SLASH_COMMAND } from '../../src/slack/ids.js';
import type { Store } from '../../src/store/store.js';
import { storeFactories, useFreshStore } from '../store/store-factories.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack.js';
import { captureLogs } from '../support/log-capture.js';
import { createSlackRequests, send } from '../support/slack-requests.js';

const SIGNING_SECRET = 'replay-test-signing-secret';

let slack: FakeSlack;
let running: SlackApp[] = [];

beforeAll(async () => {
  slack = await startFakeSlack();
});
afterAll(async () => {
  await slack.close();
});
afterEach(async () => {
  await Promise.all(running.map((app) => app.stop()));
  running = [];
});

/** One replica: its own Bolt app and port, the shared store, and a count of the commands it ran. */
async function replica(store: Store, ran: string[], name: string): Promise<string> {
  const app = createSlackApp({
    mode: 'http',
    botToken: 'xoxb-replay-test',
    signingSecret: SIGNING_SECRET,
    slackApiUrl: slack.apiUrl,
    logger: captureLogs('warn').logger,
    port: 0,
    metadataKeys: [randomBytes(32)],
    seenSignatures: store.requestReplays,
    register(bolt) {
      bolt.command(SLASH_COMMAND, async ({ ack, command }) => {
        ran.push(`${name}: ${command.text}`);
        await ack();
      });
    },
  });
  running.push(app);
  const { port } = await app.start();
  return `http://127.0.0.1:${port}`;
}

describe.each(storeFactories)('replayed requests with the store on $name', (factory) => {
  const db = useFreshStore(factory);

  it('runs a request replayed to another replica once, and refuses it on both', async () => {
    const ran: string[] = [];
    const first = await replica(db.store, ran, 'first');
    const second = await replica(await db.connect(), ran, 'second');
    const requests = createSlackRequests({
      signingSecret: SIGNING_SECRET,
      responseUrl: slack.responseUrl,
      slack,
    });
    const request = requests.slashCommand({ text: 'start gpu-1' });

    expect((await send(first, request)).status).toBe(200);
    expect((await send(second, request)).status).toBe(401);
    expect((await send(first, request)).status).toBe(401);
    expect(ran).toEqual(['first: start gpu-1']);
  });

  it('lets exactly one of two replicas run a request that reaches both at the same moment', async () => {
    const ran: string[] = [];
    const urls = [await replica(db.store, ran, 'first'), await replica(await db.connect(), ran, 'second')];
    const requests = createSlackRequests({
      signingSecret: SIGNING_SECRET,
      responseUrl: slack.responseUrl,
      slack,
    });
    const request = requests.slashCommand({ text: 'restart gpu-2' });

    const statuses = await Promise.all(urls.map((url) => send(url, request).then((answer) => answer.status)));
    expect(statuses.sort()).toEqual([200, 401]);
    expect(ran).toHaveLength(1);
  });

  it('stores the hash of a signature, never the signature, and forgets it once it expired', async () => {
    const ran: string[] = [];
    const url = await replica(db.store, ran, 'only');
    const requests = createSlackRequests({
      signingSecret: SIGNING_SECRET,
      responseUrl: slack.responseUrl,
      slack,
    });
    const request = requests.slashCommand({ text: 'stop gpu-3' });
    expect((await send(url, request)).status).toBe(200);

    const signature = String(request.headers['x-slack-signature']);
    const claimedAgain = await db.store.requestReplays.claim(signature, Date.now() + 60_000);
    expect(claimedAgain).toBe(true);
    expect(await db.store.requestReplays.prune(Date.now() + 10 * 60_000)).toBe(2);
  });
});

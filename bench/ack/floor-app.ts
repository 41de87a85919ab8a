// The minimal-work floor of the ack benchmark: the least any app can do for these requests, built as
// the bot is built (its own process, the same createSlackApp: HTTPReceiver, signature checks, the same
// logger and Slack transport). For each request it acks, makes the one Paperspace call the request
// needs with the clicker's key (undici, to the same emulator: the machine list for `/ps list`, the
// month's utilization for a Usage click) and posts one response_url reply. No vault, no database, no
// parsing beyond JSON, no Block Kit: whatever the bot spends beyond this is the bot's own.
import { randomBytes } from 'node:crypto';
import type { RespondFn } from '@slack/bolt';
import { Agent, request } from 'undici';
import { DEFAULT_POLL_CONCURRENCY } from '../../src/config.js';
import { decodeMachineRef } from '../../src/features/machines/blocks/machine-ref.js';
import { createSlackApp } from '../../src/slack/app.js';
import { ActionId, SLASH_COMMAND } from '../../src/slack/ids.js';
import { BENCH_BOT_TOKEN, BENCH_SIGNING_SECRET, discardingLogger } from '../support/bench-bot.js';

export interface FloorApp {
  url: string;
  close(): Promise<void>;
}

export interface FloorAppOptions {
  slackApiUrl: string;
  /** The emulator's contract REST base URL. */
  paperspaceApiUrl: string;
  /** Each Slack user id's Paperspace API key. */
  keys: ReadonlyMap<string, string>;
}

/**
 * As many sockets to Paperspace as the bot keeps (src/bot.ts takes the poll concurrency's default), kept
 * alive as long: with fewer, the floor's burst would queue for sockets the bot does not wait for.
 */
const PAPERSPACE_CONNECTIONS = DEFAULT_POLL_CONCURRENCY;

export async function startFloorApp(options: FloorAppOptions): Promise<FloorApp> {
  const paperspace = new Agent({ connections: PAPERSPACE_CONNECTIONS, keepAliveTimeout: 10_000 });
  const answer = async (
    userId: string,
    path: string,
    respond: RespondFn,
    describe: (body: unknown) => string,
  ) => {
    const key = options.keys.get(userId);
    if (key === undefined) throw new Error(`no key for ${userId}`);
    const response = await request(`${options.paperspaceApiUrl}${path}`, {
      dispatcher: paperspace,
      headers: { 'x-api-key': key },
    });
    const body = await response.body.json();
    if (response.statusCode !== 200) throw new Error(`Paperspace answered ${response.statusCode}`);
    await respond({ response_type: 'ephemeral', replace_original: false, text: describe(body) });
  };
  const billingMonth = new Date().toISOString().slice(0, 7);
  const slackApp = createSlackApp({
    metadataKeys: [randomBytes(32)],
    mode: 'http',
    botToken: BENCH_BOT_TOKEN,
    signingSecret: BENCH_SIGNING_SECRET,
    slackApiUrl: options.slackApiUrl,
    logger: discardingLogger(),
    port: 0,
    register(app) {
      app.command(SLASH_COMMAND, async ({ ack, command, respond }) => {
        await ack();
        await answer(command.user_id, '/machines/getMachines', respond, (machines) =>
          Array.isArray(machines) ? `${machines.length} machines` : 'no machines',
        );
      });
      app.action(ActionId.machineUsage, async ({ ack, body, action, respond }) => {
        await ack();
        const value = action.type === 'button' ? action.value : undefined;
        const machineId = decodeMachineRef(value ?? '').id;
        const query = new URLSearchParams({ machineId, billingMonth });
        await answer(
          body.user.id,
          `/machines/getUtilization?${query}`,
          respond,
          () => `usage of ${machineId}`,
        );
      });
    },
  });
  const { port } = await slackApp.start();
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await slackApp.stop();
      await paperspace.close();
    },
  };
}

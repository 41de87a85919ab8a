import { randomBytes } from 'node:crypto';
// The floor of the ack benchmark: the same Bolt app the bot builds (createSlackApp: HTTPReceiver,
// signature checks, the same logger), with listeners that only ack. Whatever the bot adds to an ack's
// latency is the distance to this app.
import { createSlackApp } from '../../src/slack/app.js';
import { ActionId, SLASH_COMMAND } from '../../src/slack/ids.js';
import { BENCH_BOT_TOKEN, BENCH_SIGNING_SECRET, discardingLogger } from './bench-bot.js';

export interface BareBolt {
  url: string;
  close(): Promise<void>;
}

export async function startBareBolt(options: { slackApiUrl: string }): Promise<BareBolt> {
  const slackApp = createSlackApp({
    metadataKeys: [randomBytes(32)],
    mode: 'http',
    botToken: BENCH_BOT_TOKEN,
    signingSecret: BENCH_SIGNING_SECRET,
    slackApiUrl: options.slackApiUrl,
    logger: discardingLogger(),
    port: 0,
    register(app) {
      app.command(SLASH_COMMAND, async ({ ack }) => {
        await ack();
      });
      app.action(ActionId.machineUsage, async ({ ack }) => {
        await ack();
      });
    },
  });
  const { port } = await slackApp.start();
  return { url: `http://127.0.0.1:${port}`, close: () => slackApp.stop() };
}

// Child process of the reports benchmark: the bot, with every person's key linked and the team digest
// set by the administrator, measuring its own event loop (perf_hooks monitorEventLoopDelay) while it
// builds the reports it is asked for. Started by reports.ts only.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createManualCron } from '../../test/support/manual-cron.js';
import { createFakeClock } from '../../tools/emulator/index.js';
import { startBenchBot } from '../support/bench-bot.js';
import { linkAccounts } from '../support/bench-world.js';
import { parentChannel, type STOP } from '../support/child-process.js';
import type {
  DigestPosted,
  POST_DIGEST,
  READ_STALLS,
  RESET_STALLS,
  ReportsBotConfig,
  ReportsBotReady,
  Stalls,
} from './reports-protocol.js';

const channel = parentChannel();
const config = await channel.next<ReportsBotConfig>();
// The bot's own clock, moved to the digest's hour when it is asked for; it starts at the real time, so
// the billing month is the emulator's.
const clock = createFakeClock(Date.now());
const cron = createManualCron(clock.now);
const bench = await startBenchBot({
  paperspace: config.paperspace,
  slackApiUrl: config.slackApiUrl,
  now: clock.now,
  cron,
});
await linkAccounts(bench.vault, config.accounts);
await bench.store.teamDigests.put({
  teamId: config.admin.slackUser.teamId,
  paperspaceTeamId: config.admin.account.teamId ?? '',
  channel: config.channel,
  cron: '0 9 * * *',
  timezone: 'UTC',
  label: 'daily at 09:00',
  setBy: config.admin.slackUser.userId,
  createdAt: clock.now(),
});
// The scheduler's tick schedules the stored digest with the cron engine; its other jobs (the cost
// guard's first look at everyone's machines) run on after it, so the measuring waits until they are done.
await bench.bot.scheduler.tick();
await quiet();

const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
channel.send({ url: bench.url } satisfies ReportsBotReady);

for (;;) {
  const message = await channel.next<
    typeof POST_DIGEST | typeof RESET_STALLS | typeof READ_STALLS | typeof STOP
  >();
  if (message.type === 'stop') break;
  if (message.type === 'reset-stalls') {
    delay.reset();
    channel.send(null);
  } else if (message.type === 'read-stalls') {
    channel.send({ maxMs: delay.max / 1e6, p99Ms: delay.percentile(99) / 1e6 } satisfies Stalls);
  } else {
    // The next 09:00 UTC, when the digest is due.
    const nextNine = new Date(clock.now());
    nextNine.setUTCHours(9, 0, 0, 0);
    if (nextNine.getTime() <= clock.now()) nextNine.setUTCDate(nextNine.getUTCDate() + 1);
    clock.set(nextNine.getTime());
    const started = performance.now();
    const fired = await cron.runDue();
    channel.send({ tookMs: performance.now() - started, fired } satisfies DigestPosted);
  }
}
delay.disable();
await bench.close();
channel.disconnect();

/** Waits until the bot used under a tenth of a core over half a second (at most a minute). */
async function quiet(): Promise<void> {
  const giveUpAt = performance.now() + 60_000;
  for (;;) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const used = process.cpuUsage(before);
    if ((used.user + used.system) / 1000 < 50 || performance.now() > giveUpAt) return;
  }
}

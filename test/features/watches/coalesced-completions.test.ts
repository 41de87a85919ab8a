// A team waits in one channel: when their machines finish in the same tick, Slack's one message a
// second there would make the last person wait half a minute. The completions waiting for the channel
// go out together at Slack's pace (the real SLACK_PACING here, against the strict fake Slack): a few
// messages, each machine's line mentioning its person, nothing in anyone's DM.
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWatchOutcomes } from '../../../src/features/watches/watch-outcomes.js';
import { createWatchReporter } from '../../../src/features/watches/watch-reporter.js';
import { blockTextLength } from '../../../src/slack/block-kit/message-budget.js';
import { createChannelPacer } from '../../../src/slack/channel-pacer.js';
import type { Watch } from '../../../src/store/watch-types.js';
import { sqliteFile, useFreshStore } from '../../store/store-factories.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { captureLogs } from '../../support/log-capture.js';

const CHANNEL = 'C0TEAM';
let slack: FakeSlack;
beforeAll(async () => {
  slack = await startFakeSlack({ botToken: 'xoxb-coalesce' });
});
afterAll(() => slack.close());
beforeEach(() => slack.reset());

describe('completions that finish together in one channel', () => {
  const db = useFreshStore(sqliteFile);

  /** Each machine started from its own card in CHANNEL, finished in the same tick, handed to the outcomes. */
  async function finishTogether(machines: { userId: string; name: string }[]) {
    const logger = captureLogs('warn').logger;
    // As the bot's own client (slack/app.ts): a 429 is the caller's to wait out.
    const client = new WebClient('xoxb-coalesce', {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
    const reporter = createWatchReporter({ slack: async () => client, logger, pacer: createChannelPacer() });
    const outcomes = createWatchOutcomes({ store: db.store, reporter, logger, now: Date.now });
    const finishedAt = Date.now();
    const report = {
      outcome: { status: 'done' as const, state: 'ready', elapsedMs: 95_000 },
      machine: null,
      timeline: [],
    };
    const watches: Watch[] = [];
    for (const [index, machine] of machines.entries()) {
      const cardTs = `1700000900.${String(index + 1).padStart(6, '0')}`;
      slack.showMessage(CHANNEL, cardTs);
      const watch = await db.store.watches.create({
        teamId: 'T0ACME',
        userId: machine.userId,
        machineId: `pscoal${index}`,
        machineName: machine.name,
        targetState: 'ready',
        channel: CHANNEL,
        messageTs: cardTs,
        createdAt: finishedAt - 95_000,
        deadlineAt: finishedAt + 30 * 60_000,
      });
      await db.store.watches.complete(watch.id, {
        status: 'done',
        at: finishedAt,
        report: outcomes.stored(report, finishedAt),
      });
      watches.push(watch);
    }
    // As the poller does when the tick's list shows them all at their target.
    for (const watch of watches) outcomes.dispatch(watch, report);
    await outcomes.settled();
    return watches;
  }

  const posts = () => slack.calls('chat.postMessage');
  const lines = () =>
    posts()
      .filter((call) => call.answer?.ok)
      .flatMap((call) => String(call.args.text).split('\n'));

  it('posts 35 completions of 30 people in a few messages, each person mentioned once per machine, none in a DM', async () => {
    // 30 people, the first five with two machines each.
    const people = Array.from({ length: 30 }, (_, index) => `U0TEAM${String(index).padStart(3, '0')}`);
    const machines = [
      ...people.map((userId, index) => ({ userId, name: `team-gpu-${index}` })),
      ...people.slice(0, 5).map((userId, index) => ({ userId, name: `team-cpu-${index}` })),
    ];
    const started = Date.now();
    await finishTogether(machines);

    expect(posts().length).toBeLessThanOrEqual(3);
    expect(posts().every((call) => call.args.channel === CHANNEL)).toBe(true);
    // Kept to Slack's pace: no 429 came back at all, so none could be left unhandled.
    expect(posts().every((call) => call.answer?.ok === true)).toBe(true);
    for (const machine of machines) {
      const about = lines().filter((line) => line.includes(`*${machine.name}*`));
      // The header says Ready for all of them: the line says whose machine and how long it took.
      expect(about).toEqual([`<@${machine.userId}> *${machine.name}* (took 1m35s)`]);
    }
    for (const [index, userId] of people.entries()) {
      expect(lines().filter((line) => line.includes(`<@${userId}>`))).toHaveLength(index < 5 ? 2 : 1);
    }
    // A message of several says how many it carries.
    for (const text of posts().map((call) => String(call.args.text).split('\n'))) {
      if (text.length > 1) expect(text[0]).toBe(`${text.length - 1} machines are 🟢 Ready:`);
    }
    // Nothing is left due. (Each card's final update, coalesced or not: test/replicas/scale-out.test.ts.)
    expect(await db.store.watches.dueReports(Date.now() + 10 * 60_000, 100)).toEqual([]);
    // Together at once (or a second later): not 35 seconds of turns.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('posts a coalesced message Slack still rate limits after waiting out Retry-After in the next turn, losing no one', async () => {
    // Another app posting in the channel keeps it over Slack's pace for longer than one post waits (six
    // answers of 429: the first post and its five waits of Retry-After).
    slack.script('chat.postMessage', { channel: CHANNEL, status: 429, retryAfterSeconds: 1, times: 6 });
    const machines = Array.from({ length: 8 }, (_, index) => ({
      userId: `U0LATE${String(index).padStart(3, '0')}`,
      name: `late-gpu-${index}`,
    }));
    await finishTogether(machines);

    const refused = posts().filter((call) => call.answer?.ok !== true);
    expect(refused).toHaveLength(6);
    expect(posts().every((call) => call.args.channel === CHANNEL)).toBe(true);
    for (const machine of machines) {
      expect(lines().filter((line) => line.includes(`<@${machine.userId}> *${machine.name}*`))).toHaveLength(
        1,
      );
    }
    // Delivered in the channel's next turn, not left due for a retry minutes later.
    expect(await db.store.watches.dueReports(Date.now() + 10 * 60_000, 100)).toEqual([]);
  }, 20_000);

  it('sends each person their line in their DM, naming the channel, when Slack keeps rate limiting it turn after turn', async () => {
    slack.script('chat.postMessage', {
      channel: CHANNEL,
      status: 429,
      retryAfterSeconds: 120,
      times: Number.POSITIVE_INFINITY,
    });
    const machines = Array.from({ length: 3 }, (_, index) => ({
      userId: `U0BUSY${String(index).padStart(3, '0')}`,
      name: `busy-gpu-${index}`,
    }));
    await finishTogether(machines);

    const inDms = posts().filter((call) => call.answer?.ok === true);
    expect(inDms.map((call) => call.args.channel).sort()).toEqual(machines.map((machine) => machine.userId));
    for (const call of inDms) {
      expect(String(call.args.text)).toContain(
        `Slack kept asking me to wait before posting this in <#${CHANNEL}>`,
      );
    }
    // The channel was tried in each of its turns before the DMs: "not yet" first, then a word.
    expect(posts().filter((call) => call.args.channel === CHANNEL).length).toBeGreaterThanOrEqual(4);
    expect(await db.store.watches.dueReports(Date.now() + 10 * 60_000, 100)).toEqual([]);
  }, 20_000);

  it('splits completions that outgrow one message over the next ones, losing none, many lines a section', async () => {
    const machines = Array.from({ length: 300 }, (_, index) => ({
      userId: `U0WIDE${String(index).padStart(3, '0')}`,
      name: `a-machine-name-as-long-as-fifty-characters-${String(index).padStart(4, '0')}`,
    }));
    await finishTogether(machines);

    // 300 lines of about 70 characters outgrow one message's text budget (9,000; the strict fake
    // refuses past 12,000 and past 50 blocks)...
    expect(posts().length).toBeGreaterThanOrEqual(3);
    expect(posts().every((call) => call.answer?.ok === true && call.args.channel === CHANNEL)).toBe(true);
    for (const call of posts()) expect(blockTextLength(call.args.blocks)).toBeLessThanOrEqual(9000);
    // ...yet the lines share sections: a section a line (49 a message) would take seven messages, seven
    // seconds of the channel's pace.
    expect(posts().length).toBeLessThan(Math.ceil(machines.length / 49));
    for (const machine of machines) {
      expect(lines().filter((line) => line.includes(`*${machine.name}*`))).toHaveLength(1);
    }
  }, 30_000);
});

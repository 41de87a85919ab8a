// Outcomes left due (a replica died, Slack refused) are posted again on a tick. One person's 50 due
// outcomes come first in the store's order, yet another person's outcome in another channel does not
// wait for them: each goes to its channel's pacer at once, as a fresh completion does, and Ada's go out
// together in a few messages at her channel's pace.
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWatchOutcomes } from '../../../src/features/watches/watch-outcomes.js';
import { createWatchReporter } from '../../../src/features/watches/watch-reporter.js';
import { createChannelPacer } from '../../../src/slack/channel-pacer.js';
import { sqliteFile, useFreshStore } from '../../store/store-factories.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { captureLogs } from '../../support/log-capture.js';

let slack: FakeSlack;
beforeAll(async () => {
  slack = await startFakeSlack({ botToken: 'xoxb-fairness' });
});
afterAll(() => slack.close());

describe('posting due outcomes again', () => {
  const db = useFreshStore(sqliteFile);

  it("posts another person's due outcome without waiting behind one person's 50", async () => {
    const now = Date.now();
    const logger = captureLogs('warn').logger;
    // Ten times Slack's pace, to keep the test short; the fake's burst of 5 posts takes Ada's few messages.
    const pacer = createChannelPacer({
      pacing: { messageSpacingMs: 100, updatesPerMinute: 6000, updateBurst: 100 },
    });
    const client = new WebClient('xoxb-fairness', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
    const reporter = createWatchReporter({ slack: async () => client, logger, pacer });
    const outcomes = createWatchOutcomes({ store: db.store, reporter, logger, now: () => Date.now() });

    const finishDue = async (userId: string, channel: string, index: number, finishedAt: number) => {
      const watch = await db.store.watches.create({
        teamId: 'T0ACME',
        userId,
        machineId: `ps${userId.toLowerCase()}${index}`,
        machineName: `${userId.toLowerCase()}-${index}`,
        targetState: 'ready',
        channel,
        createdAt: finishedAt - 60_000,
        deadlineAt: finishedAt + 30 * 60_000,
      });
      const report = {
        outcome: { status: 'done' as const, state: 'ready', elapsedMs: 60_000 },
        machine: null,
        timeline: [],
      };
      const stored = outcomes.stored(report, finishedAt);
      await db.store.watches.complete(watch.id, { status: 'done', at: finishedAt, report: stored });
    };
    // Ada's finished first, so they are due first; Sam's one a minute later, but due too.
    for (let index = 0; index < 50; index++) await finishDue('U0ADA', 'C0ADA', index, now - 10 * 60_000);
    await finishDue('U0SAM', 'C0SAM', 0, now - 9 * 60_000);

    await outcomes.retryDue();
    const sams = await slack.waitFor(
      (call) => call.method === 'chat.postMessage' && call.args.channel === 'C0SAM',
      {
        timeoutMs: 10_000,
      },
    );
    const adasBefore = slack
      .calls('chat.postMessage')
      .filter(
        (call) => call.args.channel === 'C0ADA' && slack.calls().indexOf(call) < slack.calls().indexOf(sams),
      );
    expect(adasBefore.length).toBeLessThan(5);
    await outcomes.settled();
    // Ada's 50 went out together, a few messages at the channel's pace, each machine in one of them.
    const adas = slack
      .calls('chat.postMessage')
      .filter((call) => call.args.channel === 'C0ADA' && call.answer?.ok === true)
      .map((call) => String(call.args.text));
    expect(adas.length).toBeLessThanOrEqual(5);
    for (let index = 0; index < 50; index++) {
      expect(adas.filter((text) => text.includes(`*u0ada-${index}*`))).toHaveLength(1);
    }
    expect(await db.store.watches.dueReports(Date.now(), 100)).toEqual([]);
  });
});

// A completion posted again says it may be a repeat exactly when an earlier post of it may have landed:
// Slack took the post but its answer never came (a 500), not when Slack refused it everywhere.
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAY_REPEAT_NOTE } from '../../../src/features/watches/watch-messages.js';
import { createWatchOutcomes, RETRY_AFTER_MS } from '../../../src/features/watches/watch-outcomes.js';
import { createWatchReporter } from '../../../src/features/watches/watch-reporter.js';
import { createChannelPacer } from '../../../src/slack/channel-pacer.js';
import { sqliteFile, useFreshStore } from '../../store/store-factories.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { captureLogs } from '../../support/log-capture.js';

let slack: FakeSlack;
beforeAll(async () => {
  slack = await startFakeSlack({ botToken: 'xoxb-repeat' });
});
beforeEach(() => slack.reset());
afterAll(() => slack.close());

describe('a completion posted again', () => {
  const db = useFreshStore(sqliteFile);
  let clock = Date.now();

  async function finishWatch() {
    const { logger } = captureLogs('warn');
    const client = new WebClient('xoxb-repeat', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
    const reporter = createWatchReporter({
      slack: async () => client,
      logger,
      pacer: createChannelPacer({ pacing: null }),
    });
    const outcomes = createWatchOutcomes({ store: db.store, reporter, logger, now: () => clock });
    const watch = await db.store.watches.create({
      teamId: 'T0ACME',
      userId: 'U0ADA',
      machineId: 'psgpu1',
      machineName: 'gpu-1',
      targetState: 'ready',
      channel: 'C0OPS',
      messageTs: '1700000000.000100',
      threadTs: '1700000000.000100',
      createdAt: clock - 60_000,
      deadlineAt: clock + 30 * 60_000,
    });
    const report = {
      outcome: { status: 'done' as const, state: 'ready', elapsedMs: 60_000 },
      machine: null,
      timeline: [],
    };
    await db.store.watches.complete(watch.id, {
      status: 'done',
      at: clock,
      report: outcomes.stored(report, clock),
    });
    outcomes.dispatch(watch, report);
    await outcomes.settled();
    return outcomes;
  }

  const replies = () =>
    slack
      .calls()
      .filter((call) => call.method === 'chat.postMessage' || call.method === 'chat.postEphemeral')
      .map((call) => String(call.args.text ?? ''));

  it('says it may be a repeat after a post Slack took without answering', async () => {
    slack.script('chat.postMessage', { status: 500 });
    const outcomes = await finishWatch();
    expect(replies()).toHaveLength(1);

    clock += RETRY_AFTER_MS;
    await outcomes.retryDue();
    await outcomes.settled();
    const [first, again] = replies();
    expect(first).not.toContain(MAY_REPEAT_NOTE);
    expect(again).toContain('gpu-1');
    expect(again).toContain(MAY_REPEAT_NOTE);
    expect(await db.store.watches.dueReports(clock + RETRY_AFTER_MS, 10)).toEqual([]);
  });

  it('posts plainly again after Slack refused it in every conversation', async () => {
    slack.fail('chat.postMessage', 'channel_not_found', { times: 3 });
    slack.fail('chat.postEphemeral', 'channel_not_found', { times: 1 });
    const outcomes = await finishWatch();
    const refused = replies().length;
    expect(refused).toBeGreaterThan(1);

    clock += RETRY_AFTER_MS;
    await outcomes.retryDue();
    await outcomes.settled();
    const again = replies().slice(refused);
    expect(again).toHaveLength(1);
    expect(again[0]).toContain('gpu-1');
    expect(again[0]).not.toContain(MAY_REPEAT_NOTE);
  });
});

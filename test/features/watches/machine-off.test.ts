// A watch that followed a machine to off tells whoever keeps messages about running machines (the
// forgotten-machine alerts), once its outcome is posted; one that ended anywhere else does not.
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WatchOutcome } from '../../../src/features/watches/watch-messages.js';
import { createWatchOutcomes } from '../../../src/features/watches/watch-outcomes.js';
import { createWatchReporter } from '../../../src/features/watches/watch-reporter.js';
import { createChannelPacer } from '../../../src/slack/channel-pacer.js';
import type { Watch } from '../../../src/store/watch-types.js';
import { sqliteFile, useFreshStore } from '../../store/store-factories.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { captureLogs } from '../../support/log-capture.js';

let slack: FakeSlack;
beforeAll(async () => {
  slack = await startFakeSlack({ botToken: 'xoxb-machine-off' });
});
afterAll(() => slack.close());

describe('a watch that ends with its machine off', () => {
  const db = useFreshStore(sqliteFile);
  const clock = Date.now();

  /** Finishes a watch of `targetState` with `outcome`; answers the watches machineOff was told of. */
  async function finish(targetState: string, outcome: WatchOutcome): Promise<Watch[]> {
    const { logger } = captureLogs('warn');
    const client = new WebClient('xoxb-machine-off', {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
    });
    const told: Watch[] = [];
    const reporter = createWatchReporter({
      slack: async () => client,
      logger,
      pacer: createChannelPacer({ pacing: null }),
      machineOff: async (watch) => {
        told.push(watch);
      },
    });
    const outcomes = createWatchOutcomes({ store: db.store, reporter, logger, now: () => clock });
    const watch = await db.store.watches.create({
      teamId: 'T0ACME',
      userId: 'U0ADA',
      machineId: 'psgpu1',
      machineName: 'gpu-1',
      targetState,
      channel: 'C0OPS',
      messageTs: '1700000000.000100',
      threadTs: '1700000000.000100',
      createdAt: clock - 60_000,
      deadlineAt: clock + 30 * 60_000,
    });
    const report = { outcome, machine: null, timeline: [] };
    await db.store.watches.complete(watch.id, {
      status: outcome.status === 'done' ? 'done' : 'timed_out',
      at: clock,
      report: outcomes.stored(report, clock),
    });
    outcomes.dispatch(watch, report);
    await outcomes.settled();
    return told;
  }

  it('tells machineOff of the machine once the stop is followed to off', async () => {
    const told = await finish('off', { status: 'done', state: 'off', elapsedMs: 30_000 });
    expect(told.map((watch) => [watch.teamId, watch.machineId, watch.machineName])).toEqual([
      ['T0ACME', 'psgpu1', 'gpu-1'],
    ]);
  });

  it('tells nobody of a machine that got ready, or of a stop that timed out', async () => {
    expect(await finish('ready', { status: 'done', state: 'ready', elapsedMs: 30_000 })).toEqual([]);
    expect(await finish('off', { status: 'timed_out', lastState: 'stopping' })).toEqual([]);
  });
});

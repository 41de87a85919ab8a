// The forgotten-machine DM takes its turn in the person's DM with the bot's other posts there (the
// channel pacer's lane), so it never overtakes a message already waiting there and keeps Slack's pace.
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CostGuardDeps, createCostGuard } from '../../../src/features/cost-alerts/cost-guard.js';
import { createLogger } from '../../../src/logger.js';
import type { PaperspaceClient } from '../../../src/paperspace/client.js';
import type { Machine } from '../../../src/paperspace/schemas.js';
import { createChannelPacer } from '../../../src/slack/channel-pacer.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { BOT_TOKEN } from '../../support/test-bot.js';

const NOW = Date.parse('2024-05-15T09:00:00Z');
const ADA = { teamId: 'T0FAKE', userId: 'U0ADA' };
let slack: FakeSlack;

beforeAll(async () => {
  slack = await startFakeSlack();
});
afterAll(async () => {
  await slack.close();
});

/** A cost guard whose store says Ada's machine has run for ten hours against an eight-hour threshold. */
function guardWith(pacer: CostGuardDeps['pacer']) {
  const costAlerts = {
    endRuns: async () => undefined,
    endRunsExcept: async () => undefined,
    threshold: async () => 8 * 3_600_000,
    teamDefault: async () => undefined,
    excluded: async () => new Set<string>(),
    runs: async () => [
      {
        machineId: 'psada001',
        owner: ADA,
        runningSince: NOW - 10 * 3_600_000,
        sinceEstimated: false,
        keptUntil: null,
      },
    ],
    claimAlert: async () => true,
    releaseAlert: async () => undefined,
    recordMessage: async () => undefined,
    messagesAbout: async () => [],
  };
  const deps = {
    store: {
      costAlerts,
      // Paperspace names the owner (the legacy API), and ada linked that Paperspace user.
      machineOwners: { ownersOf: async () => new Map() },
      vaultEntries: { linkedIn: async () => [{ slackUserId: ADA.userId, paperspaceUserId: 'u1ada' }] },
      rowMessages: { keep: async () => undefined },
      audit: { record: async () => undefined },
    },
    vault: { account: async () => ({ userId: 'u1ada' }) },
    slack: async () => new WebClient(BOT_TOKEN, { slackApiUrl: slack.apiUrl }),
    pacer,
    logger: createLogger({ level: 'silent' }),
    now: () => NOW,
  } as unknown as CostGuardDeps;
  return createCostGuard(deps);
}

const machine = {
  id: 'psada001',
  name: 'ada-workstation',
  state: 'ready',
  userId: 'u1ada',
  machineType: 'P4000',
  region: 'East Coast (NY2)',
  usageRate: 'P4000 hourly',
} as unknown as Machine;

describe('the forgotten-machine DM', () => {
  it("waits for the person's DM lane: it is posted after the message already waiting there, not before", async () => {
    const pacer = createChannelPacer({ pacing: null });
    let release = () => {};
    const earlier = pacer.message(
      ADA.userId,
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    );
    const guard = guardWith(pacer);
    // The poller asks whether the check is due before it lists the person's machines.
    expect(guard.due(ADA, NOW)).toBe(true);
    const checked = guard.check(ADA, [machine], {} as PaperspaceClient);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(slack.calls('chat.postMessage')).toEqual([]);

    release();
    await earlier;
    await checked;
    const [alert] = slack.calls('chat.postMessage');
    expect(alert?.args.channel).toBe(ADA.userId);
    expect(JSON.stringify(alert?.args.blocks)).toContain('ada-workstation');
  });
});

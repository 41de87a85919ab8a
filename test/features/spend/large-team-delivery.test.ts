// A team of 60 people with 120 running machines named with 50 characters (escapes included) gets its
// digest in the channel and every shutdown reminder, through the scheduler and the fake Slack: what one
// message cannot hold is counted in it, never the reason it is refused.
import { describe, expect, it } from 'vitest';
import { blockTextLength, MESSAGE_BUDGET } from '../../../src/slack/block-kit/message-budget.js';
import { createFakeClock, type SeedInput } from '../../../tools/emulator/index.js';
import { messageText } from '../../scheduler/harness.js';
import { assertBlockKitLimits } from '../../slack/block-kit/limits.js';
import type { ApiCall } from '../../support/fake-slack.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { orbitalTeammates, runningMachine, withTeam } from './orbital-team-seed.js';

// Wednesday 2024-05-15, 05:00 UTC; the test users live in Europe/Amsterdam (09:00 there is 07:00 UTC).
const clock = createFakeClock(Date.parse('2024-05-15T05:00:00Z'));
const OPS = 'C0OPS';
const PEOPLE = 60;
const RUNNING = 120;
/** Maya runs 61 of them, Sam one, the 58 others one each. */
const MAYA_RUNS = 61;

const name = (index: number) =>
  `R&D <gpu> ${String(index).padStart(3, '0')} ${'&<>x'.repeat(20)}`.slice(0, 50);

function largeTeamSeed(): SeedInput {
  const teammates = orbitalTeammates(PEOPLE - 2);
  const owners = [...Array<string>(MAYA_RUNS).fill('u1maya'), 'u1sam', ...teammates.map((mate) => mate.id)];
  return withTeam(
    teammates,
    owners.map((owner, index) =>
      runningMachine(`pslarge${String(index).padStart(3, '0')}`, name(index), owner),
    ),
  );
}

const bot = useTestBot({
  now: clock.now,
  emulator: { now: clock.now, transitionMs: 2000, seed: largeTeamSeed() },
  prepare: async (started) => {
    await started.link('maya', { withAccessToken: true });
    await started.link('sam', { withAccessToken: true });
  },
});

/** What Slack would take: the documented per-field limits and our summed-text budget. */
function assertDeliverable(call: ApiCall | undefined): void {
  expect(call).toBeDefined();
  const blocks = (call?.args.blocks ?? []) as unknown[];
  assertBlockKitLimits({ blocks, text: String(call?.args.text ?? '') });
  expect(blockTextLength(blocks)).toBeLessThanOrEqual(MESSAGE_BUDGET.text);
}

/** "…and 97 more" in a message, or 0. */
const leftOut = (text: string) => Number(/…and (\d+) more/.exec(text)?.[1] ?? 0);

describe('a team of 60 people with 120 running machines', () => {
  it('gets its digest in the channel, listing what fits and counting the rest', async () => {
    const request = bot.requests.slashCommand({
      text: `digest <#${OPS}|ops> daily 09:00`,
      userId: USERS.maya.slackId,
    });
    await bot.send(request);
    expect((await bot.slack.waitForResponse(request.responseUrlId ?? '')).text).toContain('Team digest set');

    // A digest set on any replica is scheduled at the next tick, then fires when due.
    await bot.scheduler.tick();
    clock.set(Date.parse('2024-05-15T07:00:00Z'));
    await bot.cron.runDue();
    const posted = bot.slack.calls('chat.postMessage').filter((call) => call.args.channel === OPS);
    expect(posted).toHaveLength(1);
    assertDeliverable(posted[0]);
    const text = messageText(posted[0]?.args ?? {});
    const running = /(\d+) machines running/.exec(text);
    expect(Number(running?.[1])).toBeGreaterThanOrEqual(RUNNING);
    const rows = ((posted[0]?.args.blocks ?? []) as { block_id?: string }[]).filter((block) =>
      block.block_id?.startsWith('digest:'),
    ).length;
    expect(rows + leftOut(text)).toBe(Number(running?.[1]));
    expect(text).toContain('`/ps list state=ready` shows them with their Stop buttons');
    expect(text).toMatch(/more people, \$[\d.,]+ together/);
    const posts = (
      await bot.store.audit.list({ teamId: bot.slack.teamId, userId: USERS.maya.slackId, limit: 50 })
    ).filter((record) => record.action === 'digest.post');
    expect(posts).toHaveLength(1);
  });

  it('delivers every shutdown reminder, the one for 61 machines counting those it could not list', async () => {
    for (const person of ['maya', 'sam'] as const) {
      await bot.store.reminders.create({
        teamId: bot.slack.teamId,
        userId: USERS[person].slackId,
        cron: '0 19 * * *',
        timezone: 'UTC',
        channel: USERS[person].slackId,
        createdAt: clock.now(),
      });
    }
    await bot.scheduler.tick();
    clock.set(Date.parse('2024-05-15T19:00:00Z'));
    await bot.cron.runDue();
    const reminders = (userId: string) =>
      bot.slack.calls('chat.postMessage').filter((call) => call.args.channel === userId);
    const [forMaya] = reminders(USERS.maya.slackId);
    const [forSam] = reminders(USERS.sam.slackId);
    assertDeliverable(forMaya);
    assertDeliverable(forSam);
    const mayaText = messageText(forMaya?.args ?? {});
    const listed = ((forMaya?.args.blocks ?? []) as { block_id?: string }[]).filter((block) =>
      block.block_id?.startsWith('reminder:'),
    ).length;
    const stillRunning = Number(/⏰ (\d+) machines still running/.exec(mayaText)?.[1]);
    expect(stillRunning).toBeGreaterThanOrEqual(MAYA_RUNS);
    expect(listed + leftOut(mayaText)).toBe(stillRunning);
    // Stop all stops every one of them, the unlisted too.
    expect(mayaText).toContain(`Stop all ${stillRunning}`);
    expect(messageText(forSam?.args ?? {})).toContain('R&amp;D &lt;gpu&gt; 061');
  });
});

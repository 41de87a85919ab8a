// The lease where people look: with a run limit set, `/ps show` of a running team machine and the
// App Home say when the limit stops it, with Extend; an administrator's Extend moves that stop 4 h,
// and the next card shows the moved time; off-hours that come sooner take its place. A machine off, or
// a team with no rule, shows no lease.
import { describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { policyDriver } from './policy-kit.js';

const clock = createFakeClock(Date.parse('2024-05-15T09:00:00Z'));
const onV1 = process.env.TEST_PAPERSPACE_DIALECT === 'v1';
const MAYA = USERS.maya.slackId;
const HOUR = 3_600_000;

const bot = useTestBot({
  now: clock.now,
  emulator: { now: clock.now, transitionMs: 2000 },
  prepare: async (started) => {
    await started.link('maya', { withAccessToken: true });
    await started.link('sam', { withAccessToken: true });
  },
});

interface Block {
  block_id?: string;
  text?: { text?: string };
  accessory?: { action_id?: string; value?: string; text?: { text?: string } };
}

const { command, tickAt } = policyDriver(bot, clock);

/** The lease line of `machineId` among `blocks`, with its Extend button. */
function leaseOf(blocks: unknown, machineId: string): Block | undefined {
  return (blocks as Block[]).find((block) => block.block_id === `machine_lease:${machineId}`);
}

/** The moment a Slack date token in `text` stands for, in epoch milliseconds. */
function dateIn(text: string): number {
  const seconds = /<!date\^(\d+)\^/.exec(text)?.[1];
  return Number(seconds) * 1000;
}

describe('the lease on cards and App Home', () => {
  it('shows when the run limit stops a running machine, with an Extend that moves it', async () => {
    if (onV1) expect((await command('claim maya-trainer', MAYA)).text).toContain('is yours now');
    const unset = await command('show maya-trainer', MAYA);
    expect(leaseOf(unset.blocks, 'psorb001')).toBeUndefined();

    expect((await command('policy max-run 12h', MAYA)).text).toContain('may now run 12 h at a time');
    // The cost guard dates the run: the lease counts from it, or from the rule, whichever is later.
    await tickAt('2024-05-15T09:00:05Z');
    await tickAt('2024-05-15T09:05:06Z');

    const shown = await command('show maya-trainer', MAYA);
    const lease = leaseOf(shown.blocks, 'psorb001');
    expect(lease?.text?.text).toContain('⏱ 12 h run limit: stops');
    expect(lease?.accessory?.action_id).toBe(ActionId.policyKeep);
    expect(lease?.accessory?.text?.text).toBe('Extend');
    const stopAt = dateIn(lease?.text?.text ?? '');
    expect(stopAt).toBeGreaterThanOrEqual(Date.parse('2024-05-15T21:00:00Z'));
    expect(stopAt).toBeLessThanOrEqual(Date.parse('2024-05-15T21:05:06Z'));
    // An off machine has no lease to show.
    const off = await command('show team-build', MAYA);
    expect(JSON.stringify(off.blocks)).not.toContain('run limit');

    await bot.send(bot.requests.event({ type: 'app_home_opened', user: MAYA, tab: 'home' }));
    const home = await bot.slack.waitFor('views.publish');
    const homeLease = leaseOf((home.args.view as { blocks: unknown }).blocks, 'psorb001');
    expect(homeLease?.text?.text).toBe(lease?.text?.text);
    expect(homeLease?.accessory?.action_id).toBe(ActionId.policyKeep);

    // Maya administers the team: her Extend on the card moves the stop at once.
    const click = bot.requests.blockAction({
      actionId: ActionId.policyKeep,
      userId: MAYA,
      value: lease?.accessory?.value ?? '',
      blockId: 'machine_lease:psorb001',
      ephemeral: true,
      responseUrlId: 'lease-extend',
    });
    await bot.send(click);
    const answer = await bot.slack.waitForResponse('lease-extend');
    expect(answer.text).toContain('kept running by');
    expect(dateIn(answer.text ?? '')).toBe(stopAt + 4 * HOUR);

    const again = await command('show maya-trainer', MAYA);
    expect(dateIn(leaseOf(again.blocks, 'psorb001')?.text?.text ?? '')).toBe(stopAt + 4 * HOUR);

    // Off-hours that begin sooner than the extended limit are the lease now.
    await command('policy off-hours 20:00-07:00 daily UTC', MAYA);
    const offHours = leaseOf((await command('show maya-trainer', MAYA)).blocks, 'psorb001');
    expect(offHours?.text?.text).toMatch(/^⏱ Stops .* \(team off-hours\)$/);
    expect(dateIn(offHours?.text?.text ?? '')).toBe(Date.parse('2024-05-15T20:00:00Z'));
  });
});

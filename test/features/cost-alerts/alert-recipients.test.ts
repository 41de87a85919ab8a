// Whom a forgotten-machine alert reaches on v1, where machines name no owner: the owner the bot
// recorded, else the team's administrators; never another member because their list saw it first.
// Orbital's seed on v1: maya administers the team, sam is a member; maya-trainer, sam-desktop and
// sam-cad run, and nobody started them through the bot.
import { describe, expect, it } from 'vitest';
import { costAlertBlockId } from '../../../src/features/cost-alerts/blocks/cost-alert.js';
import { encodeMachineRef } from '../../../src/features/machines/blocks/machine-ref.js';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import type { ApiCall } from '../../support/fake-slack.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const clock = createFakeClock(Date.parse('2024-05-15T09:00:00Z'));
const TRAINER = { id: 'psorb001', name: 'maya-trainer' };
const DESKTOP = { id: 'psorb003', name: 'sam-desktop' };
const CAD = { id: 'psorb005', name: 'sam-cad' };

const bot = useTestBot({
  dialect: 'v1',
  now: clock.now,
  emulator: { now: clock.now, transitionMs: 2000 },
  // sam first: his poll sees the team's machines before maya's does.
  linked: ['sam', 'maya'],
});

async function tickAfter(ms: number): Promise<void> {
  clock.advance(ms);
  await bot.scheduler.tick();
}

/** The alert DMs `userId` got since the last reset, each as the machine ids of its rows. */
function alertsTo(userId: string): { call: ApiCall; machineIds: string[] }[] {
  return bot.slack
    .calls('chat.postMessage')
    .filter((call) => call.args.channel === userId)
    .map((call) => ({
      call,
      machineIds: ((call.args.blocks ?? []) as { type: string; block_id?: string }[])
        .filter((block) => block.type === 'actions' && block.block_id?.startsWith(costAlertBlockId('')))
        .map((block) => (block.block_id ?? '').slice(costAlertBlockId('').length)),
    }))
    .filter((alert) => alert.machineIds.length > 0);
}

describe('who a forgotten-machine alert reaches (v1)', () => {
  it('three machines nobody owns, due together: one message to the administrator, none to the member', async () => {
    await tickAfter(5000);
    await tickAfter(8 * HOUR_MS + 10 * MINUTE_MS);
    const toMaya = alertsTo(USERS.maya.slackId);
    expect(toMaya).toHaveLength(1);
    expect(toMaya[0]?.machineIds.sort()).toEqual([TRAINER.id, DESKTOP.id, CAD.id].sort());
    expect(JSON.stringify(toMaya[0]?.call.args.blocks)).toContain(ActionId.costAlertStopAll);
    expect(alertsTo(USERS.sam.slackId)).toHaveLength(0);
  });

  it('Not this machine is refused to a member who neither owns it nor administers the team', async () => {
    const request = bot.requests.blockAction({
      actionId: ActionId.costAlertNever,
      value: encodeMachineRef(TRAINER),
      blockId: costAlertBlockId(TRAINER.id),
      userId: USERS.sam.slackId,
    });
    await bot.send(request);
    const answer = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(answer.text).toContain('Only the owner of maya-trainer or an administrator of its team');
    expect(
      await bot.store.costAlerts.excluded({ teamId: bot.slack.teamId, userId: USERS.sam.slackId }),
    ).toEqual(new Set());
  });

  it('after a claim, the machine’s next alert goes to the claimer', async () => {
    const claimed = await bot.store.machineOwners.claim(bot.slack.teamId, {
      machineId: DESKTOP.id,
      userId: USERS.sam.slackId,
      paperspaceUserId: USERS.sam.emulatorUserId,
      basis: 'claimed',
      setBy: USERS.sam.slackId,
      setAt: clock.now(),
    });
    expect(claimed).toEqual({ claimed: true });
    // Kept running for an hour: the next alert about it is due then.
    expect(await bot.store.costAlerts.keep(DESKTOP.id, clock.now() + HOUR_MS)).toBe(true);
    bot.slack.reset();
    await tickAfter(HOUR_MS + 10 * MINUTE_MS);
    expect(alertsTo(USERS.sam.slackId).map((alert) => alert.machineIds)).toEqual([[DESKTOP.id]]);
    expect(alertsTo(USERS.maya.slackId)).toHaveLength(0);
  });
});

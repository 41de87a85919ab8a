// Team policies end to end: a real team (Maya administers Orbital Labs and the Slack workspace, Sam is a
// member, Ada has an account of her own), the bot on the emulator's clock with the scheduler's real
// tick, the fake Slack recording the DMs, clicks sent as signed Slack requests. Runs on both dialects.
import { describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { messageText } from '../../scheduler/harness.js';
import type { ApiCall } from '../../support/fake-slack.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { policyDriver, samLinksAndReadsNotice } from './policy-kit.js';

/** A Wednesday, 09:00 UTC. */
const clock = createFakeClock(Date.parse('2024-05-15T09:00:00Z'));
const onV1 = process.env.TEST_PAPERSPACE_DIALECT === 'v1';
const SAM = USERS.sam.slackId;
const MAYA = USERS.maya.slackId;
const ADA = USERS.ada.slackId;
const SAM_DESKTOP = { id: 'psorb003', name: 'sam-desktop' };
const MAYA_TRAINER = { id: 'psorb001', name: 'maya-trainer' };
const SAM_CAD = { id: 'psorb005', name: 'sam-cad' };

const bot = useTestBot({
  now: clock.now,
  emulator: { now: clock.now, transitionMs: 2000 },
  prepare: async (started) => {
    await started.link('ada');
    await started.link('maya', { withAccessToken: true });
    await started.link('sam', { withAccessToken: true });
  },
});

const { command, tickAt, dmsTo, click } = policyDriver(bot, clock);

async function stateOf(machineId: string, userId: string): Promise<string> {
  const shown = await command(`show ${machineId}`, userId);
  return messageText(shown);
}

describe('team policies', () => {
  it('a member cannot set a policy and is told who can; an outsider of the team has no team policies', async () => {
    const refused = await command('policy off-hours 20:00-07:00 weekdays UTC', SAM);
    expect(refused.text).toContain('Only team administrators can set policies');
    expect(refused.text).toContain(
      'Slack workspace admins and owners who administer your Paperspace team can set them',
    );
    // v1 lists the team's roles: the refusal names the administrator who linked a key here.
    if (onV1) expect(refused.text).toContain(`ask <@${MAYA}>`);
    expect(
      await bot.store.policies.rules({ teamId: bot.slack.teamId, paperspaceTeamId: 'te1orbit' }),
    ).toEqual({});

    const listed = await command('policy', SAM);
    expect(listed.text).toContain('None: no machine is warned or stopped by a policy');
  });

  it('off-hours warn the owner 30 minutes before, with their key named; Keep running by a member asks the administrator; the stop uses the owner key', async () => {
    if (onV1) {
      // v1 names no owner: each claims their own machine, as the owner rule then records.
      expect((await command('claim sam-desktop', SAM)).text).toContain('is yours now');
      expect((await command('claim sam-cad', SAM)).text).toContain('is yours now');
      expect((await command('claim maya-trainer', MAYA)).text).toContain('is yours now');
    }
    const set = await command('policy off-hours 20:00-07:00 weekdays UTC', MAYA);
    expect(set.text).toContain("Your team's off-hours are 20:00-07:00 on weekdays (UTC)");
    expect((await command('policy', SAM)).text).toContain('Off-hours: *20:00-07:00 on weekdays (UTC)*');

    await tickAt('2024-05-15T09:00:05Z');
    await tickAt('2024-05-15T19:25:00Z');
    expect(dmsTo(SAM, SAM_DESKTOP, 'will be stopped')).toHaveLength(0);

    await tickAt('2024-05-15T19:31:00Z');
    const [warning, ...more] = dmsTo(SAM, SAM_DESKTOP, 'will be stopped');
    expect(more).toHaveLength(0);
    expect(messageText(warning?.args ?? {})).toContain("owner's own Paperspace key");
    expect(JSON.stringify(warning?.args.blocks)).toContain(ActionId.policyKeep);
    expect(dmsTo(MAYA, MAYA_TRAINER, 'will be stopped')).toHaveLength(1);
    // Only the owner hears of it: the outsider and the other teammate get nothing about sam-desktop.
    expect(dmsTo(ADA, SAM_DESKTOP, 'will be stopped')).toHaveLength(0);
    expect(dmsTo(MAYA, SAM_DESKTOP, 'will be stopped')).toHaveLength(0);

    // Sam is a member: his Keep running is a request to Maya, and does not hold off the stop.
    const asked = await click(warning as ApiCall, ActionId.policyKeep, SAM);
    expect(messageText(asked.args)).toContain('Until they approve, it stops');
    const [request] = dmsTo(MAYA, SAM_DESKTOP, 'asks to keep');
    expect(request).toBeDefined();

    // Maya keeps her own machine at once: she administers the team.
    const [mayaWarning] = dmsTo(MAYA, MAYA_TRAINER, 'will be stopped');
    expect(messageText((await click(mayaWarning as ApiCall, ActionId.policyKeep, MAYA)).args)).toContain(
      'kept running by',
    );

    // His Keep running on sam-cad Maya approves, once: a second Approve (another administrator, another
    // replica) is told it was approved already.
    const [cadWarning] = dmsTo(SAM, SAM_CAD, 'will be stopped');
    await click(cadWarning as ApiCall, ActionId.policyKeep, SAM);
    const [cadRequest] = dmsTo(MAYA, SAM_CAD, 'asks to keep');
    expect(
      messageText((await click(cadRequest as ApiCall, ActionId.policyApproveExtension, MAYA)).args),
    ).toContain('Approved by');
    expect(dmsTo(SAM, SAM_CAD, 'approved')).toHaveLength(1);
    expect(
      messageText((await click(cadRequest as ApiCall, ActionId.policyApproveExtension, MAYA)).args),
    ).toContain('already approved');

    await tickAt('2024-05-15T20:00:30Z');
    expect(dmsTo(SAM, SAM_DESKTOP, 'was stopped by')).toHaveLength(1);
    expect(dmsTo(SAM, SAM_CAD, 'was stopped by')).toHaveLength(0);
    await expect.poll(() => stateOf(SAM_DESKTOP.id, SAM)).not.toMatch(/Ready|Running/);
    expect(dmsTo(MAYA, MAYA_TRAINER, 'was stopped by')).toHaveLength(0);
    const audit = await bot.store.audit.list({ teamId: bot.slack.teamId, userId: SAM, limit: 50 });
    expect(audit.map((record) => [record.action, record.resourceId, record.outcome])).toContainEqual([
      'policy.stop',
      SAM_DESKTOP.id,
      'ok',
    ]);

    // A second tick, another replica's list: the stop is made once.
    await tickAt('2024-05-15T20:01:00Z');
    expect(dmsTo(SAM, SAM_DESKTOP, 'was stopped by')).toHaveLength(1);
  });

  it('linking a key on a team with policies says plainly that they may stop its machines with that key', async () => {
    expect(await samLinksAndReadsNotice(bot)).toContain('may stop your machines with this key');
  });
});

// A team's run limit end to end, on the emulator's clock: the warning comes at its own moment, between
// two of the cost guard's five-minute checks (the policies ask for the person's list then); an
// administrator's Keep running extends at once; a machine whose owner has no linked key is not stopped
// with anyone else's key unasked: the administrator who set the rule is asked, and their Stop with my key
// is answered with Paperspace's own refusal when they neither own the machine nor were given access.
import { describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { messageText } from '../../scheduler/harness.js';
import type { ApiCall } from '../../support/fake-slack.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { policyDriver } from './policy-kit.js';

const clock = createFakeClock(Date.parse('2024-05-15T09:00:00Z'));
const onV1 = process.env.TEST_PAPERSPACE_DIALECT === 'v1';
const SAM = USERS.sam.slackId;
const MAYA = USERS.maya.slackId;
const SAM_DESKTOP = { id: 'psorb003', name: 'sam-desktop' };
const MAYA_TRAINER = { id: 'psorb001', name: 'maya-trainer' };

const bot = useTestBot({
  now: clock.now,
  emulator: { now: clock.now, transitionMs: 2000 },
  prepare: async (started) => {
    await started.link('maya', { withAccessToken: true });
    await started.link('sam', { withAccessToken: true });
  },
});

const { command, tickAt, dmsTo, send, click } = policyDriver(bot, clock);

describe('a team run limit', () => {
  it('warns between the cost checks, extends for an administrator, and asks the setter when the owner has no key', async () => {
    if (onV1) {
      expect((await command('claim sam-desktop', SAM)).text).toContain('is yours now');
      expect((await command('claim maya-trainer', MAYA)).text).toContain('is yours now');
    }
    expect((await command('policy max-run 37m', MAYA)).text).toContain('may now run 37 min at a time');

    await tickAt('2024-05-15T09:00:05Z');
    await tickAt('2024-05-15T09:05:06Z');
    expect(dmsTo(SAM, SAM_DESKTOP, 'will be stopped')).toHaveLength(0);
    // 30 minutes before the 37-minute stop, and before the cost guard's next check (09:10:05).
    await tickAt('2024-05-15T09:07:06Z');
    expect(dmsTo(SAM, SAM_DESKTOP, 'will be stopped')).toHaveLength(1);
    const [mayaWarning] = dmsTo(MAYA, MAYA_TRAINER, 'will be stopped');
    expect(messageText(mayaWarning?.args ?? {})).toContain('37 min run limit');

    const kept = await click(mayaWarning as ApiCall, ActionId.policyKeep, MAYA);
    expect(messageText(kept.args)).toContain('kept running by');

    // Sam unlinks his key: at the limit nobody's key stops his machine unasked.
    expect((await command('logout', SAM)).text).toContain('Forgot your Paperspace key');
    await tickAt('2024-05-15T09:37:10Z');
    await tickAt('2024-05-15T09:37:20Z');
    const [asked, ...again] = dmsTo(MAYA, SAM_DESKTOP, "its owner's key could not stop it");
    expect(again).toHaveLength(0);
    expect(messageText(asked?.args ?? {})).toContain('has not linked a Paperspace key');
    expect(dmsTo(MAYA, MAYA_TRAINER, 'was stopped by')).toHaveLength(0);

    const auditOf = async () =>
      (await bot.store.audit.list({ teamId: bot.slack.teamId, userId: MAYA, limit: 50 })).map((record) => [
        record.action,
        record.resourceId,
        record.outcome,
      ]);
    // Paperspace lets only a machine's owner (and on v1 its accessors) stop it: Maya is told so, and
    // nothing claims it stopped.
    await send(asked as ApiCall, ActionId.policyStopWithMyKey, MAYA);
    await expect
      .poll(() =>
        bot.slack
          .allResponses()
          .map((response) => response.text)
          .join('\n'),
      )
      .toContain('Paperspace does not allow your account to stop this machine');
    expect(await auditOf()).toContainEqual(['policy.override', SAM_DESKTOP.id, 'error']);
    const actions = await auditOf();
    expect(actions).toContainEqual(['policy.extend', MAYA_TRAINER.id, 'ok']);
  });
});

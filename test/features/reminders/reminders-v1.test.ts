// A shutdown reminder on Paperspace v1, whose machines name no owner and whose team key lists the whole
// team's: it lists the person's own running machines by the one owner rule (as their Home's "Your
// machines"), never a teammate's, nor one with no owner yet, until they claim it.
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { messageText } from '../../scheduler/harness.js';
import type { ApiCall } from '../../support/fake-slack.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';

// Wednesday 2024-05-15, 09:00 UTC. The test users' Slack time zone is Europe/Amsterdam (UTC+2 in May).
const clock = createFakeClock(Date.parse('2024-05-15T09:00:00Z'));
const SAM = USERS.sam.slackId;

const bot = useTestBot({
  dialect: 'v1',
  now: clock.now,
  emulator: { now: clock.now, transitionMs: 2000 },
  linked: ['maya', 'sam'],
  // The clock jumps hours with machines running: forgotten-machine alerts would be DMs counted here.
  prepare: async (started) => {
    for (const user of [USERS.maya.slackId, SAM]) {
      await started.store.costAlerts.setThreshold(
        { teamId: started.slack.teamId, userId: user },
        null,
        clock.now(),
      );
    }
  },
});

async function command(text: string, userId = SAM) {
  const request = bot.requests.slashCommand({ text, userId });
  await bot.send(request);
  return bot.slack.waitForResponse(request.responseUrlId ?? '');
}

/** Fires what is due at `iso` and answers the reminders sent to Sam meanwhile. */
async function fireAt(iso: string): Promise<ApiCall[]> {
  const before = bot.slack.calls('chat.postMessage').length;
  clock.set(Date.parse(iso));
  await bot.cron.runDue();
  return bot.slack
    .calls('chat.postMessage')
    .slice(before)
    .filter((call) => call.args.channel === SAM);
}

describe('a member’s shutdown reminder on v1', () => {
  it('lists only the running machines that are his by the owner rule', async () => {
    await command('remind 19:00 daily');
    // The scheduler takes up reminders made since its last tick.
    await bot.scheduler.tick();
    // maya-trainer, sam-desktop and sam-cad run; none has an owner yet: nothing is his, no message.
    const listed = () =>
      bot.emulator.state.requests().filter((entry) => entry.path === '/v1/machines').length;
    const listedBefore = listed();
    expect(await fireAt('2024-05-15T17:00:00Z')).toEqual([]);
    expect(listed(), 'the reminder fired and listed the machines').toBeGreaterThan(listedBefore);

    expect((await command('claim sam-desktop')).text).toContain('is yours now');
    const [reminder] = await fireAt('2024-05-16T17:00:00Z');
    const text = messageText(reminder?.args ?? {});
    expect(text).toContain('sam-desktop');
    for (const other of ['maya-trainer', 'sam-cad']) expect(text).not.toContain(other);
  });
});

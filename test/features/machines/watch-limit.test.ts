// The per-person limit on active watches holds for the watches Start, Stop and Restart make, not only
// for /ps wait: the operation is still done, and the person reads that no watch was started, and why.
import { describe, expect, it } from 'vitest';
import { MAX_ACTIVE_WATCHES_PER_PERSON } from '../../../src/features/machines/machine-watcher.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { addSpareMachine, eventually } from './machine-kit.js';

const clock = createFakeClock();
const ADA = USERS.ada.slackId;

const bot = useTestBot({ emulator: { now: clock.now }, linked: ['ada', 'sam'] });

async function fillWatches(userId: string) {
  const user = { teamId: bot.slack.teamId, userId };
  for (let index = 0; index < MAX_ACTIVE_WATCHES_PER_PERSON; index += 1) {
    await bot.store.watches.create({
      ...user,
      machineId: `psfull${String(index).padStart(3, '0')}`,
      machineName: `full-${index}`,
      targetState: 'off',
      channel: 'C0OPS',
      createdAt: clock.now(),
      deadlineAt: clock.now() + 60 * 60_000,
    });
  }
}

describe('the per-person watch limit', () => {
  it('starts the machine but no watch past the limit, and says so privately', async () => {
    await fillWatches(ADA);
    const machine = addSpareMachine(bot, { prefix: 'capped-' });
    const request = bot.requests.slashCommand({
      text: `start ${machine.name}`,
      userId: ADA,
      channelId: 'C0OPS',
    });
    await bot.send(request);

    const told = await eventually(() =>
      bot.slack
        .responses(request.responseUrlId ?? '')
        .find((post) => (post.text ?? '').includes('no watch was started')),
    );
    expect(told.text).toContain(`${machine.name} was asked to start`);
    expect(told.text).toContain(`already watching ${MAX_ACTIVE_WATCHES_PER_PERSON} machines`);
    expect(told.text).not.toContain('/ps wait');
    expect(bot.emulator.state.machine(machine.id)?.state).toBe('starting');
    expect(await bot.store.watches.countActive({ teamId: bot.slack.teamId, userId: ADA })).toBe(
      MAX_ACTIVE_WATCHES_PER_PERSON,
    );
  });

  it("counts each person's watches alone: another person's Start is still watched", async () => {
    const machine = addSpareMachine(bot, { prefix: 'sams-', owner: USERS.sam.emulatorUserId });
    await bot.send(
      bot.requests.slashCommand({
        text: `start ${machine.name}`,
        userId: USERS.sam.slackId,
        channelId: 'C0OPS',
      }),
    );
    await expect
      .poll(() => bot.store.watches.countActive({ teamId: bot.slack.teamId, userId: USERS.sam.slackId }))
      .toBe(1);
  });
});

// A machine stopped and started again between two of the cost guard's checks: no list ever showed it
// off, yet its run began anew. The alert must count from the new start, on the bot's clock, rather than
// from the run the guard followed before. Both dialects.
import { describe, expect, it } from 'vitest';
import { costAlertBlockId } from '../../../src/features/cost-alerts/blocks/cost-alert.js';
import { createPaperspaceClientFactory } from '../../../src/vault/paperspace-clients.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const clock = createFakeClock(Date.parse('2024-05-15T09:00:00Z'));

const bot = useTestBot({
  now: clock.now,
  emulator: { now: clock.now, transitionMs: 2000 },
  linked: ['ada'],
});

/** Ada's own client, as she would use Paperspace's console or CLI: nothing the bot watches. */
async function adaOutsideTheBot() {
  const clients = createPaperspaceClientFactory({
    vault: bot.vault,
    baseUrl: `${bot.emulator.url}${bot.dialect === 'v1' ? '/v1' : ''}`,
    graphqlUrl: bot.emulator.graphqlUrl,
    now: clock.now,
  });
  const client = await clients.forUser({ teamId: bot.slack.teamId, userId: USERS.ada.slackId });
  if (client === undefined) throw new Error('ada has linked a key');
  return client;
}

async function tickAfter(ms: number): Promise<void> {
  clock.advance(ms);
  await bot.scheduler.tick();
}

/** The texts of the alert rows about `machineId` in ada's DMs. */
function alertRows(machineId: string): string[] {
  return bot.slack
    .calls('chat.postMessage')
    .filter((call) => call.args.channel === USERS.ada.slackId)
    .flatMap((call) => {
      const blocks = (call.args.blocks ?? []) as { block_id?: string; text?: { text?: string } }[];
      const at = blocks.findIndex((block) => block.block_id === costAlertBlockId(machineId));
      return at < 1 ? [] : [blocks[at - 1]?.text?.text ?? ''];
    });
}

const sinceOf = (row: string) => Number(/<!date\^(\d+)\^/.exec(row)?.[1]) * 1000;

describe('a stop and a start between two checks', () => {
  it('begins a new run: the alert comes the threshold after the new start, and says since then', async () => {
    const [id = ''] = bot.emulator.state.addMachines(1, {
      owner: USERS.ada.emulatorUserId,
      state: 'ready',
      machineType: 'C5',
      namePrefix: 'ada-train',
    });
    const client = await adaOutsideTheBot();
    await tickAfter(5 * MINUTE_MS);
    const [first] = await bot.store.costAlerts.runs([id]);
    expect(first?.runningSince).toBeLessThanOrEqual(clock.now());

    // Five hours in, between two checks, ada stops it and starts it again outside the bot.
    await tickAfter(5 * HOUR_MS);
    clock.advance(MINUTE_MS);
    await client.machines.stop(id);
    clock.advance(10_000);
    expect(bot.emulator.state.machine(id)?.state).toBe('off');
    const restartedAt = clock.now();
    await client.machines.start(id);
    clock.advance(10_000);
    expect(bot.emulator.state.machine(id)?.state).toMatch(/ready/);

    // Past the threshold counted from the first run, not from the second: no alert, and the run the
    // guard follows is the new one.
    await tickAfter(3 * HOUR_MS + 10 * MINUTE_MS);
    expect(alertRows(id)).toEqual([]);
    const [followed] = await bot.store.costAlerts.runs([id]);
    expect(followed?.runningSince).toBeGreaterThanOrEqual(restartedAt);
    expect(followed?.runningSince).toBeLessThanOrEqual(restartedAt + 10_000);

    // Eight hours after the new start: one alert, since the new start, not an estimate.
    await tickAfter(5 * HOUR_MS);
    const rows = alertRows(id);
    expect(rows).toHaveLength(1);
    const [row = ''] = rows;
    expect(sinceOf(row)).toBeGreaterThanOrEqual(restartedAt - 1000);
    expect(sinceOf(row)).toBeLessThanOrEqual(restartedAt + 10_000);
    expect(row).not.toContain('at least');
    await tickAfter(10 * MINUTE_MS);
    expect(alertRows(id)).toHaveLength(1);
  });
});

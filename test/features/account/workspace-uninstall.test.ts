// app_uninstalled and tokens_revoked, sent as signed Events API requests into the real receiver: the
// workspace's stored keys and work are purged (another workspace's are not), and one audit record says so.
import { describe, expect, it } from 'vitest';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';

const OTHER_TEAM = 'T0OTHER';

const bot = useTestBot({});

async function seedWorkspace() {
  // The other workspace's reminder is seeded again by each test.
  await bot.store.workspaces.purge(OTHER_TEAM);
  await bot.link('ada');
  const ada = { teamId: bot.slack.teamId, userId: USERS.ada.slackId };
  await bot.store.reminders.create({
    ...ada,
    cron: '0 19 * * 1-5',
    timezone: 'UTC',
    channel: ada.userId,
    createdAt: 1,
  });
  await bot.store.reminders.create({
    teamId: OTHER_TEAM,
    userId: 'U0ELSEWHERE',
    cron: '0 19 * * 1-5',
    timezone: 'UTC',
    channel: 'U0ELSEWHERE',
    createdAt: 1,
  });
  await bot.store.watches.create({
    ...ada,
    machineId: 'psada001',
    machineName: 'ada-workstation',
    targetState: 'ready',
    channel: 'C0OPS',
    createdAt: Date.now(),
    deadlineAt: Date.now() + 60_000,
  });
  return ada;
}

async function expectPurged(ada: { teamId: string; userId: string }, cause: string) {
  await expect.poll(async () => bot.vault.account(ada)).toBeUndefined();
  expect(await bot.store.reminders.listByUser(ada)).toEqual([]);
  expect(await bot.store.watches.countActive(ada)).toBe(0);
  expect(await bot.store.reminders.listByUser({ teamId: OTHER_TEAM, userId: 'U0ELSEWHERE' })).toHaveLength(1);
  const [record] = await bot.store.audit.list({ teamId: ada.teamId, limit: 1 });
  expect(record).toMatchObject({ action: 'workspace.purge', outcome: 'ok', message: cause });
}

describe('leaving a workspace', () => {
  it('purges its keys, reminders and watches on app_uninstalled, and audits it', async () => {
    const ada = await seedWorkspace();
    const response = await bot.send(bot.requests.event({ type: 'app_uninstalled' }));
    expect(response.status).toBe(200);
    await expectPurged(ada, 'app_uninstalled');
  });

  it('purges on tokens_revoked naming the bot', async () => {
    const ada = await seedWorkspace();
    await bot.send(bot.requests.event({ type: 'tokens_revoked', tokens: { bot: [bot.slack.botUserId] } }));
    await expectPurged(ada, 'tokens_revoked');
  });

  it('keeps everything when only user tokens were revoked', async () => {
    const ada = await seedWorkspace();
    await bot.send(bot.requests.event({ type: 'tokens_revoked', tokens: { oauth: ['U0SOMEONE'] } }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await bot.vault.account(ada)).toBeDefined();
    expect(await bot.store.watches.countActive(ada)).toBe(1);
  });
});

// Budget alerts with two replicas on one database, and one of them dying in between: each of the 50%,
// 80% and 100% alerts of a budget is one message, whichever replica's tick finds it due first, since
// each is claimed in the store before it is posted. The spend is counted from the scheduler's list.
import { describe, expect, it } from 'vitest';
import { useTestSchema } from '../store/postgres-test-database.js';
import { USERS } from '../support/test-bot.js';
import { startReplicaCluster } from './cluster.js';

const schema = useTestSchema();
const MAYA = USERS.maya.slackId;
const HOUR_MS = 3_600_000;

describe('budget alerts with two replicas', () => {
  it('sends the 50%, 80% and 100% alerts once each while both tick together and after one dies', async () => {
    const c = await startReplicaCluster({ databaseUrl: schema.url, replicaIds: ['replica-a', 'replica-b'] });
    try {
      for (const name of ['maya', 'sam'] as const) await c.link(name);
      const [a, b] = c.replicas;
      if (!a || !b) throw new Error('two replicas');
      const maya = await a.store.vaultEntries.get(c.user('maya'));
      const paperspaceTeamId = maya?.account.teamId ?? '';
      const place = { teamId: c.user('maya').teamId, paperspaceTeamId, subject: 'team' as const };
      const setBudget = (dollars: number) =>
        b.store.budgets.set({
          ...place,
          amountCents: Math.round(dollars * 100),
          setBy: MAYA,
          at: c.clock.now(),
        });

      c.clock.advance(12 * HOUR_MS);
      await setBudget(1_000_000);
      // The first tick learns which workspaces hold budgets; the next lists Maya's machines and counts.
      await c.tickAll();
      c.clock.advance(5000);
      await c.tickAll();
      const counted = async () =>
        (await b.store.budgets.list(place.teamId, paperspaceTeamId))[0]?.spentCents ?? 0;
      await expect.poll(counted).toBeGreaterThan(0);
      const spent = await counted();
      const alerts = () =>
        c.slack
          .calls('chat.postMessage')
          .filter((call) => call.args.channel === MAYA && String(call.args.text).includes('has reached'))
          .map((call) => /reached (\d+)%/.exec(String(call.args.text))?.[1]);

      for (const share of [55, 85]) {
        await setBudget((spent * 100) / share / 100);
        await c.tickAll();
        c.clock.advance(5000);
        await c.tickAll();
      }
      await a.crash();
      await setBudget((spent * 100) / 110 / 100);
      await c.tickAll();
      c.clock.advance(5000);
      await c.tickAll();
      await expect.poll(() => alerts().length).toBe(3);
      expect(alerts()).toEqual(['50', '80', '100']);
    } finally {
      await c.close();
    }
  });
});

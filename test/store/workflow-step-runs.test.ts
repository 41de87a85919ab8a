import { describe, expect, it } from 'vitest';
import { storeFactories, useFreshStore } from './store-factories.js';

const T0 = Date.UTC(2026, 11, 7, 19, 0);
const run = (executionId: string, at = T0, teamId = 'T1') => ({ teamId, executionId, at });

describe.each(storeFactories)('workflow step runs on $name', (factory) => {
  const db = useFreshStore(factory);

  it('gives a run to one of twenty deliveries arriving together on two replicas', async () => {
    const other = await db.connect();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? db.store : other).workflowStepRuns.claim(run('Fx0001', T0 + i)),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('refuses a redelivery minutes later, but not another run or the same id in another workspace', async () => {
    expect(await db.store.workflowStepRuns.claim(run('Fx0001'))).toBe(true);
    expect(await db.store.workflowStepRuns.claim(run('Fx0001', T0 + 5 * 60_000))).toBe(false);
    expect(await db.store.workflowStepRuns.claim(run('Fx0002'))).toBe(true);
    expect(await db.store.workflowStepRuns.claim(run('Fx0001', T0, 'T2'))).toBe(true);
  });

  it('forgets runs claimed before the cut-off only, and with the workspace they ran in', async () => {
    await db.store.workflowStepRuns.claim(run('Fx-old', T0 - 1));
    await db.store.workflowStepRuns.claim(run('Fx-new', T0));
    await db.store.workflowStepRuns.claim(run('Fx-gone', T0, 'T_GONE'));
    expect(await db.store.workflowStepRuns.pruneBefore(T0, 100)).toBe(1);
    expect(await db.store.workflowStepRuns.claim(run('Fx-old', T0 + 1))).toBe(true);
    expect(await db.store.workflowStepRuns.claim(run('Fx-new', T0 + 1))).toBe(false);
    expect((await db.store.workspaces.purge('T_GONE')).workflow_step_runs).toBe(1);
    expect(await db.store.workflowStepRuns.claim(run('Fx-gone', T0 + 1, 'T_GONE'))).toBe(true);
  });
});

// Which machine states keep a run going, from the cost guard's side (domain/machine-states.ts).
import { describe, expect, it } from 'vitest';
import { type CostGuardDeps, createCostGuard } from '../../../src/features/cost-alerts/cost-guard.js';
import type { PaperspaceClient } from '../../../src/paperspace/client.js';
import type { Machine } from '../../../src/paperspace/schemas.js';

const ADA = { teamId: 'T1', userId: 'U0ADA' };

function guardRecordingEndedRuns() {
  const ended: string[] = [];
  const costAlerts = {
    endRuns: async (_user: unknown, machineIds: string[]) => {
      ended.push(...machineIds);
    },
    threshold: async () => null,
    teamDefault: async () => undefined,
  };
  const deps = {
    store: { costAlerts },
    vault: { account: async () => ({ userId: 'u1ada' }) },
    now: () => Date.parse('2024-05-15T09:00:00Z'),
  } as unknown as CostGuardDeps;
  return { guard: createCostGuard(deps), ended };
}

const machine = (id: string, state: string) => ({ id, name: id, state }) as unknown as Machine;

describe('the cost guard', () => {
  // The cost guard's own set (starting, serviceready, ready) ended a run on a restart or an upgrade, so
  // a machine restarted every few hours was never alerted about though it never stopped being billed.
  it('ends a run when the machine is off, not when it restarts, upgrades or is stopping', async () => {
    const { guard, ended } = guardRecordingEndedRuns();
    await guard.check(
      ADA,
      [
        machine('ps-off', 'off'),
        machine('ps-restarting', 'restarting'),
        machine('ps-upgrading', 'upgrading'),
        machine('ps-stopping', 'stopping'),
        machine('ps-ready', 'ready'),
      ],
      {} as PaperspaceClient,
    );
    expect(ended).toEqual(['ps-off']);
  });
});

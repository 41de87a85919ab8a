// Which machine states keep a run going, from the cost guard's side (domain/machine-states.ts).
import { describe, expect, it } from 'vitest';
import { type CostGuardDeps, createCostGuard } from '../../../src/features/cost-alerts/cost-guard.js';
import type { PaperspaceClient } from '../../../src/paperspace/client.js';
import type { Machine } from '../../../src/paperspace/schemas.js';

const ADA = { teamId: 'T1', userId: 'U0ADA' };
const NOW = Date.parse('2024-05-15T09:00:00Z');

/** `paperspaceUserId` null: the person's account is not known (no vault entry read). */
function guardRecordingEndedRuns(paperspaceUserId: string | null = 'u1ada') {
  const ended: string[] = [];
  /** The machines each endRunsExcept kept the runs of. */
  const keptOnly: string[][] = [];
  const costAlerts = {
    endRuns: async (_user: unknown, machineIds: string[]) => {
      ended.push(...machineIds);
    },
    endRunsExcept: async (_user: unknown, machineIds: string[]) => {
      keptOnly.push(machineIds);
    },
    threshold: async () => null,
    teamDefault: async () => undefined,
    excluded: async () => new Set(),
    runs: async () => [],
    beginRun: async () => undefined,
    messagesAbout: async () => [],
  };
  const quiet = { info() {}, warn() {}, error() {} };
  const deps = {
    // Nobody recorded, linked or listed: the running machine has no one to alert, and nothing is posted.
    store: {
      costAlerts,
      machineOwners: { ownersOf: async () => new Map() },
      vaultEntries: { linkedIn: async () => [] },
      approvals: { knownRoles: async () => new Map() },
      audit: { list: async () => [] },
    },
    vault: {
      account: async () => (paperspaceUserId === null ? undefined : { userId: paperspaceUserId }),
    },
    logger: quiet,
    slack: async () => ({}),
    now: () => NOW,
  } as unknown as CostGuardDeps;
  const guard = createCostGuard(deps);
  // The poller asks whether the check is due before it lists the person's machines: it is, a first one.
  guard.due(ADA, NOW);
  return { guard, ended, keptOnly };
}

/** A client whose every read fails: the guard estimates starts and knows no team list. */
const failing = {
  machines: { show: async () => Promise.reject(new Error('no events here')) },
  users: { list: async () => Promise.reject(new Error('no users here')) },
} as unknown as PaperspaceClient;

const machine = (id: string, state: string, userId?: string) =>
  ({ id, name: id, state, ...(userId === undefined ? {} : { userId }) }) as unknown as Machine;

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
      failing,
    );
    expect(ended).toEqual(['ps-off']);
  });

  // A machine destroyed while running never shows a stop: its run's row (and the alert claim the prune
  // keeps for a followed run) stayed for good. Every machine the list shows counts, whoever owns it:
  // any linked person's list may follow a team machine, and the owner rule says whom to alert.
  it('ends the runs of machines a whole list no longer shows', async () => {
    const { guard, keptOnly } = guardRecordingEndedRuns();
    await guard.check(
      ADA,
      [machine('ps-ready', 'ready', 'u1ada'), machine('ps-off', 'off'), machine('ps-sams', 'ready', 'u1sam')],
      failing,
    );
    expect(keptOnly).toEqual([['ps-ready', 'ps-off', 'ps-sams']]);
  });

  it('ends no run by absence when it cannot tell which machines are the person’s', async () => {
    const { guard, keptOnly } = guardRecordingEndedRuns(null);
    await guard.check(ADA, [machine('ps-ready', 'ready', 'u1ada')], failing);
    expect(keptOnly).toEqual([]);
  });
});

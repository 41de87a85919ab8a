// The cost guard: on the tick, with the person's machines as the watch poller listed them, it follows
// each of their running machines from when it began running and, once it has run longer than their
// threshold, sends them one direct message about it. The alert's (machine, arming) key is claimed in
// the store before posting, so with several replicas it is posted once; "Keep running" moves the
// arming, which is what makes the machine due again later.

import { hourlyRateOf } from '../../domain/hourly-rate.js';
import { ownerIdOf } from '../../domain/machine-people.js';
import { isRunning, isStoppable } from '../../domain/machine-states.js';
import { describeError } from '../../errors/describe-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { PersonMachineCheck } from '../../scheduler/job.js';
import { postIn } from '../../slack/posting.js';
import type { AuditTrail } from '../../store/audit-trail.js';
import type { MachineRun } from '../../store/cost-alerts.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import type { KeyVault } from '../../vault/key-vault.js';
import type { JobResources } from '../job-needs.js';
import { costAlertMessage } from './blocks/cost-alert.js';
import { createCheckStarts } from './check-starts.js';
import { runningSinceOf } from './running-since.js';
import { thresholdOf } from './thresholds.js';

/**
 * How often a person's machines are checked. A person with watches is listed every tick anyway; for
 * the others this is one list call per person every five minutes instead of every tick, and an alert
 * about hours of running comes at most this much late.
 */
export const CHECK_EVERY_MS = 5 * 60_000;

/**
 * The pacer: the alert takes its turn in the person's DM with the completions and reminders posted
 * there, at Slack's pace, and waits out a 429 instead of being lost to it.
 */
export interface CostGuardDeps extends Pick<JobResources, 'slack' | 'pacer' | 'logger' | 'now'> {
  store: Pick<Store, 'costAlerts'>;
  vault: Pick<KeyVault, 'account'>;
  audit: AuditTrail;
}

export function createCostGuard(deps: CostGuardDeps): PersonMachineCheck {
  const { store, logger } = deps;
  /** When each person's check may begin: every CHECK_EVERY_MS, spread out (check-starts.ts). */
  const starts = createCheckStarts(CHECK_EVERY_MS);
  /** Machines whose run this replica follows, so a list between checks can end a run without a query. */
  const followed = new Set<string>();
  const keyOf = (user: SlackUser) => `${user.teamId}/${user.userId}`;

  /** When the machine began running: its events (one show, once per run) unless it is starting now. */
  async function beginRun(client: PaperspaceClient, user: SlackUser, machine: Machine): Promise<MachineRun> {
    const now = deps.now();
    let since = { at: now, estimated: machine.state !== 'starting' };
    if (machine.state !== 'starting') {
      try {
        const shown = await client.machines.show(machine.id, { maxRetries: 0 });
        since = runningSinceOf(shown.events, now);
      } catch (error) {
        logger.warn(
          { machineId: machine.id, error: describeError(error) },
          'could not read the events of a running machine; its start is estimated',
        );
      }
    }
    const run = {
      machineId: machine.id,
      owner: user,
      runningSince: since.at,
      sinceEstimated: since.estimated,
    };
    await store.costAlerts.beginRun(run);
    return { ...run, keptUntil: null };
  }

  async function alert(
    client: PaperspaceClient,
    user: SlackUser,
    machine: Machine,
    run: MachineRun,
    thresholdMs: number,
  ): Promise<void> {
    const now = deps.now();
    const arming = run.keptUntil ?? run.runningSince;
    if (!(await store.costAlerts.claimAlert(machine.id, arming, user, now))) return;
    let hourlyRate: string | null = null;
    try {
      hourlyRate = await hourlyRateOf(client, machine, now);
    } catch (error) {
      logger.warn(
        { machineId: machine.id, error: describeError(error) },
        'could not read the rate of a machine',
      );
    }
    const shown = costAlertMessage({
      machine,
      runningSince: run.runningSince,
      sinceEstimated: run.sinceEstimated,
      now,
      hourlyRate,
      thresholdMs,
    });
    try {
      await deps.audit.run(
        {
          user,
          action: 'machine.cost_alert',
          resourceId: machine.id,
          note: `running since ${new Date(run.runningSince).toISOString()}`,
        },
        async () => postIn(await deps.slack(user.teamId), { channel: user.userId }, shown, deps.pacer),
      );
    } catch (error) {
      // Not posted: the claim is given back, so the next check (here or on another replica) tries again.
      await store.costAlerts.releaseAlert(machine.id, arming);
      throw error;
    }
    logger.info({ machineId: machine.id, user: keyOf(user) }, 'posted a forgotten-machine alert');
  }

  return {
    name: 'cost guard',

    due: (user, now) => starts.due(keyOf(user), now),

    async check(user, machines, client) {
      const now = deps.now();
      if (!starts.begin(keyOf(user), now)) {
        // A list made for the person's watches between two checks: only a followed machine seen off
        // is worth a write (a stop and a start before the next check would otherwise look like one run).
        const ended = machines.filter((machine) => followed.has(machine.id) && !isRunning(machine.state));
        if (ended.length === 0) return;
        await store.costAlerts.endRuns(
          user,
          ended.map((machine) => machine.id),
        );
        for (const machine of ended) followed.delete(machine.id);
        return;
      }
      const paperspaceUserId = (await deps.vault.account(user))?.userId;
      // A team key lists the whole team's machines; each person is asked about their own only (the
      // owner's own check covers theirs). Machines that name no owner are the key holder's.
      const own = machines.filter((machine) => {
        const owner = ownerIdOf(machine);
        return owner === undefined || owner === paperspaceUserId;
      });
      // A run lasts as long as Paperspace bills it: a restart or an upgrade does not end it. Only a
      // machine that takes a stop is alerted about; one already changing is asked about once it settles.
      const running = own.filter((machine) => isStoppable(machine.state));
      const stopped = own.filter((machine) => !isRunning(machine.state)).map((machine) => machine.id);
      await store.costAlerts.endRuns(user, stopped);
      for (const id of stopped) followed.delete(id);
      // A followed machine the whole list no longer shows as theirs was destroyed (or is no longer
      // theirs to see): no stop will ever be seen, so its run ends here or its row stays for good.
      // Only when the list could say whose each machine is.
      if (paperspaceUserId !== undefined) {
        const ownIds = new Set(own.map((machine) => machine.id));
        await store.costAlerts.endRunsExcept(user, [...ownIds]);
        for (const id of followed) if (!ownIds.has(id)) followed.delete(id);
      }
      const threshold = await thresholdOf(store, user);
      if (threshold.ms === null || running.length === 0) return;
      const excluded = await store.costAlerts.excluded(user);
      const candidates = running.filter((machine) => !excluded.has(machine.id));
      const runs = new Map(
        (await store.costAlerts.runs(candidates.map((machine) => machine.id))).map((run) => [
          run.machineId,
          run,
        ]),
      );
      for (const machine of candidates) {
        followed.add(machine.id);
        const run = runs.get(machine.id) ?? (await beginRun(client, user, machine));
        const dueAt = run.keptUntil ?? run.runningSince + threshold.ms;
        if (now < dueAt) continue;
        try {
          await alert(client, user, machine, run, threshold.ms);
        } catch (error) {
          logger.error(
            { machineId: machine.id, user: keyOf(user), error: describeError(error) },
            'could not post a forgotten-machine alert',
          );
        }
      }
    },
  };
}

// The cost guard: on the tick, with a linked person's machines as the watch poller listed them, it
// follows each running machine from when its run began and, once it has run longer than its recipients'
// threshold, sends them a direct message about it. The recipients are the owner rule's
// (alert-recipients.ts), not whoever's key listed the machine: on a team key every linked member's list
// shows the same machine, and the first to see it due alerts its owner. The alert's (machine, arming)
// key is claimed in the store before posting, so across people and replicas it is posted once; "Keep
// running" moves the arming, which is what makes the machine due again later. A person's alerts due
// in the same check come as one message.

import { hourlyRateOf } from '../../domain/hourly-rate.js';
import { isRunning, isStoppable } from '../../domain/machine-states.js';
import { describeError } from '../../errors/describe-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { PersonMachineCheck } from '../../scheduler/job.js';
import { postIn } from '../../slack/posting.js';
import type { MachineRun } from '../../store/cost-alerts.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import type { KeyVault } from '../../vault/key-vault.js';
import type { JobResources } from '../job-needs.js';
import { createCheckRecipients } from './alert-recipients.js';
import { endAlertRows } from './alert-rows.js';
import { ALERTS_PER_MESSAGE, type CostAlert, costAlertMessages } from './blocks/cost-alert.js';
import { createCheckStarts } from './check-starts.js';
import { runAfterStop, runningSinceOf } from './running-since.js';
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
  store: Pick<Store, 'costAlerts' | 'audit' | 'machineOwners' | 'vaultEntries' | 'approvals' | 'rowMessages'>;
  vault: Pick<KeyVault, 'account'>;
}

/** A machine due now, and the people its alert goes to with each one's threshold. */
interface DueAlert {
  machine: Machine;
  run: MachineRun;
  arming: number;
  /** The shortest of the recipients' thresholds: the one that made it due. */
  dueAfterMs: number;
  recipients: { person: SlackUser; thresholdMs: number }[];
}

const keyOf = (user: SlackUser) => `${user.teamId}/${user.userId}`;

export function createCostGuard(deps: CostGuardDeps): PersonMachineCheck {
  const { store, logger } = deps;
  /** When each person's check may begin: every CHECK_EVERY_MS, spread out (check-starts.ts). */
  const starts = createCheckStarts(CHECK_EVERY_MS);
  /**
   * Machines whose run this replica follows, and whose check follows each, so a list between checks can
   * end a run without a query. On a team key several people's lists show the same machine: only the
   * list of the person who follows it can say it is gone.
   */
  const followed = new Map<string, string>();

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

  /**
   * Whether the machine was stopped and started again since its followed run began, between two checks
   * whose lists both showed it running: then that run is over and the new one is followed from its own
   * start (one read of its events, made only for an alert about to be sent).
   */
  async function rearmedAfterStop(
    client: PaperspaceClient,
    user: SlackUser,
    machine: Machine,
    run: MachineRun,
  ) {
    const now = deps.now();
    let since: ReturnType<typeof runAfterStop>;
    try {
      since = runAfterStop(
        (await client.machines.show(machine.id, { maxRetries: 0 })).events,
        run.runningSince,
        now,
      );
    } catch (error) {
      logger.warn(
        { machineId: machine.id, error: describeError(error) },
        'could not read the events of a machine about to be alerted; its followed start is kept',
      );
      return false;
    }
    if (since === undefined) return false;
    await endRuns(user.teamId, [machine]);
    followed.set(machine.id, keyOf(user));
    await store.costAlerts.beginRun({
      machineId: machine.id,
      owner: user,
      runningSince: since.at,
      sinceEstimated: since.estimated,
    });
    return true;
  }

  /** Ends the runs of machines seen stopped, and the live rows of alerts about them. */
  async function endRuns(teamId: string, stopped: readonly { id: string; name: string }[]): Promise<void> {
    if (stopped.length === 0) return;
    await store.costAlerts.endRuns(
      teamId,
      stopped.map((machine) => machine.id),
    );
    for (const machine of stopped) followed.delete(machine.id);
    try {
      await endAlertRows(deps, await deps.slack(teamId), teamId, stopped);
    } catch (error) {
      logger.warn({ error: describeError(error) }, 'could not end the rows of alerts about stopped machines');
    }
  }

  /** Each person's threshold and muted machines, read once per check. */
  function settingsOfCheck() {
    const settings = new Map<string, Promise<{ ms: number | null; muted: Set<string> }>>();
    return (person: SlackUser) => {
      let read = settings.get(keyOf(person));
      if (read === undefined) {
        read = Promise.all([thresholdOf(store, person), store.costAlerts.excluded(person)]).then(
          ([threshold, muted]) => ({ ms: threshold.ms, muted }),
        );
        settings.set(keyOf(person), read);
      }
      return read;
    };
  }

  /** Posts each person's due alerts as one message (several past Slack's limit). */
  async function deliver(client: PaperspaceClient, teamId: string, due: readonly DueAlert[]): Promise<void> {
    const now = deps.now();
    const rates = new Map<string, string | null>();
    for (const { machine } of due) {
      try {
        rates.set(machine.id, await hourlyRateOf(client, machine, now));
      } catch (error) {
        rates.set(machine.id, null);
        logger.warn(
          { machineId: machine.id, error: describeError(error) },
          'could not read the rate of a machine',
        );
      }
    }
    const byPerson = new Map<string, { person: SlackUser; alerts: (CostAlert & { arming: number })[] }>();
    for (const { machine, run, arming, dueAfterMs, recipients } of due) {
      for (const { person, thresholdMs } of recipients) {
        const group = byPerson.get(keyOf(person)) ?? { person, alerts: [] };
        group.alerts.push({
          machine,
          runningSince: run.runningSince,
          sinceEstimated: run.sinceEstimated,
          now,
          hourlyRate: rates.get(machine.id) ?? null,
          thresholdMs,
          dueAfterMs,
          arming,
        });
        byPerson.set(keyOf(person), group);
      }
    }
    const delivered = new Set<string>();
    const web = await deps.slack(teamId);
    for (const { person, alerts } of byPerson.values()) {
      const messages = costAlertMessages(alerts);
      for (const [index, shown] of messages.entries()) {
        const about = alerts.slice(index * ALERTS_PER_MESSAGE, (index + 1) * ALERTS_PER_MESSAGE);
        const ids = about.map((alert) => alert.machine.id);
        try {
          const place = await postIn(web, { channel: person.userId }, shown, deps.pacer);
          for (const id of ids) delivered.add(id);
          await store.costAlerts.recordMessage(teamId, ids, place, now);
          await store.rowMessages.keep({ teamId, ...place }, 'cost_alert', shown, now);
          for (const alert of about) await audit(person, alert, 'ok', null);
          logger.info({ machineIds: ids, user: keyOf(person) }, 'posted a forgotten-machine alert');
        } catch (error) {
          for (const alert of about) await audit(person, alert, 'error', 'Slack did not take the message');
          logger.error(
            { machineIds: ids, user: keyOf(person), error: describeError(error) },
            'could not post a forgotten-machine alert',
          );
        }
      }
    }
    // Posted to nobody: the claim is given back, so the next check (here or on another replica) tries again.
    for (const { machine, arming } of due) {
      if (!delivered.has(machine.id)) await store.costAlerts.releaseAlert(machine.id, arming);
    }
  }

  async function audit(person: SlackUser, alert: CostAlert, outcome: 'ok' | 'error', why: string | null) {
    try {
      await store.audit.record({
        ...person,
        action: 'machine.cost_alert',
        resourceId: alert.machine.id,
        outcome,
        message: why ?? `running since ${new Date(alert.runningSince).toISOString()}`,
        at: deps.now(),
      });
    } catch (error) {
      logger.error({ err: error }, 'could not write the audit record of a forgotten-machine alert');
    }
  }

  return {
    name: 'cost guard',

    due: (user, now) => starts.due(keyOf(user), now),

    // A stop the bot followed to off: its run and its alert rows end now, not at the next check, and
    // whether or not this replica follows it (the list that would end it may be another person's).
    machineOff: (teamId, machine) => endRuns(teamId, [machine]),

    async check(user, machines, client) {
      const now = deps.now();
      if (!starts.begin(keyOf(user), now)) {
        // A list made for the person's watches between two checks: only a followed machine seen off
        // is worth a write (a stop and a start before the next check would otherwise look like one run).
        await endRuns(
          user.teamId,
          machines.filter((machine) => followed.has(machine.id) && !isRunning(machine.state)),
        );
        return;
      }
      const paperspaceUserId = (await deps.vault.account(user))?.userId;
      // A run lasts as long as Paperspace bills it: a restart or an upgrade does not end it. Only a
      // machine that takes a stop is alerted about; one already changing is asked about once it settles.
      const running = machines.filter((machine) => isStoppable(machine.state));
      await endRuns(
        user.teamId,
        machines.filter((machine) => !isRunning(machine.state)),
      );
      // A followed machine the person's whole list no longer shows was destroyed (or is no longer theirs
      // to see): no stop will ever be seen, so its run ends here or its row stays for good.
      if (paperspaceUserId !== undefined) {
        const listed = new Set(machines.map((machine) => machine.id));
        await store.costAlerts.endRunsExcept(user, [...listed]);
        for (const [id, by] of followed) if (by === keyOf(user) && !listed.has(id)) followed.delete(id);
      }
      if (running.length === 0) return;
      const runs = new Map(
        (await store.costAlerts.runs(running.map((machine) => machine.id))).map((run) => [
          run.machineId,
          run,
        ]),
      );
      const recipients = await createCheckRecipients(deps, { user, client }, running);
      const settingsOf = settingsOfCheck();
      const due: DueAlert[] = [];
      /** Machines whose run began in this check: their events were just read. */
      const begunNow = new Set<string>();
      for (const machine of running) {
        followed.set(machine.id, keyOf(user));
        try {
          const followedRun = runs.get(machine.id);
          const run = followedRun ?? (await beginRun(client, user, machine));
          const people: DueAlert['recipients'] = [];
          for (const person of await recipients.of(machine, run.runningSince)) {
            const { ms, muted } = await settingsOf(person);
            if (ms !== null && !muted.has(machine.id)) people.push({ person, thresholdMs: ms });
          }
          if (people.length === 0) continue;
          // Several recipients (administrators): the first of their thresholds to pass makes it due.
          const soonest = Math.min(...people.map((person) => person.thresholdMs));
          const arming = run.keptUntil ?? run.runningSince;
          if (now < (run.keptUntil ?? run.runningSince + soonest)) continue;
          if (!(await store.costAlerts.claimAlert(machine.id, arming, people[0]?.person ?? user, now)))
            continue;
          if (followedRun === undefined) begunNow.add(machine.id);
          due.push({ machine, run, arming, dueAfterMs: soonest, recipients: people });
        } catch (error) {
          logger.error(
            { machineId: machine.id, user: keyOf(user), error: describeError(error) },
            'could not check a running machine for a forgotten-machine alert',
          );
        }
      }
      // A run followed from an earlier check is as old as the alert would say only if nothing stopped it
      // since. Read once every claim is made, so the claims of one check are not interleaved with
      // another's; a claim on a run that ended is given back, and the new run is alerted once it is due.
      const confirmed: DueAlert[] = [];
      for (const alert of due) {
        if (
          !begunNow.has(alert.machine.id) &&
          (await rearmedAfterStop(client, user, alert.machine, alert.run))
        )
          await store.costAlerts.releaseAlert(alert.machine.id, alert.arming);
        else confirmed.push(alert);
      }
      if (confirmed.length > 0) await deliver(client, user.teamId, confirmed);
    },
  };
}

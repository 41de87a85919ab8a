// The policies' enforcement: on the tick, with a person's machines as the watch poller listed them
// (the list the cost guard reads too), each running team machine's lease is worked out from the team's
// rules (lease.ts) and the run the cost guard dates (its start, from the machine's events). A lease
// whose warning is due is warned to the machine's owner (the one owner rule, as the cost guard's
// recipients: alert-recipients.ts), and one whose stop is due is stopped with the owner's key
// (policy-stop.ts). Each warning and each stop is claimed in the store, so across people who list
// the same team machine and across replicas it happens once. The check remembers when each person's
// next warning or stop is due, and asks the poller for their list then (`due`), so it comes within a
// tick of its moment without listing anyone otherwise.
import { describeError } from '../../errors/describe-error.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { PersonMachineCheck } from '../../scheduler/job.js';
import { postIn } from '../../slack/posting.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import type { PolicyStep, PolicyTeam, TeamPolicies } from '../../store/team-policies.js';
import type { KeyVault } from '../../vault/key-vault.js';
import { createCheckRecipients } from '../cost-alerts/alert-recipients.js';
import type { JobResources } from '../job-needs.js';
import { type Warned, warningMessage } from './blocks/policy-warning.js';
import { policyNote, stopUnderPolicy, type Tell } from './policy-stop.js';
import { runningLeases } from './running-leases.js';

/** A rule changed on another replica (or by a command here) is applied within this long. */
const RULES_KEPT_MS = 30_000;
/** Steps acted on are remembered this long, so a stop refused by Paperspace does not list its person every tick. */
const ACTED_KEPT_MS = 24 * 3_600_000;

export interface PolicyGuardDeps
  extends Pick<JobResources, 'slack' | 'pacer' | 'logger' | 'now' | 'clients'> {
  store: Pick<Store, 'policies' | 'costAlerts' | 'audit' | 'machineOwners' | 'vaultEntries' | 'approvals'>;
  vault: Pick<KeyVault, 'account'>;
}

/** A warning or a stop with the machine as listed: the owner rule reads Paperspace's owner from it. */
type Listed = Warned & { machine: Machine };

const keyOf = (user: SlackUser) => `${user.teamId}/${user.userId}`;
const stepKey = (teamId: string, step: PolicyStep) =>
  `${teamId}/${step.machineId}/${step.kind}/${step.dueAt}/${step.step}`;

export function createPolicyGuard(deps: PolicyGuardDeps): PersonMachineCheck {
  const { store, logger } = deps;
  /** When each person's next warning or stop is due, as their last list showed. */
  const nextDue = new Map<string, number>();
  const rulesKept = new Map<string, { readAt: number; rules: Promise<TeamPolicies> }>();
  /** Steps this replica claimed or found claimed, with the moment each was due. */
  const acted = new Map<string, number>();

  function rulesOf(team: PolicyTeam, now: number): Promise<TeamPolicies> {
    const key = `${team.teamId}/${team.paperspaceTeamId}`;
    const kept = rulesKept.get(key);
    if (kept !== undefined && now - kept.readAt < RULES_KEPT_MS) return kept.rules;
    const rules = store.policies.rules(team);
    rulesKept.set(key, { readAt: now, rules });
    rules.catch(() => rulesKept.delete(key));
    return rules;
  }

  /** Whether this caller makes the step: false when it was made here or by anyone before. */
  async function claim(teamId: string, step: PolicyStep, now: number): Promise<boolean> {
    const key = stepKey(teamId, step);
    if (acted.has(key)) return false;
    acted.set(key, step.dueAt);
    if (acted.size % 1000 === 0) {
      for (const [old, dueAt] of acted) if (now - dueAt > ACTED_KEPT_MS) acted.delete(old);
    }
    return store.policies.claim(teamId, step, now);
  }

  const tellIn =
    (teamId: string): Tell =>
    async (person, shown) => {
      try {
        await postIn(await deps.slack(teamId), { channel: person.userId }, shown, deps.pacer);
      } catch (error) {
        logger.warn({ user: keyOf(person), error: describeError(error) }, 'could not post a policy message');
      }
    };

  async function warn(
    user: SlackUser,
    client: Parameters<PersonMachineCheck['check']>[2],
    warned: Listed[],
    stops: Listed[],
  ) {
    const machines = [...warned, ...stops].map((item) => item.machine);
    const recipients = await createCheckRecipients(deps, { user, client }, machines);
    const tell = tellIn(user.teamId);
    const runs = new Map(
      (await store.costAlerts.runs(machines.map((m) => m.id))).map((run) => [run.machineId, run]),
    );
    const peopleOf = (item: Listed) =>
      recipients.of(item.machine, runs.get(item.machine.id)?.runningSince ?? deps.now());
    for (const item of warned) {
      const people = await peopleOf(item);
      for (const person of people) await tell(person, warningMessage(item));
      await store.audit.record({
        ...user,
        userId: item.lease.setBy,
        action: 'policy.warn',
        resourceId: item.machine.id,
        outcome: 'ok',
        message: policyNote(
          item,
          `warned ${people.map((person) => person.userId).join(', ') || 'nobody linked'}`,
        ),
        at: deps.now(),
      });
    }
    for (const item of stops) {
      await stopUnderPolicy(
        { store, clients: deps.clients, logger, now: deps.now },
        user.teamId,
        item,
        recipients.ownerOf(item.machine),
        await peopleOf(item),
        tell,
      );
    }
  }

  return {
    name: 'policies',

    due: (user, now) => (nextDue.get(keyOf(user)) ?? Number.POSITIVE_INFINITY) <= now,

    async check(user, machines, client) {
      const now = deps.now();
      const account = await deps.vault.account(user);
      nextDue.delete(keyOf(user));
      if (!account?.teamId) return;
      const team = { teamId: user.teamId, paperspaceTeamId: account.teamId };
      const rules = await rulesOf(team, now);
      let soonest = Number.POSITIVE_INFINITY;
      const warned: Listed[] = [];
      const stops: Listed[] = [];
      for (const item of await runningLeases(store, team, rules, machines, now)) {
        const { machine, lease } = item;
        if (now < lease.warnAt) {
          soonest = Math.min(soonest, lease.warnAt);
          continue;
        }
        const step = { machineId: machine.id, kind: lease.kind, dueAt: lease.stopAt } as const;
        // A stop always follows its warning, a tick later at the least: nobody loses a machine unwarned.
        if (await claim(user.teamId, { ...step, step: 'warn' }, now)) {
          warned.push(item);
          soonest = Math.min(soonest, lease.stopAt);
          continue;
        }
        if (now < lease.stopAt) {
          soonest = Math.min(soonest, lease.stopAt);
          continue;
        }
        if (await claim(user.teamId, { ...step, step: 'stop' }, now)) stops.push(item);
      }
      if (soonest !== Number.POSITIVE_INFINITY) nextDue.set(keyOf(user), soonest);
      if (warned.length > 0 || stops.length > 0) await warn(user, client, warned, stops);
    },
  };
}

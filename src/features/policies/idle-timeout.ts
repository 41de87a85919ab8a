// The team's idle rule on its machines: Paperspace's own shutdown of a machine nobody is logged into,
// set on each machine so it holds even while the bot is down. Each machine is updated with its
// owner's own linked key (the one owner rule; the linking notice told them), and a machine that
// could not be updated is named with why, in plain words. Every update is audited.
import { type MachineOwner, machineOwners, ownerPeople } from '../../domain/machine-owner.js';
import { describeError } from '../../errors/describe-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { Machine } from '../../paperspace/schemas.js';
import { escapeMrkdwn } from '../../slack/block-kit/text.js';
import type { PolicyTeam } from '../../store/team-policies.js';
import type { PoliciesDeps } from './policies-deps.js';

type IdleDeps = Pick<PoliciesDeps, 'store' | 'clients' | 'audit' | 'logger'>;

export interface IdleOutcome {
  updated: string[];
  missed: { name: string; why: string }[];
}

/** Sets `hours` on every machine the administrator's key lists, each with its owner's key. */
export async function applyIdleTimeout(
  deps: IdleDeps,
  team: PolicyTeam,
  adminClient: PaperspaceClient,
  rule: { hours: number; setBy: string },
): Promise<IdleOutcome> {
  const machines = await adminClient.machines.list();
  const ownerOf = await machineOwners(deps.store, team.teamId, machines);
  const outcome: IdleOutcome = { updated: [], missed: [] };
  for (const machine of machines) {
    const owner = ownerOf(machine);
    const why = await updateWithOwnerKey(deps, team.teamId, machine, owner, rule);
    if (why === undefined) outcome.updated.push(machine.name);
    else outcome.missed.push({ name: machine.name, why });
  }
  return outcome;
}

/** Undefined once updated; otherwise why not. */
async function updateWithOwnerKey(
  deps: IdleDeps,
  teamId: string,
  machine: Machine,
  owner: MachineOwner,
  rule: { hours: number; setBy: string },
): Promise<string | undefined> {
  let why =
    owner.kind === 'none'
      ? 'it has no owner yet (someone can `/ps claim` it)'
      : 'its owner has not linked a Paperspace key here';
  for (const person of await ownerPeople(deps.store, teamId, owner)) {
    const client = await deps.clients.forUser(person);
    if (client === undefined) continue;
    try {
      await deps.audit.run(
        {
          user: person,
          action: 'policy.idle',
          resourceId: machine.id,
          note: `${rule.hours} h idle timeout set by ${rule.setBy}, with the owner's key`,
        },
        () => client.machines.update(machine.id, { shutdownTimeoutInHours: rule.hours }),
      );
      return undefined;
    } catch (error) {
      deps.logger.warn(
        { machineId: machine.id, error: describeError(error) },
        "an idle timeout with the owner's key failed",
      );
      why = "Paperspace refused its owner's key";
    }
  }
  return why;
}

/** The reply's account of the machines: how many were set, and each one that was not, with why. */
export function idleOutcomeText(outcome: IdleOutcome): string {
  const lines: string[] = [];
  if (outcome.updated.length > 0) {
    lines.push(
      `Set with their owners' keys on ${outcome.updated.length} machine${outcome.updated.length === 1 ? '' : 's'}: ${outcome.updated.map((name) => `*${escapeMrkdwn(name)}*`).join(', ')}.`,
    );
  }
  if (outcome.missed.length > 0) {
    lines.push(
      `Not set on these (run \`/ps policy idle\` again once their owners link a key, or they set it themselves with \`/ps update\`):`,
    );
    for (const { name, why } of outcome.missed) lines.push(`• *${escapeMrkdwn(name)}*: ${why}.`);
  }
  if (lines.length === 0) lines.push('Your team has no machines yet.');
  return lines.join('\n');
}

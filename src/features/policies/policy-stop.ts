// A policy's stop, with the owner's own key: the one rule says whose the machine is; each of the owner's
// linked Slack people is tried in turn. When the owner has linked no key, the machine has no owner yet,
// or Paperspace refuses the owner's key, the administrator who set the rule is asked to stop it with
// theirs (one click), and the people warned are told what happened. Every stop is audited with the
// rule and the administrator who set it.
import { type MachineOwner, ownerPeople } from '../../domain/machine-owner.js';
import { describeError } from '../../errors/describe-error.js';
import type { Logger } from '../../logger.js';
import { section } from '../../slack/block-kit/elements.js';
import type { SlackMessage } from '../../slack/block-kit/text.js';
import { mention, message, nameMrkdwn } from '../../slack/block-kit/text.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import type { PaperspaceClientFactory } from '../../vault/paperspace-clients.js';
import { ruleWords, stopWithMyKeyMessage, type Warned } from './blocks/policy-warning.js';

export interface PolicyStopDeps {
  store: Pick<Store, 'vaultEntries' | 'audit'>;
  clients: Pick<PaperspaceClientFactory, 'forUser'>;
  logger: Pick<Logger, 'warn' | 'info'>;
  now: () => number;
}

/** Someone to tell: each gets one message. */
export type Tell = (person: SlackUser, shown: SlackMessage) => Promise<void>;

/** The audit note of an action under a rule: the rule and the administrator who set it. */
export function policyNote(warned: Warned, more: string): string {
  return `${warned.lease.kind} set by ${warned.lease.setBy}; ${more}`;
}

export async function stopUnderPolicy(
  deps: PolicyStopDeps,
  teamId: string,
  warned: Warned,
  owner: MachineOwner,
  told: readonly SlackUser[],
  tell: Tell,
): Promise<void> {
  const { machine } = warned;
  const name = nameMrkdwn(machine.name);
  let why = 'its owner has not linked a Paperspace key here.';
  if (owner.kind === 'none') why = 'it has no owner yet.';
  for (const person of await ownerPeople(deps.store, teamId, owner)) {
    const client = await deps.clients.forUser(person);
    if (client === undefined) continue;
    try {
      await client.machines.stop(machine.id);
      await audit(deps, person, warned, 'ok', policyNote(warned, `stopped with the key of ${person.userId}`));
      const line = `⏹ ${name} was stopped by ${ruleWords(warned.lease)} (set by ${mention(warned.lease.setBy)}), with its owner's own Paperspace key.`;
      for (const someone of told)
        await tell(someone, message([section(line)], `${machine.name} was stopped`));
      return;
    } catch (error) {
      why = "Paperspace refused its owner's key.";
      deps.logger.warn(
        { machineId: machine.id, error: describeError(error) },
        "a policy stop with the owner's key failed",
      );
      await audit(
        deps,
        person,
        warned,
        'error',
        policyNote(warned, `Paperspace refused the key of ${person.userId}`),
      );
    }
  }
  const admin = { teamId, userId: warned.lease.setBy };
  await tell(admin, stopWithMyKeyMessage(warned, why));
  const line = `⚠️ ${name} passed ${ruleWords(warned.lease)} but was not stopped: ${why} ${mention(warned.lease.setBy)}, who set the rule, was asked to stop it with their key.`;
  for (const someone of told) {
    if (someone.userId !== admin.userId)
      await tell(someone, message([section(line)], `${machine.name} was not stopped`));
  }
}

async function audit(
  deps: PolicyStopDeps,
  person: SlackUser,
  warned: Warned,
  outcome: 'ok' | 'error',
  note: string,
): Promise<void> {
  try {
    await deps.store.audit.record({
      ...person,
      action: 'policy.stop',
      resourceId: warned.machine.id,
      outcome,
      message: note,
      at: deps.now(),
    });
  } catch (error) {
    deps.logger.warn({ error: describeError(error) }, 'could not write the audit record of a policy stop');
  }
}

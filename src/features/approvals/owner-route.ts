// Before a start, stop or restart of someone else's machine: Paperspace lets only the owner power it,
// so instead of sending a call that would be refused, the person either acts under the owner's
// standing grant ("for the next N hours", with the owner's key) or is offered "Ask the owner". v1 does
// not say who owns a machine, and lets its accessors power it too: there the call is sent, and
// Paperspace's refusal brings the offer, to the owner by the owner rule (the person the bot recorded),
// or to the team's administrators for a machine with no owner yet.

import { isOwnedBy, machineOwner, paperspaceOwnerIdOf } from '../../domain/machine-owner.js';
import { linkedPeopleOf, linkedTeammates, paperspaceNameOf } from '../../domain/machine-people.js';
import { PaperspacePermissionError } from '../../paperspace/errors.js';
import type { Machine } from '../../paperspace/schemas.js';
import { mention } from '../../slack/block-kit/text.js';
import type { Interaction } from '../../slack/interaction.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { FeatureDeps } from '../feature-deps.js';
import { OverBudgetError } from '../machines/budget-gate.js';
import type { PowerVerb } from '../machines/machine-operations.js';
import { type PowerRequest, type PowerRequestDeps, requestPower } from '../machines/power-request.js';
import { createApprovers } from './approvers.js';
import { ownerUnknownOfferMessage, powerOfferMessage } from './blocks/request-messages.js';
import { requestStartOverBudget } from './budget-route.js';

export type OwnerRoute = 'own' | 'handled';

/** What routing to an owner uses besides a power request's own: the grants, and who holds which key. */
export type OwnerRouteDeps = PowerRequestDeps & FeatureDeps<'approvals' | 'vaultEntries', 'vault'>;

type Request = Omit<PowerRequest, 'actor' | 'machine' | 'verb' | 'deps'> & { deps: OwnerRouteDeps };

/**
 * 'own' when the person owns the machine (or its owner is unknown and no grant runs): the caller
 * powers it as usual. 'handled' when it is someone else's: run under a standing grant, or the offer to
 * ask was shown.
 */
export async function routePowerToOwner(
  interaction: Interaction,
  machine: Machine,
  verb: PowerVerb,
  request: Request,
): Promise<OwnerRoute> {
  const { user } = interaction;
  const { deps } = request;
  // Only the owner Paperspace names decides beforehand: on v1 an accessor may power a machine the bot
  // records as someone else's, so there Paperspace's answer comes first (offerPowerRequest).
  const ownerPaperspaceId = paperspaceOwnerIdOf(machine);
  const account = await deps.vault.account(user);
  if (!account || ownerPaperspaceId === account.userId) return 'own';
  const grantedBy = await deps.store.approvals.grantedBy(user.teamId, user.userId, machine.id, deps.now());
  // A grant counts only while its giver still holds the account they approved with (the owner's, or on
  // v1 a teammate's: they may have relinked or left the team).
  const holders = ownerPaperspaceId
    ? await linkedPeopleOf(deps.store, user.teamId, ownerPaperspaceId)
    : account.teamId
      ? await linkedTeammates(deps.store, user, account.teamId)
      : [];
  const grantor = holders.find((person) => person.userId === grantedBy);
  if (grantor && (await runUnderGrant(interaction, grantor, machine, verb, request))) return 'handled';
  if (!ownerPaperspaceId) return 'own';
  const settings = account.teamId
    ? await deps.store.approvals.settingsOf(user.teamId, account.teamId)
    : undefined;
  const client = holders.length === 0 ? await interaction.userClient() : undefined;
  await interaction.replyPrivately(
    powerOfferMessage(
      machine,
      verb,
      holders.map((person) => person.userId),
      {
        ownerName: client ? await paperspaceNameOf(client, ownerPaperspaceId) : undefined,
        approvalsChannel: settings?.channel ?? undefined,
      },
    ),
  );
  return 'handled';
}

async function runUnderGrant(
  interaction: Interaction,
  grantor: SlackUser,
  machine: Machine,
  verb: PowerVerb,
  request: Request,
): Promise<boolean> {
  const { user } = interaction;
  const { deps } = request;
  const grantorClient = await deps.clients.forUser(grantor);
  if (!grantorClient) return false;
  // The person is named as who asked (card, audit of the call); the grantor's key makes the call, and
  // this record ties the two together.
  await deps.audit.run(
    {
      user,
      action: `approval.grant.${verb}`,
      resourceId: machine.id,
      note: `with the key of ${mention(grantor.userId)} under their standing grant`,
    },
    () => requestPower({ ...request, actor: { user, client: grantorClient }, machine, verb }),
  );
  return true;
}

/**
 * After the budget gate stopped a member's start: the request to the administrators it becomes
 * (budget-route.ts). After Paperspace refused the person's own start, stop or restart of a machine
 * whose owner it does not name (v1): the offer to ask its owner by the owner rule, or the team's
 * administrators when it has no owner yet, instead of a bare refusal. False: neither case, the caller
 * reports the error as usual.
 */
export async function offerPowerRequest(
  error: unknown,
  interaction: Interaction,
  machine: Machine,
  verb: PowerVerb,
  deps: FeatureDeps<'vaultEntries' | 'approvals' | 'machineOwners', 'vault' | 'audit' | 'now'>,
): Promise<boolean> {
  if (error instanceof OverBudgetError) {
    const client = await interaction.userClient();
    if (!client) return true;
    const { web, user, channelId: channel } = interaction;
    const requester = { deps, web, user, client, channel, tell: interaction.replyPrivately };
    return requestStartOverBudget(error, requester, machine);
  }
  if (!(error instanceof PaperspacePermissionError) || paperspaceOwnerIdOf(machine) !== undefined)
    return false;
  const { user } = interaction;
  const account = await deps.vault.account(user);
  if (!account?.teamId) return false;
  const owner = await machineOwner(deps.store, user.teamId, machine);
  if (
    owner.kind === 'recorded' &&
    !isOwnedBy(owner, { userId: user.userId, paperspaceUserId: account.userId })
  ) {
    await interaction.replyPrivately(powerOfferMessage(machine, verb, [owner.userId], {}));
    return true;
  }
  // No owner yet (or the person's own, which Paperspace still refused): the administrators answer for it.
  const client = await interaction.userClient();
  const { approvers } = client
    ? await createApprovers(deps, { user, client }, account.teamId)
    : { approvers: [] };
  await interaction.replyPrivately(
    ownerUnknownOfferMessage(
      machine,
      verb,
      approvers.map((person) => person.userId),
    ),
  );
  return true;
}

// Before a start, stop or restart of someone else's machine: Paperspace lets only the owner power it,
// so instead of sending a call that would be refused, the person either acts under the owner's
// standing grant ("for the next N hours", with the owner's key) or is offered "Ask the owner".
import type { Machine } from '../../paperspace/schemas.js';
import type { Interaction } from '../../slack/interaction.js';
import { mention } from '../machines/blocks/machine-replies.js';
import type { PowerVerb } from '../machines/machine-operations.js';
import { type PowerRequest, requestPower } from '../machines/power-request.js';
import { linkedPeopleOf, ownerIdOf } from './approvers.js';
import { powerOfferMessage } from './blocks/request-messages.js';

export type OwnerRoute = 'own' | 'handled';

/**
 * 'own' when the person owns the machine (or its owner is unknown): the caller powers it as usual.
 * 'handled' when it is someone else's: run under a standing grant, or the offer to ask was shown.
 */
export async function routePowerToOwner(
  interaction: Interaction,
  machine: Machine,
  verb: PowerVerb,
  request: Omit<PowerRequest, 'actor' | 'machine' | 'verb'>,
): Promise<OwnerRoute> {
  const { deps, user } = interaction;
  const ownerPaperspaceId = ownerIdOf(machine);
  const account = await deps.vault.account(user);
  if (!ownerPaperspaceId || !account || ownerPaperspaceId === account.userId) return 'own';
  const owners = await linkedPeopleOf(deps.store, user.teamId, ownerPaperspaceId);
  const grantedBy = await deps.store.approvals.grantedBy(user.teamId, user.userId, machine.id, deps.now());
  // A grant counts only while its giver still holds the owner's account (they may have relinked).
  const grantor = owners.find((person) => person.userId === grantedBy);
  const ownerClient = grantor ? await deps.clients.forUser(grantor) : undefined;
  if (!grantor || !ownerClient) {
    await interaction.replyPrivately(
      powerOfferMessage(
        machine,
        verb,
        owners.map((person) => person.userId),
      ),
    );
    return 'handled';
  }
  // The person is named as who asked (card, audit of the call); the owner's key makes the call, and
  // this record ties the two together.
  await deps.audit.run(
    {
      user,
      action: `approval.grant.${verb}`,
      resourceId: machine.id,
      note: `with the key of ${mention(grantor.userId)} under their standing grant`,
    },
    () => requestPower({ ...request, actor: { user, client: ownerClient }, machine, verb }),
  );
  return 'handled';
}

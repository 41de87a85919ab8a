// Whose a machine is, in words the viewer knows, as the owner rule (domain/machine-owner.ts) finds
// them: the Slack mention of a recorded owner, or of the person who linked the Paperspace user
// Paperspace names; else that user's name (or e-mail) as Paperspace lists the team's users; "no owner
// yet" for a machine nobody owns. All of it comes from what is read anyway: the vault's links (the
// bot's own database) and the team's users the role lookup lists, never a Paperspace call of its own.
// A Paperspace user found in neither gets no name: a card says nothing rather than an id a person
// cannot place.
import type { MachineOwner } from '../../domain/machine-owner.js';
import type { User } from '../../paperspace/schemas.js';
import { escapeMrkdwn, mention } from '../../slack/block-kit/text.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';

/** The words a card uses for a machine nobody owns yet. */
const NO_OWNER_YET = 'no owner yet';

/** An owner as mrkdwn (a mention, an escaped name or "no owner yet"), when it can be named. */
export type OwnerNameOf = (owner: MachineOwner) => string | undefined;

/**
 * The Slack people who linked the Paperspace users Paperspace names as `owners`' owners, by
 * Paperspace user. Only their links are read: reading every linked person's entry would cost each
 * teammate's /ps list a scan of the whole vault, a cost that grows with the workspace rather than
 * with what the list shows.
 */
export async function linkedOwners(
  store: Pick<Store, 'vaultEntries'>,
  viewer: SlackUser,
  owners: readonly MachineOwner[],
): Promise<ReadonlyMap<string, string>> {
  const named = new Set<string>();
  for (const owner of owners) if (owner.kind === 'paperspace') named.add(owner.paperspaceUserId);
  const linked = new Map<string, string>();
  // Oldest link first wins: the person who linked that account first is the one named.
  for (const link of await store.vaultEntries.linkedIn(viewer.teamId, [...named])) {
    if (!linked.has(link.paperspaceUserId)) linked.set(link.paperspaceUserId, link.slackUserId);
  }
  return linked;
}

/** Names owners from their links (linkedOwners) and the team's users as Paperspace lists them. */
export function ownerNames(linked: ReadonlyMap<string, string>, users: readonly User[]): OwnerNameOf {
  const listed = new Map(users.map((user) => [user.id, user]));
  return (owner) => {
    switch (owner.kind) {
      case 'none':
        return NO_OWNER_YET;
      case 'recorded':
        return mention(owner.userId);
      case 'paperspace': {
        const slackUserId = linked.get(owner.paperspaceUserId);
        if (slackUserId !== undefined) return mention(slackUserId);
        const user = listed.get(owner.paperspaceUserId);
        if (user === undefined) return undefined;
        const name = `${user.firstname} ${user.lastname}`.trim();
        return escapeMrkdwn(name || user.email);
      }
    }
  };
}

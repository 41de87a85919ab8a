// Whose a teammate's machine is, in words the viewer knows: the Slack mention of the person who linked
// the owner's Paperspace account to this bot in this workspace, else the owner's name (or e-mail) as
// Paperspace lists the team's users. Both come from what is read anyway: the vault's linked accounts
// (the bot's own database) and the team's users the role lookup lists, never a Paperspace call of its
// own. A machine that names no owner (API v1) or an owner found in neither gets no name: a card says
// nothing rather than an id a person cannot place.
import { ownerIdOf } from '../../domain/machine-people.js';
import type { Machine, User } from '../../paperspace/schemas.js';
import { escapeMrkdwn, mention } from '../../slack/block-kit/text.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';

/** The owner of a machine as mrkdwn (a mention or an escaped name), when it can be named. */
export type OwnerNameOf = (machine: Machine) => string | undefined;

/**
 * Names the owners of `machines` (the ones drawn). Only their links are read: reading every linked
 * person's entry would cost each teammate's /ps list a scan of the whole vault, a cost that grows with
 * the workspace rather than with what the list shows.
 */
export async function ownerNames(
  store: Pick<Store, 'vaultEntries'>,
  viewer: SlackUser,
  users: readonly User[],
  machines: readonly Machine[],
): Promise<OwnerNameOf> {
  const owners = new Set<string>();
  for (const machine of machines) {
    const owner = ownerIdOf(machine);
    if (owner !== undefined) owners.add(owner);
  }
  const linked = new Map<string, string>();
  // Oldest link first wins: the person who linked that account first is the one named.
  for (const link of await store.vaultEntries.linkedIn(viewer.teamId, [...owners])) {
    if (!linked.has(link.paperspaceUserId)) linked.set(link.paperspaceUserId, link.slackUserId);
  }
  const listed = new Map(users.map((user) => [user.id, user]));
  return (machine) => {
    const owner = ownerIdOf(machine);
    if (owner === undefined) return undefined;
    const slackUserId = linked.get(owner);
    if (slackUserId !== undefined) return mention(slackUserId);
    const user = listed.get(owner);
    if (user === undefined) return undefined;
    const name = `${user.firstname} ${user.lastname}`.trim();
    return escapeMrkdwn(name || user.email);
  };
}

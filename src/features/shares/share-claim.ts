// Get access on a share's post: the member who clicks is made an accessor of the shared machines with
// the sharer's key, the grant is recorded on the share (so its end removes it with the others), and
// the post lists who has access. A member who can already use a machine is left as they are, so the
// share's end never takes away access given some other way. A claim that lands as the share ends is
// taken back at once: a removal that already ran could not have seen it.
// Only members of the sharer's Paperspace team can be given access to a team's machines (v1 makes
// accessors of its own members alone): anyone else, an individual account or another team's member, is
// told so before anything is asked of Paperspace. A person's individual account (the legacy API) may
// give access to anyone, as Paperspace lets it.
import { slackErrorCode } from '../../errors/describe-error.js';
import { messageForUser } from '../../errors/user-message.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import { PaperspaceBadRequestError } from '../../paperspace/errors.js';
import type { AccessorGrant, Delegation } from '../../store/delegations.js';
import type { SlackUser } from '../../store/slack-user.js';
import { readAccountKind } from '../machines/account-kind.js';
import { existingAccess, grantAccess, type Recipient } from './accessor-grants.js';
import { accessorSharePost, whatAccessGives } from './blocks/accessor-share.js';
import { mention, namesOf, when } from './blocks/share.js';
import { sharePostBasis } from './share-post-basis.js';
import type { SharedMachine, SharingDeps } from './share-types.js';

export interface Claim {
  claimer: SlackUser;
  /** The claimer's Paperspace user, from their linked key. */
  paperspaceUserId: string;
  /** The Paperspace team (or individual account) their linked key belongs to, when it says. */
  paperspaceTeamId: string | null;
  share: Delegation;
  machines: SharedMachine[];
}

/** What the claim did, as a sentence for the claimer alone. */
export async function claimAccess(deps: SharingDeps, claim: Claim): Promise<string> {
  const { claimer, share, machines } = claim;
  const names = namesOf(machines);
  const now = deps.now();
  const sharer = mention(share.userId);
  if (share.grants === null) {
    return `This share was made as a Paperspace resource delegation, which gives no access from here: ask ${sharer}.`;
  }
  if (share.expiresAt <= now || share.revokedAt !== null || share.expiredNotifiedAt !== null) {
    return `This share of ${names} is over, so nothing was given: ask ${sharer} to share again.`;
  }
  if (claimer.teamId === share.teamId && claimer.userId === share.userId) {
    return `You shared ${names}: they are yours to use already.`;
  }
  const held = new Set(
    share.grants
      .filter((grant) => grant.slackUserId === claimer.userId && !grant.revoked)
      .map((grant) => grant.machineId),
  );
  const wanted = share.machineIds.filter((id) => !held.has(id));
  if (wanted.length === 0) return `You already have access to ${names} until ${when(share.expiresAt)}.`;

  const sharerLinked = await deps.clients.linkedClient(share);
  if (sharerLinked === undefined) {
    return `${sharer}, who shared these machines, no longer has a linked Paperspace key, so I cannot give access with it. Nothing changed.`;
  }
  const outsider = notInTeam(names, sharer);
  const sharerClient = sharerLinked.client;
  if (
    !inOneTeam(claim.paperspaceTeamId, sharerLinked.account.teamId) &&
    (await sharesWithinTeamOnly(sharerClient))
  ) {
    return outsider;
  }
  const recipient: Recipient = { slackUserId: claimer.userId, paperspaceUserId: claim.paperspaceUserId };
  const hasAccess = existingAccess(deps.clients, sharerClient, share.teamId);
  const { grants, error } = await grantAccess(deps, sharerClient, claimer, wanted, [recipient], hasAccess);
  if (error !== undefined) {
    const undone = await takeBack(deps, sharerClient, claimer, grants);
    // A key that does not say its team gets here: Paperspace's refusal says what the check above would.
    if (isNotAMember(error)) return `${outsider}${undone}`;
    return `Paperspace refused to give you access to ${names}: ${messageForUser(error, deps.logger)}${undone}`;
  }
  if (grants.length === 0) {
    return `You can already use ${names} without this share, so nothing changed: your access stays as it was.`;
  }
  if (!(await deps.store.delegations.addGrants(share.id, grants, deps.now()))) {
    const undone = await takeBack(deps, sharerClient, claimer, grants);
    return `The share of ${names} ended as you clicked, so you were given no access.${undone}`;
  }
  await redrawPost(deps, share.id, machines, sharerClient.capabilities.accessorRights);
  const rights = sharerClient.capabilities.accessorRights;
  return `✅ You have access to ${names}. ${whatAccessGives(rights, share.userId, share.expiresAt, 'you')}`;
}

/** Both keys belong to one Paperspace team; a key that does not say its team is not told apart. */
function inOneTeam(claimers: string | null, sharers: string | null): boolean {
  return claimers === null || sharers === null || claimers === sharers;
}

function notInTeam(names: string, sharer: string): string {
  return (
    `${names} belongs to a team you are not in on Paperspace (the key you linked is of another account), ` +
    `so I cannot give you access: nothing was changed. Ask ${sharer} or a team administrator to invite you to the team first.`
  );
}

/** Whether the sharer's machines are a team's (always on v1), not an individual account's. */
async function sharesWithinTeamOnly(sharerClient: PaperspaceClient): Promise<boolean> {
  if (sharerClient.capabilities.whoAmI) return true;
  return (await readAccountKind(sharerClient)).account.kind === 'team';
}

/** Paperspace's refusal to make someone outside the team an accessor. */
function isNotAMember(error: unknown): boolean {
  return error instanceof PaperspaceBadRequestError && /not a member of/i.test(error.serverMessage ?? '');
}

/** Removes grants a claim made but cannot keep; says what could not be removed. */
async function takeBack(
  deps: SharingDeps,
  client: PaperspaceClient,
  claimer: SlackUser,
  grants: AccessorGrant[],
): Promise<string> {
  const left: string[] = [];
  for (const grant of grants) {
    try {
      await deps.audit.run(
        { user: claimer, action: 'share.revoke', resourceId: grant.machineId, note: 'claim not kept' },
        () =>
          client.machines.setAccess(grant.machineId, { userId: grant.paperspaceUserId, enableAccess: false }),
      );
    } catch (error) {
      deps.logger.warn({ machineId: grant.machineId, err: error }, 'could not take back a claimed access');
      left.push(grant.machineId);
    }
  }
  return left.length === 0
    ? ''
    : ` ⚠️ Access given to you on ${left.join(', ')} could not be removed again: ask the owner to remove it.`;
}

/** The post lists who has access: brought up to date after a claim, logged if Slack refuses. */
async function redrawPost(
  deps: SharingDeps,
  shareId: string,
  machines: SharedMachine[],
  rights: 'power' | 'use',
): Promise<void> {
  const share = await deps.store.delegations.get(shareId);
  if (share?.messageTs == null || share.grants === null) return;
  const post = accessorSharePost({ ...sharePostBasis(share, machines), grants: share.grants, rights });
  await deps.slack.chat.update({ channel: share.channel, ts: share.messageTs, ...post }).catch((error) => {
    deps.logger.warn({ shareId, code: slackErrorCode(error) }, 'could not list a claim on a share post');
  });
}

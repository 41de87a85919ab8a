// Making a machine someone's, where Paperspace does not say whose it is (v1): a create records its
// owner, a member claims a team machine nobody owns yet ("This is mine", /ps claim), and an
// administrator of the team assigns or reassigns one (/ps assign, the card's menu). Each is audited;
// the people it concerns are told. The rule that reads these records is domain/machine-owner.ts.
import type { WebClient } from '@slack/web-api';
import { isOwnedBy, type MachineOwner, machineOwner } from '../../domain/machine-owner.js';
import { requireAdministrator } from '../../domain/team-role.js';
import { describeError } from '../../errors/describe-error.js';
import { UserFacingError } from '../../errors/user-facing-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { Machine } from '../../paperspace/schemas.js';
import { plainMessage } from '../../slack/block-kit/messages.js';
import { mention, nameMrkdwn } from '../../slack/block-kit/text.js';
import { SLASH_COMMAND as ps } from '../../slack/ids.js';
import { postIn } from '../../slack/posting.js';
import type { RecordedBasis } from '../../store/machine-owners.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { FeatureDeps } from '../feature-deps.js';

type OwnershipDeps = FeatureDeps<'machineOwners' | 'approvals', 'vault' | 'audit' | 'now'>;

/** The person a new machine is recorded for, with their Paperspace user when it was found already. */
export type CreatedOwner = SlackUser & { paperspaceUserId?: string };

/**
 * Records whose a machine the bot just created is: `owner` (the creator, the teammate an administrator
 * created it for, or the requester an approver created it for). Never fails the create it follows:
 * the machine exists, and a lost record only means it shows "no owner yet" until someone claims it
 * (logged).
 */
export async function recordCreatedOwner(
  deps: FeatureDeps<'machineOwners', 'vault' | 'now'>,
  machineId: string,
  owner: CreatedOwner,
  { basis, setBy }: { basis: Extract<RecordedBasis, 'created' | 'requested'>; setBy: string },
): Promise<void> {
  try {
    const paperspaceUserId = owner.paperspaceUserId ?? (await deps.vault.account(owner))?.userId;
    await deps.store.machineOwners.record(owner.teamId, {
      machineId,
      userId: owner.userId,
      paperspaceUserId: paperspaceUserId ?? null,
      basis,
      setBy,
      setAt: deps.now(),
    });
  } catch (error) {
    deps.logger.warn({ machineId, error: describeError(error) }, 'could not record whose a new machine is');
  }
}

/**
 * The clicker or typer claims a machine of their team that has no owner yet. `machine` was read with
 * their own key, so it is one their team's key can see. Answers the sentence to tell them.
 */
export async function claimMachine(
  deps: OwnershipDeps,
  claimer: { user: SlackUser; client: PaperspaceClient },
  machine: Machine,
): Promise<string> {
  const { user } = claimer;
  const account = await deps.vault.account(user);
  if (account === undefined) {
    throw new UserFacingError(`Your Paperspace key is no longer linked: link it again with ${ps} login.`);
  }
  const name = nameMrkdwn(machine.name);
  const owner = await machineOwner(deps.store, user.teamId, machine);
  if (isOwnedBy(owner, { userId: user.userId, paperspaceUserId: account.userId })) {
    return `${name} is already yours.`;
  }
  if (owner.kind === 'paperspace') {
    throw new UserFacingError(
      `Paperspace itself names the owner of ${machine.name}, so it cannot be claimed: ask the owner, or a team ` +
        'administrator, if it should be someone else’s.',
    );
  }
  if (owner.kind === 'recorded') return alreadyOwned(name, owner.userId);
  try {
    await deps.audit.run({ user, action: 'machine.claim', resourceId: machine.id }, async () => {
      const claimed = await deps.store.machineOwners.claim(user.teamId, {
        machineId: machine.id,
        userId: user.userId,
        paperspaceUserId: account.userId,
        basis: 'claimed',
        setBy: user.userId,
        setAt: deps.now(),
      });
      if (!claimed.claimed) throw new ClaimLost(claimed.owner.userId);
    });
  } catch (error) {
    if (!(error instanceof ClaimLost)) throw error;
    if (error.ownerId === user.userId) return `${name} is already yours.`;
    return alreadyOwned(name, error.ownerId);
  }
  return (
    `${name} is yours now: its forgotten-machine alerts come to you, and its cost counts in your spend. ` +
    `A team administrator can assign it to someone else with \`${ps} assign\`.`
  );
}

/**
 * Someone else's claim landed first (two clicks at once): thrown inside the audited claim so the audit
 * trail records the loser's as refused, not as a second owner.
 */
class ClaimLost extends Error {
  override name = 'ClaimLost';
  constructor(readonly ownerId: string) {
    super(`the machine was claimed by ${ownerId} first`);
  }
}

function alreadyOwned(name: string, ownerId: string): string {
  return (
    `${name} is already ${mention(ownerId)}’s. If it should be yours, ask them or a team administrator ` +
    `to assign it to you (\`${ps} assign\`).`
  );
}

/**
 * An administrator of the machine's team makes `assignee` its owner, replacing whoever had it. The
 * assignee and the previous owner are told by direct message; answers the sentence for the administrator.
 */
export async function assignMachine(
  deps: OwnershipDeps,
  admin: { user: SlackUser; client: PaperspaceClient; web: WebClient },
  machine: Machine,
  assignee: SlackUser,
): Promise<string> {
  const { user } = admin;
  const adminAccount = await requireAdministrator(deps, user, admin.client, 'assign machines to teammates');
  const name = nameMrkdwn(machine.name);
  const previous = await machineOwner(deps.store, user.teamId, machine);
  if (previous.kind === 'paperspace') {
    throw new UserFacingError(
      `Paperspace itself names the owner of ${machine.name} on this API, and the bot cannot change it: ` +
        'Paperspace moves a machine to another person only when it is created for them.',
    );
  }
  const assigneeAccount = await deps.vault.account(assignee);
  if (assigneeAccount !== undefined && assigneeAccount.teamId !== adminAccount.teamId) {
    // A refusal is shown escaped, so it cannot carry a mention: it says whom the person chose instead.
    throw new UserFacingError(
      `The person you chose linked a key of another Paperspace team, so ${machine.name} cannot be theirs: ` +
        'a machine can only belong to a member of its own team.',
    );
  }
  if (previous.kind === 'recorded' && previous.userId === assignee.userId) {
    return `${name} is already ${mention(assignee.userId)}’s.`;
  }
  await deps.audit.run(
    { user, action: 'machine.assign', resourceId: machine.id, note: `assigned to ${assignee.userId}` },
    () =>
      deps.store.machineOwners.record(user.teamId, {
        machineId: machine.id,
        userId: assignee.userId,
        paperspaceUserId: assigneeAccount?.userId ?? null,
        basis: 'assigned',
        setBy: user.userId,
        setAt: deps.now(),
      }),
  );
  const told = [assignee.userId, ...(previous.kind === 'recorded' ? [previous.userId] : [])].filter(
    (userId) => userId !== user.userId,
  );
  const unreached = await tellOwners(
    deps,
    admin.web,
    told,
    assigneeNotice(user.userId, name, assignee, previous),
  );
  const linkNote =
    assigneeAccount === undefined
      ? ` They have not linked a Paperspace key yet: they need one (\`${ps} login\`) to start or stop it here.`
      : '';
  const unreachedNote =
    unreached.length === 0
      ? ''
      : ` I could not tell ${unreached.map(mention).join(' and ')} by direct message.`;
  return `${name} is ${mention(assignee.userId)}’s now.${linkNote}${unreachedNote}`;
}

function assigneeNotice(adminId: string, name: string, assignee: SlackUser, previous: MachineOwner) {
  return (recipient: string): string => {
    if (recipient === assignee.userId) {
      return (
        `${mention(adminId)} assigned ${name} to you: its forgotten-machine alerts come to you now, and its ` +
        'cost counts in your spend.'
      );
    }
    const was = previous.kind === 'recorded' && previous.userId === recipient ? 'which was yours, ' : '';
    return `${mention(adminId)} assigned ${name}, ${was}to ${mention(assignee.userId)}.`;
  };
}

/** Direct messages to each person; answers those Slack would not reach (logged, never thrown). */
async function tellOwners(
  deps: OwnershipDeps,
  web: WebClient,
  userIds: readonly string[],
  text: (recipient: string) => string,
): Promise<string[]> {
  const unreached: string[] = [];
  for (const userId of new Set(userIds)) {
    try {
      await postIn(web, { channel: userId }, plainMessage(text(userId)), deps.pacer);
    } catch (error) {
      deps.logger.warn({ error: describeError(error) }, 'could not tell a person about a machine assigned');
      unreached.push(userId);
    }
  }
  return unreached;
}

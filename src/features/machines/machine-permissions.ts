// Which of a machine's buttons the person looking at it can use, decided by the one owner rule
// (domain/machine-owner.ts) and the viewer's role in the machine's team. Every card drawn for one
// viewer (lists, App Home, /ps show, an unfurl) asks this one rule, so no card offers a button whose
// every click would end in a 403, and no two surfaces name different owners.
// - Power (Start, Stop, Restart): the owner. Paperspace lets nobody else power a machine, not even an
//   administrator (v1 adds its accessors, whom it does not list with the machine). A machine nobody
//   owns yet lets Paperspace judge the click of a v1 administrator (only administrators create on v1,
//   so they made most such machines) or of someone whose role could not be read; a refusal offers to
//   ask. A member asks the administrators, or claims it first. Anyone else gets "Ask the owner".
// - Manage (Settings, Access, Destroy): the owner, or an administrator of THAT machine's team. An
//   individual account is its own administrator, and a team machine shared with it is not its team's:
//   that is why the machine's team is compared, not only the role.
// - Claim ("This is mine"): a machine nobody owns yet, for anyone of its team whose key sees it.
// - Assign: an administrator of the machine's team, on v1 (the legacy API names its owners itself).
// The card names the owner of a machine that is not the viewer's, or says it has no owner yet.
import { isOwnedBy, type MachineOwner, machineOwners, type OwnerOf } from '../../domain/machine-owner.js';
import type { RoleNotes, TeamRole } from '../../domain/team-role.js';
import { describeError } from '../../errors/describe-error.js';
import type { Logger } from '../../logger.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { Machine, User } from '../../paperspace/schemas.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import type { KeyVault, LinkedAccount } from '../../vault/key-vault.js';
import { keptTeamRoleOf, keptTeamUsers } from './kept-team-roles.js';
import { linkedOwners, type OwnerNameOf, ownerNames } from './owner-names.js';

export interface MachineButtons {
  /** Start, Stop, Restart; otherwise the card offers "Ask the owner". */
  power: boolean;
  /** The overflow's Settings, Access and Destroy. */
  manage: boolean;
  /** "This is mine": a team machine with no owner yet, drawn for a member of its team. */
  claim?: boolean;
  /** The overflow's "Assign to…": drawn for an administrator of the machine's team (v1). */
  assign?: boolean;
  /**
   * Whose the machine is (a Slack mention, the owner's name or "no owner yet", mrkdwn), when it is not
   * the viewer's and the bot can name them: the card says it, and "Ask the owner" asks them by name.
   */
  owner?: string;
  /** Nobody owns it yet: "Ask the owner" goes to the team's administrators, who answer for it. */
  unowned?: boolean;
  /** The viewer owns it by the owner rule: the App Home counts it among theirs. */
  mine?: boolean;
}

export type ButtonsFor = (machine: Machine) => MachineButtons;

/**
 * The buttons for the machines drawn. `ownerOf`: their owners, when the caller read them already (the
 * owner= filter): the page then costs one read of the recorded owners, not two.
 */
export type ViewerButtons = (machines: readonly Machine[], ownerOf?: OwnerOf) => Promise<ButtonsFor>;

/** Who looks, as the rule weighs them. */
interface Judge {
  viewer: { userId: string; paperspaceUserId: string; teamId: string | null };
  /** v1: Paperspace names no owner, and its key lists its own team's machines alone. */
  v1: boolean;
  /** 'unknown' too when the role could not be read at all. */
  role: TeamRole['role'];
  /** The viewer's team's users, as the legacy API lists them: whose machines are of their team. */
  teamUserIds: ReadonlySet<string>;
  ownerOf: OwnerOf;
  nameOf: OwnerNameOf;
}

/** The team a machine belongs to, when Paperspace says it (the legacy API sends `teamId`; v1 none). */
function machineTeamIdOf(machine: Machine): string | undefined {
  const team: unknown = (machine as { teamId?: unknown }).teamId;
  return typeof team === 'string' && team !== '' ? team : undefined;
}

/** Whether the machine is of the viewer's own Paperspace team (or individual account). */
function ofViewersTeam(judge: Judge, machine: Machine, owner: MachineOwner): boolean {
  // A v1 key lists the machines of its own team and no other.
  if (judge.v1) return true;
  const machineTeam = machineTeamIdOf(machine);
  if (machineTeam !== undefined && judge.viewer.teamId !== null) return machineTeam === judge.viewer.teamId;
  return owner.kind === 'paperspace' && judge.teamUserIds.has(owner.paperspaceUserId);
}

/** The rule itself, for one machine: a pure function of what was read. */
function judged(judge: Judge, machine: Machine): MachineButtons {
  const owner = judge.ownerOf(machine);
  const mine = isOwnedBy(owner, judge.viewer);
  const ofTeam = ofViewersTeam(judge, machine, owner);
  const administers = judge.role === 'admin' && ofTeam;
  const power =
    mine ||
    (owner.kind === 'none' && ofTeam && (judge.role === 'unknown' || (judge.v1 && judge.role === 'admin')));
  const named = mine ? undefined : judge.nameOf(owner);
  return {
    power,
    manage: mine || administers,
    ...(owner.kind === 'none' && ofTeam ? { claim: true, unowned: true } : {}),
    ...(administers && judge.v1 && owner.kind !== 'paperspace' ? { assign: true } : {}),
    ...(named === undefined ? {} : { owner: named }),
    ...(mine ? { mine: true } : {}),
  };
}

/**
 * The rule for one viewer, started before their machines are read (a list, App Home, /ps show) so
 * that their role is read beside that Paperspace call, never after it, and kept a few minutes per team
 * (kept-team-roles.ts): each then costs the calls for its machines alone. The recorded owners of the
 * machines drawn are one read of the bot's own store; the role is awaited only when a machine drawn is
 * someone else's, since a person's own machines need none.
 */
export function viewerButtons(
  deps: RoleNotes & {
    store: Pick<Store, 'vaultEntries' | 'machineOwners'>;
    logger: Pick<Logger, 'info'>;
    vault: Pick<KeyVault, 'account'>;
    now: () => number;
  },
  viewer: {
    user: SlackUser;
    client: PaperspaceClient;
    /** The viewer's linked account when it was read with their key (Interaction.linkedClient): not read again. */
    account?: LinkedAccount;
  },
): ViewerButtons {
  const v1 = viewer.client.capabilities.whoAmI;
  const ahead = (async () => {
    const account = viewer.account ?? (await deps.vault.account(viewer.user));
    if (account === undefined) return undefined;
    const person = { ...viewer, paperspaceUserId: account.userId };
    const role = keptTeamRoleOf(deps, person, account);
    // The legacy list the role was read from, no second call; v1 names its owners without it.
    const users = v1 ? Promise.resolve([]) : keptTeamUsers(deps, person, account);
    // Awaited (and their failure logged) only if a machine turns out to be someone else's.
    role.catch(() => undefined);
    users.catch(() => undefined);
    return { account, role, users };
  })();
  // A list that fails first never asks for the role: its failure is the one to tell.
  ahead.catch(() => undefined);
  return async (machines, known) => {
    const [read, ownerOf] = await Promise.all([
      ahead,
      known ?? machineOwners(deps.store, viewer.user.teamId, machines),
    ]);
    const owners = machines.map(ownerOf);
    if (read === undefined) return unknownViewer(deps, viewer.user, ownerOf, owners);
    const person = {
      userId: viewer.user.userId,
      paperspaceUserId: read.account.userId,
      teamId: read.account.teamId,
    };
    const onlyOwn = owners.every((owner) => isOwnedBy(owner, person));
    if (onlyOwn) return () => ({ power: true, manage: true, mine: true });
    const [role, users] = await Promise.all([
      roleOrUnknown(deps, read.role),
      read.users.catch(() => [] as readonly User[]),
    ]);
    const nameOf = await namesOfOwners(deps, viewer.user, users, owners);
    const judge: Judge = {
      viewer: person,
      v1,
      role,
      teamUserIds: new Set(users.map((user) => user.id)),
      ownerOf,
      nameOf,
    };
    return (machine) => judged(judge, machine);
  };
}

/**
 * A key with no known account (unlinked while the list was read): every button, as Paperspace then
 * judges each click and says why; the owners are still named.
 */
async function unknownViewer(
  deps: { store: Pick<Store, 'vaultEntries'>; logger: Pick<Logger, 'info'> },
  viewer: SlackUser,
  ownerOf: OwnerOf,
  owners: readonly MachineOwner[],
): Promise<ButtonsFor> {
  const nameOf = await namesOfOwners(deps, viewer, [], owners);
  return (machine) => {
    const named = nameOf(ownerOf(machine));
    return { power: true, manage: true, ...(named === undefined ? {} : { owner: named }) };
  };
}

/** The viewer's role as Paperspace confirms it; 'unknown' when it could not be read (logged). */
async function roleOrUnknown(
  deps: { logger: Pick<Logger, 'info'> },
  role: Promise<TeamRole>,
): Promise<TeamRole['role']> {
  try {
    return (await role).role;
  } catch (error) {
    deps.logger.info(
      { error: describeError(error) },
      'could not tell whether the viewer administers their team',
    );
    return 'unknown';
  }
}

/** How the owners are named; without the vault's links when they cannot be read (logged). */
async function namesOfOwners(
  deps: { store: Pick<Store, 'vaultEntries'>; logger: Pick<Logger, 'info'> },
  viewer: SlackUser,
  users: readonly User[],
  owners: readonly MachineOwner[],
): Promise<OwnerNameOf> {
  try {
    return ownerNames(await linkedOwners(deps.store, viewer, owners), users);
  } catch (error) {
    deps.logger.info({ error: describeError(error) }, 'could not name the owners of teammates’ machines');
    return ownerNames(new Map(), users);
  }
}

// Which of a machine's buttons the person looking at it can use, as Paperspace decides them: only a
// machine's owner may start, stop or restart it; its owner or an administrator of its team may change
// its settings, its access or destroy it. Every card drawn for one viewer (lists, App Home, /ps show)
// asks this one rule, so no card offers a button whose every click would end in a 403.
// A key with no known account, a machine that does not say who owns it (API v1 machines carry no
// owner), or a role that could not be read (Paperspace failed to answer), count as allowed: Paperspace
// then decides, and the click says why.
// The same read names a teammate's machine's owner on the card (owner-names.ts): a card for someone
// else's machine says whose it is, and whom "Ask the owner" asks.
import { ownerIdOf } from '../../domain/machine-people.js';
import { type RoleNotes, type TeamRole, teamRoleOf } from '../../domain/team-role.js';
import { describeError } from '../../errors/describe-error.js';
import type { Logger } from '../../logger.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { Machine, User } from '../../paperspace/schemas.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import type { KeyVault, LinkedAccount } from '../../vault/key-vault.js';
import { keptTeamRoleOf, keptTeamUsers } from './kept-team-roles.js';
import { type OwnerNameOf, ownerNames } from './owner-names.js';

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
   * Whose the machine is (a Slack mention or the owner's name, mrkdwn), when it is someone else's and
   * the bot can name them: the card says it, and "Ask the owner" asks them by name.
   */
  owner?: string;
}

export type ButtonsFor = (machine: Machine) => MachineButtons;

/**
 * `paperspaceUserId`: the viewer's linked key's user; `administers`: their team role, if known;
 * `ownerName`: how to name the owners of others' machines.
 */
function buttonsFor(viewer: {
  paperspaceUserId?: string;
  administers?: boolean;
  ownerName?: OwnerNameOf;
}): ButtonsFor {
  return (machine) => {
    const owner = ownerIdOf(machine);
    const power =
      viewer.paperspaceUserId === undefined || owner === undefined || owner === viewer.paperspaceUserId;
    const named = power ? undefined : viewer.ownerName?.(machine);
    return { power, manage: power || viewer.administers !== false, ...(named ? { owner: named } : {}) };
  };
}

/**
 * The rule for one viewer, started before their machines are read (a list, App Home, /ps show) so
 * that on the legacy API the role is read beside that Paperspace call, never after it, and kept a few
 * minutes per team (kept-team-roles.ts): each then costs the calls for its machines alone. The role
 * is awaited only when a machine drawn is someone else's; a person's own machines need none.
 */
export function viewerButtons(
  deps: RoleNotes & {
    store: Pick<Store, 'vaultEntries'>;
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
): (machines: readonly Machine[]) => Promise<ButtonsFor> {
  const ahead = (async () => {
    const account = viewer.account ?? (await deps.vault.account(viewer.user));
    if (account === undefined) return { paperspaceUserId: undefined };
    const person = { ...viewer, paperspaceUserId: account.userId };
    // v1 machines name no owner, so a v1 list never asks; its role would come from the key's session.
    if (viewer.client.capabilities.whoAmI) return { paperspaceUserId: account.userId };
    const role = keptTeamRoleOf(deps, person, account);
    // The list the role was read from: no second call.
    const users = keptTeamUsers(deps, person, account);
    // Awaited (and their failure logged) only if a machine turns out to be someone else's.
    role.catch(() => undefined);
    users.catch(() => undefined);
    return { paperspaceUserId: account.userId, role, users };
  })();
  // A list that fails first never asks for the role: its failure is the one to tell.
  ahead.catch(() => undefined);
  return async (machines) => {
    const { paperspaceUserId, role, users } = await ahead;
    return decide(deps, viewer.user, paperspaceUserId, machines, {
      roleOf: (id) => role ?? teamRoleOf(deps, { ...viewer, paperspaceUserId: id }),
      users: users ?? Promise.resolve([]),
    });
  };
}

async function decide(
  deps: { store: Pick<Store, 'vaultEntries'>; logger: Pick<Logger, 'info'> },
  viewer: SlackUser,
  paperspaceUserId: string | undefined,
  machines: readonly Machine[],
  team: { roleOf: (paperspaceUserId: string) => Promise<TeamRole>; users: Promise<readonly User[]> },
): Promise<ButtonsFor> {
  if (paperspaceUserId === undefined) return buttonsFor({});
  const ownOnly = buttonsFor({ paperspaceUserId });
  const othersOwn = machines.some((machine) => !ownOnly(machine).power);
  if (!othersOwn) return ownOnly;
  const [administers, ownerName] = await Promise.all([
    administersTeam(deps, paperspaceUserId, team.roleOf),
    namesOfOwners(deps, viewer, team.users, machines),
  ]);
  return buttonsFor({
    paperspaceUserId,
    ...(administers === undefined ? {} : { administers }),
    ...(ownerName === undefined ? {} : { ownerName }),
  });
}

/** The viewer's role as Paperspace confirms it; undefined when it could not be read (logged). */
async function administersTeam(
  deps: { logger: Pick<Logger, 'info'> },
  paperspaceUserId: string,
  roleOf: (paperspaceUserId: string) => Promise<TeamRole>,
): Promise<boolean | undefined> {
  try {
    // Only a role Paperspace confirms shows the manage buttons on someone else's machine: without an
    // access token the legacy API cannot confirm it, and every such click would end in a 403.
    const { role } = await roleOf(paperspaceUserId);
    return role === 'admin';
  } catch (error) {
    deps.logger.info(
      { error: describeError(error) },
      'could not tell whether the viewer administers their team',
    );
    return undefined;
  }
}

/** How the owners are named; undefined when neither the vault nor the team could be read (logged). */
async function namesOfOwners(
  deps: { store: Pick<Store, 'vaultEntries'>; logger: Pick<Logger, 'info'> },
  viewer: SlackUser,
  users: Promise<readonly User[]>,
  machines: readonly Machine[],
): Promise<OwnerNameOf | undefined> {
  try {
    // A team that could not be listed still leaves the linked people to name.
    return await ownerNames(deps.store, viewer, await users.catch(() => []), machines);
  } catch (error) {
    deps.logger.info({ error: describeError(error) }, 'could not name the owners of teammates’ machines');
    return undefined;
  }
}

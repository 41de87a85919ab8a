// Which of a machine's buttons the person looking at it can use, as Paperspace decides them: only a
// machine's owner may start, stop or restart it; its owner or an administrator of its team may change
// its settings, its access or destroy it. Every card drawn for one viewer (lists, App Home, /ps show)
// asks this one rule, so no card offers a button whose every click would end in a 403.
// A key with no known account, a machine that does not say who owns it (API v1 machines carry no
// owner), or a role that could not be read (Paperspace failed to answer), count as allowed: Paperspace
// then decides, and the click says why.
import { ownerIdOf } from '../../domain/machine-people.js';
import { type RoleNotes, type TeamRole, teamRoleOf } from '../../domain/team-role.js';
import { describeError } from '../../errors/describe-error.js';
import type { Logger } from '../../logger.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { KeyVault } from '../../vault/key-vault.js';
import { keptTeamRoleOf } from './kept-team-roles.js';

export interface MachineButtons {
  /** Start, Stop, Restart; otherwise the card offers "Ask the owner". */
  power: boolean;
  /** The overflow's Settings, Access and Destroy. */
  manage: boolean;
}

export type ButtonsFor = (machine: Machine) => MachineButtons;

/** `paperspaceUserId`: the viewer's linked key's user; `administers`: their team role, if known. */
function buttonsFor(viewer: { paperspaceUserId?: string; administers?: boolean }): ButtonsFor {
  return (machine) => {
    const owner = ownerIdOf(machine);
    const power =
      viewer.paperspaceUserId === undefined || owner === undefined || owner === viewer.paperspaceUserId;
    return { power, manage: power || viewer.administers !== false };
  };
}

/**
 * The rule for one viewer, started before their machines are read (a list, App Home, /ps show) so
 * that on the legacy API the role is read beside that Paperspace call, never after it, and kept a few
 * minutes per team (kept-team-roles.ts): each then costs the calls for its machines alone. The role
 * is awaited only when a machine drawn is someone else's; a person's own machines need none.
 */
export function viewerButtons(
  deps: RoleNotes & { logger: Pick<Logger, 'info'>; vault: Pick<KeyVault, 'account'>; now: () => number },
  viewer: { user: SlackUser; client: PaperspaceClient },
): (machines: readonly Machine[]) => Promise<ButtonsFor> {
  const ahead = (async () => {
    const account = await deps.vault.account(viewer.user);
    if (account === undefined) return { paperspaceUserId: undefined };
    const person = { ...viewer, paperspaceUserId: account.userId };
    // v1 machines name no owner, so a v1 list never asks; its role would come from the key's session.
    if (viewer.client.capabilities.whoAmI) return { paperspaceUserId: account.userId };
    const role = keptTeamRoleOf(deps, person, account);
    // Awaited (and its failure logged) only if a machine turns out to be someone else's.
    role.catch(() => undefined);
    return { paperspaceUserId: account.userId, role };
  })();
  // A list that fails first never asks for the role: its failure is the one to tell.
  ahead.catch(() => undefined);
  return async (machines) => {
    const { paperspaceUserId, role } = await ahead;
    return decide(
      deps,
      paperspaceUserId,
      machines,
      (id) => role ?? teamRoleOf(deps, { ...viewer, paperspaceUserId: id }),
    );
  };
}

async function decide(
  deps: { logger: Pick<Logger, 'info'> },
  paperspaceUserId: string | undefined,
  machines: readonly Machine[],
  roleOf: (paperspaceUserId: string) => Promise<TeamRole>,
): Promise<ButtonsFor> {
  if (paperspaceUserId === undefined) return buttonsFor({});
  const othersOwn = machines.some((machine) => !buttonsFor({ paperspaceUserId })(machine).power);
  if (!othersOwn) return buttonsFor({ paperspaceUserId });
  try {
    // Only a role Paperspace confirms shows the manage buttons on someone else's machine: without an
    // access token the legacy API cannot confirm it, and every such click would end in a 403.
    const { role } = await roleOf(paperspaceUserId);
    return buttonsFor({ paperspaceUserId, administers: role === 'admin' });
  } catch (error) {
    deps.logger.info(
      { error: describeError(error) },
      'could not tell whether the viewer administers their team',
    );
    return buttonsFor({ paperspaceUserId });
  }
}

// Which of a machine's buttons the person looking at it can use, as Paperspace decides them: only a
// machine's owner may start, stop or restart it; its owner or an administrator of its team may change
// its settings, its access or destroy it. Every card drawn for one viewer (lists, App Home, /ps show)
// asks this one rule, so no card offers a button whose every click would end in a 403.
// A key with no known account, a machine that does not say who owns it (API v1 machines carry no
// owner), or a role that could not be read (Paperspace failed to answer), count as allowed: Paperspace
// then decides, and the click says why.
import { ownerIdOf } from '../../domain/machine-people.js';
import { type RoleNotes, teamRoleOf } from '../../domain/team-role.js';
import { describeError } from '../../errors/describe-error.js';
import type { Logger } from '../../logger.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { SlackUser } from '../../store/slack-user.js';

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
 * The rule for one viewer and the machines about to be drawn. Their team role is asked of Paperspace
 * (domain/team-role.ts: v1 says it, the legacy API shows it by a create or an administrator's read) only when
 * a machine is someone else's: a person's own machines need no call.
 */
export async function viewerButtons(
  deps: RoleNotes & { logger: Pick<Logger, 'info'> },
  viewer: { user: SlackUser; client: PaperspaceClient; paperspaceUserId: string | undefined },
  machines: readonly Machine[],
): Promise<ButtonsFor> {
  const { paperspaceUserId } = viewer;
  if (paperspaceUserId === undefined) return buttonsFor({});
  const othersOwn = machines.some((machine) => !buttonsFor({ paperspaceUserId })(machine).power);
  if (!othersOwn) return buttonsFor({ paperspaceUserId });
  try {
    // Only a role Paperspace confirms shows the manage buttons on someone else's machine: without an
    // access token the legacy API cannot confirm it, and every such click would end in a 403.
    const { role } = await teamRoleOf(deps, { ...viewer, paperspaceUserId });
    return buttonsFor({ paperspaceUserId, administers: role === 'admin' });
  } catch (error) {
    deps.logger.info(
      { error: describeError(error) },
      'could not tell whether the viewer administers their team',
    );
    return buttonsFor({ paperspaceUserId });
  }
}

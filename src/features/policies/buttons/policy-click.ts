// What every policy button shares: the click with the rule and stop it names, the clicker's key and
// role in the team, and the warning redrawn with a line of what was done in place of its buttons.
import type { WebClient } from '@slack/web-api';
import { teamRoleOf } from '../../../domain/team-role.js';
import type { PaperspaceClient } from '../../../paperspace/client.js';
import {
  type ButtonArgs,
  type ButtonClick,
  buttonHandler,
  redrawClickedMessage,
} from '../../../slack/button-click.js';
import type { PolicyTeam } from '../../../store/team-policies.js';
import { decodePolicyRef, type PolicyRef } from '../blocks/policy-ref.js';
import { withWarningDone } from '../blocks/policy-warning.js';
import type { PoliciesDeps } from '../policies-deps.js';

export interface PolicyClick extends ButtonClick {
  ref: PolicyRef;
  client: PaperspaceClient;
  team: PolicyTeam;
  /** Whether Paperspace shows the clicker administers the team. */
  administrator: boolean;
}

export function policyButtonHandler(
  deps: PoliciesDeps,
  handle: (click: PolicyClick, slack: WebClient) => Promise<void>,
): (args: ButtonArgs) => Promise<void> {
  return buttonHandler(deps, async (click, args) => {
    const ref = decodePolicyRef(click.value);
    const linked = await click.linkedClient();
    if (linked === undefined) return;
    const { client, account } = linked;
    if (!account.teamId) {
      await click.replyPrivately({
        blocks: [],
        text: 'Your Paperspace account is not a team account: team policies do not apply to it.',
      });
      return;
    }
    const role = await teamRoleOf(deps, { user: click.user, client, paperspaceUserId: account.userId });
    await handle(
      {
        ...click,
        ref,
        client,
        team: { teamId: click.user.teamId, paperspaceTeamId: account.teamId },
        administrator: role.role === 'admin',
      },
      args.client,
    );
  });
}

/** Replaces the clicked message's buttons with `line`. */
export function markPolicyMessage(slack: WebClient, click: PolicyClick, line: string): Promise<void> {
  return redrawClickedMessage(slack, click, {
    done: line,
    what: 'a policy message',
    redraw: (message) => ({ blocks: withWarningDone(message.blocks, line) }),
  });
}

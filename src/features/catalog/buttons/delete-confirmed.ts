// Delete on the confirmation of `/ps script delete` and `/ps drive delete`. Slack has already shown
// its confirm dialog; the deletion runs with the clicker's key (and token), is audited, and replaces
// the confirmation with what happened.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import type { PaperspaceClient } from '../../../paperspace/client.js';
import { errorMessage } from '../../../slack/block-kit/messages.js';
import { ActionId } from '../../../slack/ids.js';
import { actionInteraction } from '../../../slack/interaction.js';
import type { ListenerRouter } from '../../../slack/router.js';
import type { AuditTrail } from '../../../store/audit-trail.js';
import type { SlackUser } from '../../../store/slack-user.js';
import { deletedNotice } from '../blocks/catalog.js';
import type { CatalogDeps } from '../catalog-deps.js';
import { deleteDrive } from '../drive-changes.js';
import { deleteScript } from '../script-changes.js';

type Deletion = (audit: AuditTrail, client: PaperspaceClient, user: SlackUser, id: string) => Promise<void>;

const DELETIONS: { actionId: string; what: 'startup script' | 'shared drive'; remove: Deletion }[] = [
  { actionId: ActionId.scriptDelete, what: 'startup script', remove: deleteScript },
  { actionId: ActionId.driveDelete, what: 'shared drive', remove: deleteDrive },
];

/** Ids are short tokens; anything else in a button value was not put there by the bot. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,255}$/;

export function registerDeleteConfirmed(router: ListenerRouter, deps: CatalogDeps): void {
  for (const { actionId, what, remove } of DELETIONS) {
    router.action<BlockAction<ButtonAction>>(actionId, async (args) => {
      const { ack, action, respond } = args;
      await ack();
      const clicker = actionInteraction(deps, args);
      const id = action.value ?? '';
      if (!ID_PATTERN.test(id)) {
        await clicker.replyPrivately(
          errorMessage(
            'This Delete button is damaged, so nothing was deleted. Run the delete command again.',
          ),
        );
        return;
      }
      try {
        const client = await clicker.userClient();
        if (client === undefined) return;
        await remove(deps.audit, client, clicker.user, id);
        await respond({ replace_original: true, ...deletedNotice(what, id) });
      } catch (error) {
        await clicker.replyFailure(error);
      }
    });
  }
}

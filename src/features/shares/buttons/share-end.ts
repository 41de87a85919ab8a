// End share, shown only to the sharer (their note after sharing, `/ps shares`; posts made before that
// carry it too): only the sharer may end it. Anyone else clicking an older post's button, and a click
// on a share that is already over, gets a private sentence saying why nothing changed.
import { UserFacingError } from '../../../errors/user-facing-error.js';
import { section } from '../../../slack/block-kit/elements.js';
import { escapeMrkdwn, message } from '../../../slack/block-kit/text.js';
import { buttonHandler } from '../../../slack/button-click.js';
import { sharingDeps } from '../share-types.js';
import { sharedMachines } from '../shared-machines.js';
import type { SharesDeps } from '../shares-deps.js';
import { endShare } from '../sharing.js';

export function shareEndHandler(deps: SharesDeps) {
  return buttonHandler(deps, async (click, { client }) => {
    const share = await deps.store.delegations.get(click.value);
    if (share === undefined)
      throw new UserFacingError('This share is not known to me any more; nothing changed.');
    const machines = await sharedMachines(deps.clients, share, click.logger);
    const sharing = sharingDeps(deps, client, click.logger);
    const paperspace = await deps.clients.forUser(share);
    const outcome = await endShare(sharing, paperspace, click.user, share, machines);
    const text =
      typeof outcome === 'object'
        ? `Share ended. ${outcome.removed}`
        : {
            ended:
              'Share ended. Paperspace cannot revoke the delegation, so access already handed out lasts until it expires.',
            'not-yours': `Only <@${escapeMrkdwn(share.userId)}>, who shared these machines, can end this share.`,
            'already-over': 'This share is already over; nothing changed.',
          }[outcome];
    await click.replyPrivately(message([section(text)], text));
  });
}

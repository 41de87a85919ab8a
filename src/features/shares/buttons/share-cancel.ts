// Cancel on the private confirmation of a share: nothing was created, and the confirmation says so.
import { buttonHandler } from '../../../slack/button-click.js';
import type { ListenerDeps } from '../../../slack/listener-deps.js';

export function shareCancelHandler(deps: ListenerDeps) {
  return buttonHandler(deps, async (_click, { respond }) => {
    await respond({ replace_original: true, text: 'Share cancelled: nothing was shared or posted.' });
  });
}

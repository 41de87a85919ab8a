// Cancel on the private confirmation of a share: nothing was created, and the confirmation says so.
import { buttonHandler } from '../../../slack/button-click.js';
import type { SharesDeps } from '../shares-deps.js';

export function shareCancelHandler(deps: SharesDeps) {
  return buttonHandler(deps, async (_click, { respond }) => {
    await respond({ replace_original: true, text: 'Share cancelled: nothing was shared or posted.' });
  });
}

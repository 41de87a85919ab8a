// Previous / Next under /ps spend: the same month's report, read again with the clicker's key (a
// button only the asker sees, but anyone's click is read with their own key and role), on the page
// asked for, replacing the reply in place.
import { buttonHandler } from '../../../slack/button-click.js';
import { decodeSpendPage } from '../blocks/spend-page-value.js';
import type { SpendDeps } from '../spend-deps.js';
import { spendReply } from '../spend-reply.js';

export function spendPageHandler(deps: SpendDeps) {
  return buttonHandler(deps, async (click, { respond }) => {
    const { month, page } = decodeSpendPage(click.value);
    const reply = await spendReply(click, deps, month, page);
    if (reply !== undefined) await respond({ replace_original: true, ...reply });
  });
}

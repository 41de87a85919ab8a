// Prev/Next under a list: the button value says which list, with which filters, and which page. It
// comes back from Slack, so it is decoded with a schema and its filters are checked again by the
// client's request schemas; a tampered value gets a sentence, not a crash. The page is fetched with
// the clicker's key and replaces the list in place.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { errorMessage } from '../../../slack/block-kit/messages.js';
import { decodePageValue, type PageValue } from '../../../slack/block-kit/paging.js';
import { ActionId } from '../../../slack/ids.js';
import { actionInteraction } from '../../../slack/interaction.js';
import type { ListenerRouter } from '../../../slack/router.js';
import type { CatalogDeps } from '../catalog-deps.js';
import { pageFor } from '../list-message.js';

const DAMAGED_VALUE =
  'This page button is damaged or out of date, so the page was not loaded. Run the list command again.';

export function registerListPage(router: ListenerRouter, deps: CatalogDeps): void {
  router.action<BlockAction<ButtonAction>>(ActionId.listPage, async (args) => {
    const { ack, action, respond } = args;
    await ack();
    const clicker = actionInteraction(deps, args);
    let value: PageValue;
    try {
      value = decodePageValue(action.value ?? '');
    } catch {
      // The reason would quote the value, which is whatever someone sent: say only that it happened.
      clicker.deps.logger.warn('refused a damaged page button value');
      await clicker.replyPrivately(errorMessage(DAMAGED_VALUE));
      return;
    }
    try {
      const page = await pageFor(clicker, value, deps);
      if (page !== undefined) await respond({ replace_original: true, ...page });
    } catch (error) {
      await clicker.replyFailure(error);
    }
  });
}

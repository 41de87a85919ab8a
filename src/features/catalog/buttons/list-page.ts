// Prev/Next under a list: the button value says which list, with which filters, and which page. It
// comes back from Slack, so it is decoded with a schema and its filters are checked again by the
// client's request schemas; a tampered value gets a sentence, not a crash. The page is fetched with
// the clicker's key and replaces the list in place.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { messageForUser } from '../../../errors/user-message.js';
import { loginPrompt } from '../../../slack/block-kit/messages.js';
import { decodePageValue, type PageValue } from '../../../slack/block-kit/paging.js';
import { clickerOf, replaceClicked, replyBeside, replyError } from '../../../slack/clicker.js';
import { ActionId } from '../../../slack/ids.js';
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { listMessage } from '../list-message.js';

const DAMAGED_VALUE =
  'This page button is damaged or out of date, so the page was not loaded. Run the list command again.';

export function registerListPage(router: ListenerRouter, deps: ListenerDeps): void {
  router.action<BlockAction<ButtonAction>>(ActionId.listPage, async ({ ack, body, action, respond }) => {
    await ack();
    const user = clickerOf(body);
    const logger = deps.logger.child({ action: ActionId.listPage, user: user.userId });
    let value: PageValue;
    try {
      value = decodePageValue(action.value ?? '');
    } catch {
      // The reason would quote the value, which is whatever someone sent: say only that it happened.
      logger.warn('refused a damaged page button value');
      await replyError(respond, DAMAGED_VALUE);
      return;
    }
    try {
      const client = await deps.clients.forUser(user);
      if (client === undefined) {
        await replyBeside(respond, loginPrompt());
        return;
      }
      await replaceClicked(respond, await listMessage(client, value.kind, value.filters, value.page));
    } catch (error) {
      await replyError(respond, messageForUser(error, logger));
    }
  });
}

// Private answers to a click on App Home. The Home is no conversation: Slack sends no response_url and
// no channel, and a note in the app's DM lands silently in the Messages tab, where the person is not
// looking. So the answer opens a modal over the Home with the click's trigger (valid once, for 3 s);
// a second answer to the same click is added to that modal. Only when Slack will not open it (the
// trigger was used by a form the click opened, or it expired) does the answer go to the DM.
import type { WebClient } from '@slack/web-api';
import { slackErrorCode } from '../errors/describe-error.js';
import { section } from './block-kit/elements.js';
import { modal } from './block-kit/modal-kit.js';
import { LIMITS, type SlackMessage } from './block-kit/text.js';

/** Slack's answers that prove no modal was opened or changed with this trigger or view. */
const NOT_SHOWN = new Set(['expired_trigger_id', 'invalid_trigger_id', 'trigger_exchanged', 'not_found']);

/** The modal's title: what every answer on the Home comes from. */
const TITLE = 'Paperspace';

/**
 * Answers one click on the Home in a modal; `fallback` (the DM) takes an answer Slack would not show.
 * Returns the function that shows each answer.
 */
export function homeReplies(
  web: WebClient,
  triggerId: string,
  fallback: (message: SlackMessage) => Promise<void>,
): (message: SlackMessage) => Promise<void> {
  let shown: { viewId: string; blocks: SlackMessage['blocks'] } | undefined;
  return async (message) => {
    // A one-line answer (what a click did) has words and no blocks; a modal needs a block to show them.
    const answer = message.blocks.length > 0 ? message.blocks : [section(message.text)];
    try {
      if (shown === undefined) {
        const blocks = answer.slice(0, LIMITS.viewBlocks);
        const opened = await web.views.open({
          trigger_id: triggerId,
          view: modal({ title: TITLE, close: 'Close', blocks }),
        });
        if (opened.view?.id !== undefined) shown = { viewId: opened.view.id, blocks };
        return;
      }
      const blocks = [...shown.blocks, { type: 'divider' as const }, ...answer];
      if (blocks.length > LIMITS.viewBlocks) return await fallback(message);
      await web.views.update({
        view_id: shown.viewId,
        view: modal({ title: TITLE, close: 'Close', blocks }),
      });
      shown.blocks = blocks;
    } catch (error) {
      if (!NOT_SHOWN.has(slackErrorCode(error) ?? '')) throw error;
      await fallback(message);
    }
  };
}

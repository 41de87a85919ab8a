// views.open, and what the person is told when Slack refuses it. A trigger_id lasts 3 seconds and
// opens one view; a click that reached us late, a double click, or a rate limit makes Slack refuse,
// and without a word the person would see nothing happen and click again into the same wall. So every
// modal opens through here, and a refusal is answered privately with what to do.
import type { ModalView } from '@slack/types';
import { ErrorCode, type WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { describeError, slackErrorCode } from '../errors/describe-error.js';
import { failureText } from '../errors/user-message.js';
import { errorMessage } from './block-kit/messages.js';
import type { SlackMessage } from './block-kit/text.js';

/** Where a modal opens from: a command or a click, within 3 s of it, and a way to answer its person. */
export interface ModalTrigger {
  web: WebClient;
  triggerId: string;
  deps: { logger: Logger };
  replyPrivately(message: SlackMessage): Promise<void>;
}

/** Slack's refusals of a trigger that came too late or was used already. */
const SPENT_TRIGGER = new Set(['expired_trigger_id', 'invalid_trigger_id', 'exchanged_trigger_id']);

/** The opened view's id and hash; undefined when Slack refused (the person has been told). */
export async function openModal(
  trigger: ModalTrigger,
  view: ModalView,
): Promise<{ id: string; hash: string | undefined } | undefined> {
  let opened: Awaited<ReturnType<WebClient['views']['open']>>;
  try {
    opened = await trigger.web.views.open({ trigger_id: trigger.triggerId, view });
  } catch (error) {
    trigger.deps.logger.warn({ error: describeError(error) }, 'Slack refused to open a modal');
    await trigger.replyPrivately(errorMessage(refusalText(error, trigger.deps.logger)));
    return undefined;
  }
  const id = opened.view?.id;
  if (id === undefined) throw new Error('views.open answered without a view id');
  return { id, hash: opened.view?.hash };
}

function refusalText(error: unknown, logger: Logger): string {
  const code = slackErrorCode(error);
  if (code !== undefined && SPENT_TRIGGER.has(code)) {
    return (
      'The form could not open: Slack gives a click or command 3 seconds to open one, and this one ' +
      'arrived late or was used already. Click the button or run the command again.'
    );
  }
  if (describeError(error).code === ErrorCode.RateLimitedError || code === 'ratelimited') {
    return 'Slack is holding back my requests right now, so the form could not open. Try again in a few seconds.';
  }
  return failureText(error, logger);
}

// What every account modal submission needs: who submitted, field errors in Slack's shape, and a way
// to show an outcome that arrives after the ack.
import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import type { SlackUser } from '../store/slack-user.js';
import type { SlackMessage } from './block-kit/text.js';
import { errorsByBlock, type ViewStateValues } from './block-kit/view-state.js';

/**
 * Field errors keyed by block id, as `response_action: 'errors'` takes them, from problems keyed by
 * parameter. Slack shows errors only under input blocks the submission has, so a problem without one
 * goes under `fallbackBlockId` rather than being lost.
 */
export function fieldErrors(
  problems: Readonly<Record<string, string | undefined>>,
  blockIds: Readonly<Record<string, string>>,
  values: ViewStateValues,
  fallbackBlockId: string,
): Record<string, string> {
  const defined = Object.fromEntries(
    Object.entries(problems).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const { errors, unplaced } = errorsByBlock(defined, blockIds, values);
  const rest = Object.values(unplaced);
  if (rest.length > 0) {
    errors[fallbackBlockId] = [errors[fallbackBlockId], ...rest].filter(Boolean).join(' ');
  }
  return errors;
}

/**
 * Replaces the modal (already acked with response_action 'update') with the outcome. If the person
 * closed it meanwhile, Slack refuses the update, and the outcome goes to their DM instead.
 */
export async function showOutcome(input: {
  client: WebClient;
  viewId: string;
  view: ModalView;
  user: SlackUser;
  /** The same outcome as a message, for the DM. */
  message: SlackMessage;
  logger: Logger;
}): Promise<void> {
  try {
    await input.client.views.update({ view_id: input.viewId, view: input.view });
    return;
  } catch (error) {
    input.logger.info({ err: error }, 'modal gone before its outcome; sending it as a DM');
  }
  try {
    await input.client.chat.postMessage({ channel: input.user.userId, ...input.message });
  } catch (error) {
    input.logger.warn({ err: error }, 'could not tell the person the outcome of their form');
  }
}

/** Settles within `ms`, or answers undefined when the work is still running (it keeps running). */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

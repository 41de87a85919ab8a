// What a modal submission needs after its ack: a way to show an outcome that arrives later, and a
// bound on how long to wait for work before the ack.
import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import type { SlackUser } from '../store/slack-user.js';
import type { SlackMessage } from './block-kit/text.js';
import type { ChannelPacer } from './channel-pacer.js';
import { postIn } from './posting.js';

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
  /** The bot's pacer: the DM takes its turn with the other posts there. */
  pacer: ChannelPacer;
}): Promise<void> {
  try {
    await input.client.views.update({ view_id: input.viewId, view: input.view });
    return;
  } catch (error) {
    input.logger.info({ err: error }, 'modal gone before its outcome; sending it as a DM');
  }
  try {
    await postIn(input.client, { channel: input.user.userId }, input.message, input.pacer);
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

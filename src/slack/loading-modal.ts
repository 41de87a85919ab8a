// A form whose options come from Paperspace (the person's machines, networks) cannot wait for them
// before opening: the trigger_id expires 3 s after the click or command. So a "Loading…" modal opens
// at once and is replaced by the form, or by what went wrong, when the data arrives.
import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { messageForUser } from '../errors/user-message.js';
import { statusModal } from './block-kit/status-modal.js';
import { escapeMrkdwn } from './block-kit/text.js';

export interface LoadingModalInput {
  client: WebClient;
  triggerId: string;
  callbackId: string;
  title: string;
  /** Builds the real form; its failure is shown in the modal. */
  load: () => Promise<ModalView>;
  logger: Logger;
}

export async function openLoadingModal(input: LoadingModalInput): Promise<void> {
  const opened = await input.client.views.open({
    trigger_id: input.triggerId,
    view: statusModal({
      callbackId: input.callbackId,
      title: input.title,
      text: '⏳ Loading…',
      close: 'Cancel',
    }),
  });
  let view: ModalView;
  try {
    view = await input.load();
  } catch (error) {
    view = statusModal({
      callbackId: input.callbackId,
      title: input.title,
      text: `❌ ${escapeMrkdwn(messageForUser(error, input.logger))}`,
      close: 'Close',
    });
  }
  const viewId = opened.view?.id;
  if (viewId === undefined) throw new Error('views.open answered without a view id');
  // The hash makes Slack refuse the update if the modal changed meanwhile, instead of overwriting it.
  await input.client.views.update({
    view_id: viewId,
    ...(opened.view?.hash ? { hash: opened.view.hash } : {}),
    view,
  });
}

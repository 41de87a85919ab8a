// Opening a modal whose content needs Paperspace first. A trigger_id expires 3 seconds after the click
// or command, and listing templates, networks and scripts (or finding a machine by name) can take
// longer on a slow day, with retries. So the modal opens at once as "Loading…" (views.open, no API
// call before it) and is replaced with the form when the data is there (views.update), or with the
// reason there is no form. The person sees a response immediately and never a silent expiry.
import type { ModalView } from '@slack/types';
import { describeError, slackErrorCode } from '../errors/describe-error.js';
import { failureText } from '../errors/user-message.js';
import { loadingModal, noticeModal } from './block-kit/status-modal.js';
import { type ModalTrigger, openModal } from './open-modal.js';

export interface LoadingModalRequest {
  /** Title of the loading view and of the failure notice (24 characters at most). */
  title: string;
  /** What is being fetched, e.g. "Loading templates, networks and scripts…". */
  loading: string;
  /** Fetches what the form needs and builds it. */
  build: () => Promise<ModalView>;
}

export async function openLoadingModal(trigger: ModalTrigger, request: LoadingModalRequest): Promise<void> {
  const { web } = trigger;
  const { logger } = trigger.deps;
  const opened = await openModal(trigger, loadingModal(request.title, request.loading));
  // Slack refused the trigger and the person has been told what to do: nothing to fill.
  if (opened === undefined) return;

  let view: ModalView;
  try {
    view = await request.build();
  } catch (error) {
    view = noticeModal(request.title, `❌ ${failureText(error, logger)}`);
  }
  try {
    // The hash makes Slack refuse the update if the view changed meanwhile (nothing else writes it).
    await web.views.update({
      view_id: opened.id,
      ...(opened.hash ? { hash: opened.hash } : {}),
      view,
    });
  } catch (error) {
    // The person closed the loading modal before it was filled: nothing is waiting for it.
    if (slackErrorCode(error) === 'not_found') return;
    logger.warn({ error: describeError(error) }, 'could not replace the loading modal');
    throw error;
  }
}

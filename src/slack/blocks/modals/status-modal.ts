// Placeholder and outcome views for modals that need the API before they can show their form. A
// trigger_id is only valid for 3 seconds, so the handler opens one of these at once and replaces it
// (views.update) with the form, or with the reason there is no form. They have no submit button and
// no callback_id: nothing comes back from them.
import type { KnownBlock, ModalView } from '@slack/types';
import { contextLine } from '../elements.js';
import { escapeMrkdwn, LIMITS, plainText } from '../text.js';
import { note } from './modal-kit.js';

function statusModal(title: string, close: string, blocks: KnownBlock[]): ModalView {
  return {
    type: 'modal',
    title: plainText(title, LIMITS.viewTitle),
    close: plainText(close, LIMITS.viewTitle),
    blocks,
  };
}

/** "Loading…" while the form's data is fetched; `what` (plain text) says what is being fetched. */
export function loadingModal(title: string, what: string): ModalView {
  return statusModal(title, 'Cancel', [note(`⏳ ${escapeMrkdwn(what)}`)]);
}

/** A modal that only says something, e.g. why the form could not be loaded; plain text in, escaped here. */
export function noticeModal(title: string, text: string, hint?: string): ModalView {
  const blocks = [note(escapeMrkdwn(text))];
  if (hint) blocks.push(contextLine(escapeMrkdwn(hint)));
  return statusModal(title, 'Close', blocks);
}

// Modals that only report: "Loading…" while a form's data is fetched (a trigger_id is valid for 3 s,
// so the handler opens one at once and views.update replaces it), "Creating…" after a submission was
// accepted, then the outcome. They have no inputs and no submit button, so nothing typed can be lost
// when a later views.update replaces them, and nothing comes back from them.
import type { ModalView } from '@slack/types';
import { contextLine } from './elements.js';
import { modal, note } from './modal-kit.js';
import { escapeMrkdwn } from './text.js';

export interface StatusModalInput {
  /** The callback_id of the form this modal stands in for, when it replaces one. */
  callbackId?: string;
  title: string;
  /** mrkdwn, already escaped. */
  text: string;
  /** "Cancel" while something is pending, "Done" once it is over. */
  close?: string;
  /** Further lines below the text, each its own section (already escaped). */
  details?: string[];
}

export function statusModal({ callbackId, title, text, close, details = [] }: StatusModalInput): ModalView {
  return modal({
    ...(callbackId === undefined ? {} : { callbackId }),
    title,
    close: close ?? 'Done',
    blocks: [note(text), ...details.map((detail) => note(detail))],
  });
}

/** "Loading…" while the form's data is fetched; `what` (plain text) says what is being fetched. */
export function loadingModal(title: string, what: string): ModalView {
  return statusModal({ title, text: `⏳ ${escapeMrkdwn(what)}`, close: 'Cancel' });
}

/** A modal that only says something, e.g. why the form could not be loaded; plain text in, escaped here. */
export function noticeModal(title: string, text: string, hint?: string): ModalView {
  const view = statusModal({ title, text: escapeMrkdwn(text), close: 'Close' });
  if (hint) view.blocks.push(contextLine(escapeMrkdwn(hint)));
  return view;
}

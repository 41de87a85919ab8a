// A modal that only reports: "Loading…" while a form's options are fetched, "Creating…" after a
// submission was accepted, then the outcome. It has no inputs and no submit button, so nothing typed
// can be lost when a later views.update replaces it.
import type { ModalView } from '@slack/types';
import { modal, note } from './modal-kit.js';

export interface StatusModalInput {
  callbackId: string;
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
    callbackId,
    title,
    close: close ?? 'Done',
    blocks: [note(text), ...details.map((detail) => note(detail))],
  });
}

// Constructors every modal uses: the view itself and its input blocks, sized to Block Kit limits.
// Each input is addressed by a Field (block_id + action_id): the builder renders it, the submission
// reader finds its value under view.state.values[blockId][actionId], and field errors go back to
// Slack as `response_action: 'errors'` keyed by the same block_id.
import type {
  InputBlock,
  InputBlockElement,
  KnownBlock,
  ModalView,
  PlainTextOption,
  StaticSelect,
} from '@slack/types';
import { section } from './elements.js';
import { LIMITS, plainText, truncate } from './text.js';

export interface Field {
  blockId: string;
  actionId: string;
}

/** A field whose block_id is `name` and action_id `name_input`: one convention for every modal. */
export function field(name: string): Field {
  return { blockId: name, actionId: `${name}_input` };
}

export function modal(options: {
  /** Absent on modals that only report something: nothing is ever submitted from them. */
  callbackId?: string;
  title: string;
  submit?: string;
  /** The dismiss button; "Cancel" unless the modal only reports something ("Done"). */
  close?: string;
  blocks: KnownBlock[];
  privateMetadata?: string;
}): ModalView {
  if (options.blocks.length > LIMITS.viewBlocks) {
    throw new RangeError(`Modal has ${options.blocks.length} blocks; Slack allows ${LIMITS.viewBlocks}`);
  }
  const view: ModalView = {
    type: 'modal',
    title: plainText(options.title, LIMITS.viewTitle),
    close: plainText(options.close ?? 'Cancel', LIMITS.viewTitle),
    blocks: options.blocks,
  };
  if (options.callbackId) view.callback_id = options.callbackId;
  if (options.submit) view.submit = plainText(options.submit, LIMITS.viewTitle);
  if (options.privateMetadata) view.private_metadata = options.privateMetadata;
  return view;
}

/** An input element before its action_id is set (Omit that keeps the union's members apart). */
export type UnaddressedElement = InputBlockElement extends infer E
  ? E extends unknown
    ? Omit<E, 'action_id'>
    : never
  : never;

export function input(
  target: Field,
  label: string,
  element: UnaddressedElement,
  options: { optional?: boolean; hint?: string } = {},
): InputBlock {
  const block: InputBlock = {
    type: 'input',
    block_id: target.blockId,
    label: plainText(label, LIMITS.inputLabel),
    element: { ...element, action_id: target.actionId } as InputBlockElement,
  };
  if (options.optional) block.optional = true;
  if (options.hint) block.hint = plainText(options.hint, LIMITS.inputLabel);
  return block;
}

export function placeholder(text: string) {
  return plainText(text, LIMITS.placeholder);
}

export function textElement(options: {
  initial?: string | null;
  placeholder?: string;
  multiline?: boolean;
  maxLength?: number;
}) {
  const maxLength = Math.min(options.maxLength ?? LIMITS.plainTextInput, LIMITS.plainTextInput);
  return {
    type: 'plain_text_input' as const,
    ...(options.multiline ? { multiline: true } : {}),
    ...(options.maxLength ? { max_length: maxLength } : {}),
    ...(options.initial ? { initial_value: truncate(options.initial, maxLength) } : {}),
    ...(options.placeholder ? { placeholder: placeholder(options.placeholder) } : {}),
  };
}

export function numberElement(options: {
  initial?: number | null;
  min?: number;
  max?: number;
  decimal?: boolean;
}) {
  return {
    type: 'number_input' as const,
    is_decimal_allowed: options.decimal ?? false,
    ...(options.initial !== undefined && options.initial !== null
      ? { initial_value: String(options.initial) }
      : {}),
    ...(options.min !== undefined ? { min_value: String(options.min) } : {}),
    ...(options.max !== undefined ? { max_value: String(options.max) } : {}),
  };
}

/**
 * A static select of at most 100 options (Slack's limit). `initial` must be the value of one of
 * them; Slack rejects an initial option that is not offered, so an unknown value is ignored.
 */
export function selectElement(
  options: PlainTextOption[],
  initial?: string | null,
  hint = 'Choose…',
): StaticSelect {
  const offered = options.slice(0, LIMITS.selectOptions);
  const element: StaticSelect = { type: 'static_select', options: offered, placeholder: placeholder(hint) };
  const chosen = offered.find((candidate) => candidate.value === initial);
  if (chosen) element.initial_option = chosen;
  return element;
}

/** A checkbox group (`checked` holds the values ticked initially). */
export function checkboxesElement(options: PlainTextOption[], checked: string[] = []) {
  const initial = options.filter(
    (candidate) => candidate.value !== undefined && checked.includes(candidate.value),
  );
  return {
    type: 'checkboxes' as const,
    options,
    ...(initial.length > 0 ? { initial_options: initial } : {}),
  };
}

export function radioElement(options: PlainTextOption[], initial: string) {
  const chosen = options.find((candidate) => candidate.value === initial);
  return { type: 'radio_buttons' as const, options, ...(chosen ? { initial_option: chosen } : {}) };
}

/** A section of explanatory mrkdwn (already escaped). */
export function note(text: string): KnownBlock {
  return section(text);
}

/** "Showing 100 of 150 …": said in the hint when a list is longer than a select may be. */
export function shownOfHint(total: number, noun: string, alternative: string): string | undefined {
  if (total <= LIMITS.selectOptions) return undefined;
  return `Showing the first ${LIMITS.selectOptions} of ${total} ${noun}. ${alternative}`;
}

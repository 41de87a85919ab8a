// Putting a submitted form back in front of the person with everything they typed, after the work
// that followed the ack was refused. Slack shows field errors only in the ack itself, and a form put
// back with views.update starts empty unless each input carries its initial value, so the submitted
// view's own blocks are copied with what was entered as their initial values, and each problem is
// shown in a line right under its field. Secret inputs (a password) are never sent back.
import type { KnownBlock, ModalView, PlainTextElement } from '@slack/types';
import { escapeMrkdwn, mrkdwn } from './text.js';

/** One input's state as Slack sends it in view.state.values (the parts a form can hold). */
interface SubmittedInput {
  type: string;
  value?: string | null;
  selected_option?: unknown;
  selected_options?: unknown[];
  selected_user?: string | null;
  selected_conversation?: string | null;
  selected_channel?: string | null;
  selected_date?: string | null;
  selected_time?: string | null;
}

/** The parts of a submitted view (Bolt's ViewOutput) a form is rebuilt from. */
export interface SubmittedView {
  callback_id: string;
  title: PlainTextElement;
  submit?: PlainTextElement | null;
  close?: PlainTextElement | null;
  private_metadata?: string;
  blocks: unknown[];
  state: { values: Record<string, Record<string, SubmittedInput>> };
}

export interface RefillRequest {
  view: SubmittedView;
  /** Problems keyed by block id (plain text; escaped here), each shown under its field. */
  problems: Readonly<Record<string, string>>;
  /** A problem that belongs to no one field, shown above the form (plain text). */
  notice?: string;
  /** Inputs whose value must not travel back to Slack. */
  secretBlockIds?: readonly string[];
}

const PROBLEM_SUFFIX = '__problem';
const NOTICE_BLOCK_ID = 'form__notice';

/**
 * Slack refuses an initial_option that is not exactly one of the element's options (text, emoji flag
 * and description included), and the option a submission echoes back is not always written the same
 * way. So a chosen option is looked up by its value among the element's own options, and one the
 * element no longer offers is left out rather than sent back to be refused.
 */
function ownOptions(element: Record<string, unknown>, chosen: unknown): unknown {
  const offered = [
    ...(Array.isArray(element.options) ? element.options : []),
    ...(Array.isArray(element.option_groups)
      ? element.option_groups.flatMap((group) =>
          isRecord(group) && Array.isArray(group.options) ? group.options : [],
        )
      : []),
  ].filter(isRecord);
  const own = (option: unknown) =>
    isRecord(option) ? offered.find((candidate) => candidate.value === option.value) : undefined;
  if (Array.isArray(chosen)) return chosen.map(own).filter((option) => option !== undefined);
  return own(chosen);
}

/** Which initial_* key each element type takes, and where its submitted value is. */
const INITIAL_OF: Record<
  string,
  { key: string; read: (input: SubmittedInput, element: Record<string, unknown>) => unknown }
> = {
  plain_text_input: { key: 'initial_value', read: (input) => input.value },
  number_input: { key: 'initial_value', read: (input) => input.value },
  email_text_input: { key: 'initial_value', read: (input) => input.value },
  url_text_input: { key: 'initial_value', read: (input) => input.value },
  static_select: {
    key: 'initial_option',
    read: (input, element) => ownOptions(element, input.selected_option),
  },
  // Its options come from the bot's options endpoint, not the element: Slack takes the chosen one as it came.
  external_select: { key: 'initial_option', read: (input) => input.selected_option },
  radio_buttons: {
    key: 'initial_option',
    read: (input, element) => ownOptions(element, input.selected_option),
  },
  checkboxes: {
    key: 'initial_options',
    read: (input, element) => ownOptions(element, input.selected_options),
  },
  multi_static_select: {
    key: 'initial_options',
    read: (input, element) => ownOptions(element, input.selected_options),
  },
  users_select: { key: 'initial_user', read: (input) => input.selected_user },
  conversations_select: { key: 'initial_conversation', read: (input) => input.selected_conversation },
  channels_select: { key: 'initial_channel', read: (input) => input.selected_channel },
  datepicker: { key: 'initial_date', read: (input) => input.selected_date },
  timepicker: { key: 'initial_time', read: (input) => input.selected_time },
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Empty answers (nothing chosen, nothing typed) leave the input without an initial value. */
const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

export function refilledForm(request: RefillRequest): ModalView {
  const { view, problems } = request;
  const secret = new Set(request.secretBlockIds ?? []);
  const blocks: KnownBlock[] = [];
  // A problem whose field the form does not show is said above it, never lost.
  const shown = new Set(view.blocks.map((block) => (isRecord(block) ? block.block_id : undefined)));
  const unplaced = Object.entries(problems)
    .filter(([blockId]) => !shown.has(blockId))
    .map(([, problem]) => problem);
  const notice = [request.notice, ...unplaced].filter(Boolean).join(' ');
  if (notice) blocks.push(problemLine(NOTICE_BLOCK_ID, notice));
  for (const block of view.blocks) {
    if (!isRecord(block)) continue;
    const blockId = typeof block.block_id === 'string' ? block.block_id : undefined;
    // Lines of an earlier refusal are replaced, never stacked.
    if (blockId === NOTICE_BLOCK_ID || blockId?.endsWith(PROBLEM_SUFFIX)) continue;
    blocks.push(withSubmittedValue(block, view.state.values, secret) as unknown as KnownBlock);
    const problem = blockId === undefined ? undefined : problems[blockId];
    if (blockId !== undefined && problem !== undefined) {
      blocks.push(problemLine(`${blockId}${PROBLEM_SUFFIX}`, problem));
    }
  }
  const form: ModalView = { type: 'modal', callback_id: view.callback_id, title: view.title, blocks };
  if (view.submit) form.submit = view.submit;
  if (view.close) form.close = view.close;
  if (view.private_metadata) form.private_metadata = view.private_metadata;
  return form;
}

function withSubmittedValue(
  block: Record<string, unknown>,
  values: SubmittedView['state']['values'],
  secret: ReadonlySet<string>,
): Record<string, unknown> {
  const { element, block_id: blockId } = block;
  if (block.type !== 'input' || !isRecord(element) || typeof blockId !== 'string') return block;
  const initial = INITIAL_OF[String(element.type)];
  if (initial === undefined) return block;
  const { [initial.key]: _previous, ...rest } = element;
  const submitted = values[blockId]?.[String(element.action_id)];
  const value = submitted === undefined || secret.has(blockId) ? undefined : initial.read(submitted, element);
  return { ...block, element: isEmpty(value) ? rest : { ...rest, [initial.key]: value } };
}

function problemLine(blockId: string, text: string): KnownBlock {
  return { type: 'context', block_id: blockId, elements: [mrkdwn(`⚠️ ${escapeMrkdwn(text)}`)] };
}

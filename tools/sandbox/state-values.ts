// From what a person entered in a view to `view.state.values` exactly as Slack sends it: keyed by
// block_id and action_id, with each element type's own value shape (plain_text_input `value`,
// static_select `selected_option` with the option object, checkboxes `selected_options`, users_select
// `selected_user` ...). Slack's own client checks come first: a required field left empty, text
// beyond max_length, a number out of range or an invalid e-mail never reach the app.
import { isRecord } from './http-util.js';

type Json = Record<string, unknown>;

/** What the page sends per element: typed text or a chosen value, several values for checkboxes. */
type EnteredValue = string | string[] | null;
export type EnteredValues = Record<string, Record<string, EnteredValue>>;

type SlackStateValues = Record<string, Record<string, Json>>;

export interface StateResult {
  values: SlackStateValues;
  /** Slack's own client-side errors, by block_id; the submission is not sent when there are any. */
  errors: Record<string, string>;
}

const REQUIRED_MESSAGE = 'Please fill out this required field.';

const TEXT_TYPES = new Set(['plain_text_input', 'email_text_input', 'url_text_input', 'number_input']);
const OPTION_TYPES = new Set(['static_select', 'radio_buttons', 'overflow']);
const STATEFUL_TYPES = new Set([...TEXT_TYPES, ...OPTION_TYPES, 'checkboxes', 'users_select', 'datepicker']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Every option an element offers, from `options` or from `option_groups`. */
function optionsOf(element: Json): Json[] {
  if (Array.isArray(element.option_groups)) {
    return element.option_groups.flatMap((group) =>
      isRecord(group) && Array.isArray(group.options) ? group.options.filter(isRecord) : [],
    );
  }
  return Array.isArray(element.options) ? element.options.filter(isRecord) : [];
}

/** The option with this value, as the element defines it (Slack sends the whole option object). */
export function findOption(element: Json, value: string): Json | undefined {
  return optionsOf(element).find((option) => option.value === value);
}

/** What an element holds before anyone touches it: its initial_value, initial_option(s) or initial_user. */
function initialEntry(element: Json): EnteredValue {
  if (typeof element.initial_value === 'string') return element.initial_value;
  if (isRecord(element.initial_option) && typeof element.initial_option.value === 'string') {
    return element.initial_option.value;
  }
  if (Array.isArray(element.initial_options)) {
    return element.initial_options.filter(isRecord).map((option) => String(option.value));
  }
  if (typeof element.initial_user === 'string') return element.initial_user;
  if (typeof element.initial_date === 'string') return element.initial_date;
  return null;
}

/** The stateful elements of a view: input blocks' elements and selects or checkboxes elsewhere. */
function statefulElements(blocks: unknown[]): { block: Json; element: Json }[] {
  const found: { block: Json; element: Json }[] = [];
  for (const block of blocks.filter(isRecord)) {
    const candidates = [
      block.element,
      block.accessory,
      ...(Array.isArray(block.elements) ? block.elements : []),
    ];
    for (const element of candidates) {
      if (isRecord(element) && typeof element.type === 'string' && STATEFUL_TYPES.has(element.type)) {
        if (element.type === 'overflow') continue;
        found.push({ block, element });
      }
    }
  }
  return found;
}

/**
 * Builds view.state.values for a submission or for an action inside a view. `isKnownUser` decides
 * which users a users_select may name.
 */
export function buildStateValues(
  blocks: unknown[],
  entered: EnteredValues,
  isKnownUser: (userId: string) => boolean,
): StateResult {
  const values: SlackStateValues = {};
  const errors: Record<string, string> = {};
  for (const { block, element } of statefulElements(blocks)) {
    const blockId = String(block.block_id);
    const actionId = String(element.action_id);
    const isInput = block.type === 'input';
    const given = entered[blockId]?.[actionId];
    const raw = given === undefined ? initialEntry(element) : given;
    const state = elementState(element, raw, isKnownUser);
    values[blockId] = { ...values[blockId], [actionId]: state.value };
    if (!isInput) continue;
    const problem = state.error ?? (block.optional === true ? undefined : requiredProblem(state.value));
    if (problem !== undefined) errors[blockId] = problem;
  }
  return { values, errors };
}

function requiredProblem(value: Json): string | undefined {
  const empty =
    value.value === null ||
    value.selected_option === null ||
    value.selected_user === null ||
    value.selected_date === null ||
    (Array.isArray(value.selected_options) && value.selected_options.length === 0);
  return empty ? REQUIRED_MESSAGE : undefined;
}

function elementState(
  element: Json,
  raw: EnteredValue,
  isKnownUser: (userId: string) => boolean,
): { value: Json; error?: string } {
  const type = String(element.type);
  const single = Array.isArray(raw) ? (raw[0] ?? null) : raw;
  if (TEXT_TYPES.has(type)) {
    const text = single === null || single === '' ? null : single;
    return { value: { type, value: text }, error: text === null ? undefined : textProblem(element, text) };
  }
  if (OPTION_TYPES.has(type)) {
    const option = single === null ? undefined : findOption(element, single);
    const error = single !== null && option === undefined ? 'Choose one of the options.' : undefined;
    return { value: { type, selected_option: option ?? null }, error };
  }
  if (type === 'checkboxes') {
    const chosen = Array.isArray(raw) ? raw : raw === null ? [] : [raw];
    const options = optionsOf(element).filter((option) => chosen.includes(String(option.value)));
    const error = options.length < chosen.length ? 'Choose among the options shown.' : undefined;
    return { value: { type, selected_options: options }, error };
  }
  if (type === 'users_select') {
    const known = single !== null && isKnownUser(single);
    return {
      value: { type, selected_user: known ? single : null },
      error: single !== null && !known ? 'Choose a person of this workspace.' : undefined,
    };
  }
  // datepicker
  const valid = single !== null && /^\d{4}-\d{2}-\d{2}$/.test(single);
  return {
    value: { type, selected_date: valid ? single : null },
    error: single !== null && !valid ? 'Enter a date as YYYY-MM-DD.' : undefined,
  };
}

function textProblem(element: Json, text: string): string | undefined {
  const type = element.type;
  if (type === 'plain_text_input') {
    if (typeof element.max_length === 'number' && text.length > element.max_length) {
      return `Please use ${element.max_length} characters or fewer (you entered ${text.length}).`;
    }
    if (typeof element.min_length === 'number' && text.length < element.min_length) {
      return `Please use at least ${element.min_length} characters.`;
    }
  }
  if (type === 'email_text_input' && !EMAIL.test(text)) return 'Please enter a valid e-mail address.';
  if (type === 'url_text_input' && !/^https?:\/\/\S+$/.test(text)) return 'Please enter a valid URL.';
  if (type === 'number_input') {
    const pattern = element.is_decimal_allowed === true ? /^-?\d+(\.\d+)?$/ : /^-?\d+$/;
    if (!pattern.test(text)) {
      return element.is_decimal_allowed === true ? 'Please enter a number.' : 'Please enter a whole number.';
    }
    const number = Number(text);
    if (element.min_value !== undefined && number < Number(element.min_value)) {
      return `Please enter a number of at least ${element.min_value}.`;
    }
    if (element.max_value !== undefined && number > Number(element.max_value)) {
      return `Please enter a number of at most ${element.max_value}.`;
    }
  }
  return undefined;
}

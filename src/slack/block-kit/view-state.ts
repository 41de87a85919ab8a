// Reading a submitted modal: view.state.values holds, per block_id and action_id, what the person
// entered. The readers return raw values (validation is the service's job) and leave out fields the
// person left empty, so the API's own defaults apply.
import { MalformedPayloadError } from '../../errors/malformed-payload-error.js';
import type { Field } from './modal-kit.js';

/** The part of a view state value the readers use; Bolt's ViewStateValue is assignable to it. */
interface ViewStateInput {
  type: string;
  value?: string | null;
  selected_option?: { value: string } | null;
  selected_options?: { value: string }[];
  selected_user?: string | null;
}

/** `view.state.values` as Slack sends it (and as Bolt types it). */
export type ViewStateValues = Record<string, Record<string, ViewStateInput>>;

function inputOf(values: ViewStateValues, target: Field): ViewStateInput | undefined {
  return values[target.blockId]?.[target.actionId];
}

/** Whether the modal had this field at all (optional blocks such as network are left out when empty). */
export function hasField(values: ViewStateValues, target: Field): boolean {
  return inputOf(values, target) !== undefined;
}

/** Typed text, a selected option's value or a selected user, trimmed; undefined when empty. */
export function readString(values: ViewStateValues, target: Field): string | undefined {
  const state = inputOf(values, target);
  const raw = state?.selected_option?.value ?? state?.selected_user ?? state?.value ?? undefined;
  const trimmed = raw?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/** Text exactly as typed, for passwords, which may begin or end with a space; undefined when blank. */
export function readSecret(values: ViewStateValues, target: Field): string | undefined {
  const raw = inputOf(values, target)?.value;
  return raw === undefined || raw === null || raw.trim() === '' ? undefined : raw;
}

/** A number where the text is one; otherwise the raw text, so the service can say what is wrong. */
export function readNumber(values: ViewStateValues, target: Field): number | string | undefined {
  const raw = readString(values, target);
  if (raw === undefined) return undefined;
  return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
}

/** The values of the ticked checkboxes (empty when none are ticked or the field is absent). */
export function readChecked(values: ViewStateValues, target: Field): string[] {
  const selected: unknown = inputOf(values, target)?.selected_options ?? [];
  // Bolt types the payload but does not check it: a client can send anything in its place.
  if (!Array.isArray(selected) || !selected.every(isOption)) {
    throw new MalformedPayloadError(
      'the ticked boxes of this form',
      `${target.blockId}: selected_options is malformed`,
    );
  }
  return selected.map((option) => option.value);
}

function isOption(option: unknown): option is { value: string } {
  return (
    typeof option === 'object' && option !== null && typeof (option as { value?: unknown }).value === 'string'
  );
}

/** Whether the checkbox with this value is ticked; undefined when the modal had no such field. */
export function readCheckbox(
  values: ViewStateValues,
  target: Field,
  optionValue: string,
): boolean | undefined {
  if (!hasField(values, target)) return undefined;
  return readChecked(values, target).includes(optionValue);
}

/** Copies the defined entries only, so a missing field leaves the parameter out entirely. */
export function definedEntries(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

/**
 * Turns errors keyed by parameter name (what the service's validation reports) into the
 * `response_action: 'errors'` map keyed by block_id. Errors for a parameter without a block in this
 * submission come back in `unplaced`, to be said in a message instead: Slack only shows errors on
 * input blocks that exist.
 */
export function errorsByBlock(
  errors: Record<string, string>,
  blockIds: Record<string, string>,
  values: ViewStateValues,
): { errors: Record<string, string>; unplaced: Record<string, string> } {
  const placed: Record<string, string> = {};
  const unplaced: Record<string, string> = {};
  for (const [parameter, message] of Object.entries(errors)) {
    const blockId = blockIds[parameter];
    if (blockId !== undefined && values[blockId] !== undefined) {
      placed[blockId] = placed[blockId] ? `${placed[blockId]} ${message}` : message;
    } else {
      unplaced[parameter] = message;
    }
  }
  return { errors: placed, unplaced };
}

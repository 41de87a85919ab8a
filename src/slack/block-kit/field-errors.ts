// What `response_action: 'errors'` takes: one error per input block. Slack shows an error only under
// an input block the submitted view has, so a problem whose field is not in this submission goes
// under another block rather than being lost.
import { errorsByBlock, type ViewStateValues } from './view-state.js';

/**
 * Field errors keyed by block id, from problems keyed by parameter. A problem without a block of its
 * own goes under `fallbackBlockId` when the submission has that block, otherwise under its first
 * block: an error on a block Slack does not have would make it refuse the whole answer.
 */
export function fieldErrors(
  problems: Readonly<Record<string, string | undefined>>,
  blockIds: Readonly<Record<string, string>>,
  values: ViewStateValues,
  fallbackBlockId?: string,
): Record<string, string> {
  const defined = Object.fromEntries(
    Object.entries(problems).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const { errors, unplaced } = errorsByBlock(defined, blockIds, values);
  const rest = Object.values(unplaced);
  const fallback =
    fallbackBlockId !== undefined && values[fallbackBlockId] !== undefined
      ? fallbackBlockId
      : Object.keys(values)[0];
  if (rest.length > 0 && fallback !== undefined) {
    errors[fallback] = [errors[fallback], ...rest].filter(Boolean).join(' ');
  }
  return errors;
}

// The `actions` entry of a block_actions payload, built from the element as the app stored it (not
// from what the page says about it), with the choice in the element type's own shape.
import { isRecord } from './http-util.js';
import { findOption } from './state-values.js';

type Json = Record<string, unknown>;

/** The element with this action_id in the block with this block_id (accessory or elements). */
export function findElement(blocks: unknown[], blockId: string, actionId: string): Json | undefined {
  const block = blocks.filter(isRecord).find((candidate) => candidate.block_id === blockId);
  if (block === undefined) return undefined;
  const elements = [block.accessory, ...(Array.isArray(block.elements) ? block.elements : [])];
  return elements.filter(isRecord).find((element) => element.action_id === actionId);
}

/**
 * The action for a use of `element`: a button's text, value and style; the chosen option object for
 * overflows, selects and radio buttons; the ticked options; the chosen person. A choice the element
 * does not offer gives a sentence saying so instead.
 */
export function blockAction(
  element: Json,
  input: { blockId: string; selected?: string | string[] | null | undefined },
  context: { now: () => number; isKnownUser: (userId: string) => boolean },
): Json | string {
  const base = {
    type: element.type,
    action_id: element.action_id,
    block_id: input.blockId,
    action_ts: (context.now() / 1000).toFixed(6),
  };
  const chosen = Array.isArray(input.selected)
    ? input.selected
    : input.selected === null || input.selected === undefined
      ? []
      : [input.selected];
  switch (element.type) {
    case 'button':
      return {
        ...base,
        text: element.text,
        ...(element.value === undefined ? {} : { value: element.value }),
        ...(element.style === undefined ? {} : { style: element.style }),
      };
    case 'overflow':
    case 'static_select':
    case 'radio_buttons': {
      const option = chosen[0] === undefined ? undefined : findOption(element, chosen[0]);
      if (option === undefined) return 'that option is not offered by this element';
      return { ...base, selected_option: option };
    }
    case 'checkboxes': {
      const options = chosen.map((value) => findOption(element, value));
      if (options.some((option) => option === undefined)) return 'those options are not all offered';
      return { ...base, selected_options: options };
    }
    case 'users_select':
      if (chosen[0] === undefined || !context.isKnownUser(chosen[0]))
        return 'choose a person of this workspace';
      return { ...base, selected_user: chosen[0] };
    default:
      return `elements of type ${String(element.type)} send no actions`;
  }
}

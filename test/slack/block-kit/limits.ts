// Block Kit limits as a test assertion: Slack answers invalid_blocks to a message or a view that
// breaks one, and the user sees nothing. Every builder test runs its output through this.
// Limits: https://api.slack.com/reference/block-kit (blocks, block elements, composition objects).
import type { View } from '@slack/types';
import { expect } from 'vitest';
import { checkDataVisualization } from '../../../tools/sandbox/data-visualization-rules.js';

type Json = Record<string, unknown>;
type Surface = 'message' | 'modal' | 'home';

/** A block list (message), a `{ blocks, text }` message, or a view. */
export type BlockKitInput = readonly unknown[] | { blocks: readonly unknown[]; text: string } | View;

export function assertBlockKitLimits(input: BlockKitInput): void {
  expect(blockKitViolations(input)).toEqual([]);
}

/** Every limit the input breaks, each with the path of the offending part. */
export function blockKitViolations(input: BlockKitInput): string[] {
  const problems: string[] = [];
  const check = (ok: boolean, path: string, message: string) => {
    if (!ok) problems.push(`${path}: ${message}`);
  };
  let surface: Surface = 'message';
  let blocks: readonly unknown[];
  if (isBlockList(input)) {
    blocks = input;
  } else if ('type' in input) {
    const view = input as View;
    surface = view.type === 'home' ? 'home' : 'modal';
    blocks = view.blocks;
    check((view.private_metadata ?? '').length <= 3000, 'view.private_metadata', 'over 3000 characters');
    check((view.callback_id ?? '').length <= 255, 'view.callback_id', 'over 255 characters');
    if (view.type === 'modal') {
      for (const key of ['title', 'submit', 'close'] as const) {
        const text = view[key];
        if (text) checkText({ ...text }, `view.${key}`, 24, check, 'plain_text');
      }
      check(view.title !== undefined, 'view.title', 'missing');
    }
  } else {
    blocks = input.blocks;
    check(input.text.trim() !== '', 'text', 'notification fallback is empty');
    check(input.text.length <= 40000, 'text', 'over 40000 characters');
  }
  const maxBlocks = surface === 'message' ? 50 : 100;
  check(blocks.length <= maxBlocks, 'blocks', `${blocks.length} blocks; a ${surface} allows ${maxBlocks}`);
  check(blocks.length > 0, 'blocks', 'empty');
  const blockIds = new Set<string>();
  blocks.forEach((raw, index) => {
    const block = raw as Json;
    const path = `blocks[${index}]`;
    const blockId = block.block_id as string | undefined;
    if (blockId !== undefined) {
      check(blockId.length <= 255, `${path}.block_id`, 'over 255 characters');
      check(!blockIds.has(blockId), `${path}.block_id`, `duplicate block_id ${blockId}`);
      blockIds.add(blockId);
    }
    checkBlock(block, path, surface, check);
  });
  return problems;
}

function isBlockList(input: BlockKitInput): input is readonly unknown[] {
  return Array.isArray(input);
}

type Check = (ok: boolean, path: string, message: string) => void;

function checkBlock(block: Json, path: string, surface: Surface, check: Check): void {
  switch (block.type) {
    case 'section': {
      const fields = (block.fields as Json[] | undefined) ?? [];
      check(block.text !== undefined || fields.length > 0, path, 'section without text or fields');
      if (block.text) checkText(block.text as Json, `${path}.text`, 3000, check);
      check(fields.length <= 10, `${path}.fields`, `${fields.length} fields; max 10`);
      fields.forEach((field, i) => {
        checkText(field, `${path}.fields[${i}]`, 2000, check);
      });
      if (block.accessory) checkElement(block.accessory as Json, `${path}.accessory`, check);
      break;
    }
    case 'header':
      checkText(block.text as Json, `${path}.text`, 150, check, 'plain_text');
      break;
    case 'context': {
      const elements = block.elements as Json[];
      check(
        elements.length >= 1 && elements.length <= 10,
        `${path}.elements`,
        'context needs 1 to 10 elements',
      );
      elements.forEach((element, i) => {
        checkText(element, `${path}.elements[${i}]`, 3000, check);
      });
      break;
    }
    case 'actions': {
      const elements = block.elements as Json[];
      check(
        elements.length >= 1 && elements.length <= 25,
        `${path}.elements`,
        'actions needs 1 to 25 elements',
      );
      const actionIds = elements.map((element) => element.action_id).filter(Boolean);
      check(new Set(actionIds).size === actionIds.length, path, 'duplicate action_id in one block');
      elements.forEach((element, i) => {
        checkElement(element, `${path}.elements[${i}]`, check);
      });
      break;
    }
    case 'input':
      check(surface !== 'message', path, 'input blocks only work in views');
      checkText(block.label as Json, `${path}.label`, 2000, check, 'plain_text');
      if (block.hint) checkText(block.hint as Json, `${path}.hint`, 2000, check, 'plain_text');
      checkElement(block.element as Json, `${path}.element`, check);
      break;
    case 'divider':
      break;
    case 'data_visualization':
      check(surface === 'message', path, 'a chart is taken in messages only');
      checkDataVisualization((at, what) => check(false, `${path}${at}`, what), '', block);
      break;
    default:
      check(false, path, `block type ${String(block.type)} is not used by the builders`);
  }
}

function checkElement(element: Json, path: string, check: Check): void {
  const actionId = element.action_id as string | undefined;
  if (actionId !== undefined) check(actionId.length <= 255, `${path}.action_id`, 'over 255 characters');
  if (element.placeholder)
    checkText(element.placeholder as Json, `${path}.placeholder`, 150, check, 'plain_text');
  if (element.confirm) checkConfirm(element.confirm as Json, `${path}.confirm`, check);
  switch (element.type) {
    case 'button': {
      checkText(element.text as Json, `${path}.text`, 75, check, 'plain_text');
      const value = (element.value as string | undefined) ?? '';
      check(value.length <= 2000, `${path}.value`, `${value.length} characters; max 2000`);
      if (element.accessibility_label) {
        check((element.accessibility_label as string).length <= 75, `${path}.accessibility_label`, 'over 75');
      }
      break;
    }
    case 'overflow':
      checkOptions(element.options as Json[], `${path}.options`, 1, 5, check);
      break;
    case 'static_select': {
      const groups = element.option_groups as Json[] | undefined;
      const options = (element.options as Json[] | undefined) ?? [];
      check(
        (groups === undefined) !== (element.options === undefined),
        path,
        'needs options or option_groups',
      );
      checkOptions(options, `${path}.options`, groups ? 0 : 1, 100, check);
      const all = [...options];
      (groups ?? []).forEach((group, i) => {
        checkText(group.label as Json, `${path}.option_groups[${i}].label`, 75, check, 'plain_text');
        checkOptions(group.options as Json[], `${path}.option_groups[${i}].options`, 1, 100, check);
        all.push(...(group.options as Json[]));
      });
      check(!groups || groups.length <= 100, `${path}.option_groups`, 'over 100 groups');
      checkInitialOptions(element.initial_option ? [element.initial_option as Json] : [], all, path, check);
      break;
    }
    case 'radio_buttons':
    case 'checkboxes': {
      const options = element.options as Json[];
      checkOptions(options, `${path}.options`, 1, 10, check);
      const initial = element.initial_option ? [element.initial_option] : (element.initial_options ?? []);
      checkInitialOptions(initial as Json[], options, path, check);
      break;
    }
    case 'plain_text_input': {
      const max = (element.max_length as number | undefined) ?? 3000;
      check(max <= 3000, `${path}.max_length`, 'over 3000');
      const initial = (element.initial_value as string | undefined) ?? '';
      check(initial.length <= max, `${path}.initial_value`, `longer than max_length ${max}`);
      break;
    }
    case 'number_input':
    case 'email_text_input':
    case 'users_select':
      break;
    default:
      check(false, path, `element type ${String(element.type)} is not used by the builders`);
  }
}

function checkOptions(options: Json[], path: string, min: number, max: number, check: Check): void {
  check(
    options.length >= min && options.length <= max,
    path,
    `${options.length} options; allowed ${min}-${max}`,
  );
  const values = options.map((option) => option.value);
  check(new Set(values).size === values.length, path, 'duplicate option values');
  options.forEach((option, i) => {
    checkText(option.text as Json, `${path}[${i}].text`, 75, check);
    const value = (option.value as string | undefined) ?? '';
    check(
      value.length >= 1 && value.length <= 150,
      `${path}[${i}].value`,
      `${value.length} characters; 1-150`,
    );
    if (option.description) checkText(option.description as Json, `${path}[${i}].description`, 75, check);
  });
}

/** Slack rejects an initial option that is not, field for field, one of the options. */
function checkInitialOptions(initial: Json[], options: Json[], path: string, check: Check): void {
  for (const chosen of initial) {
    const same = options.some((option) => JSON.stringify(option) === JSON.stringify(chosen));
    check(same, `${path}.initial_option`, `initial option ${String(chosen.value)} is not one of the options`);
  }
}

function checkConfirm(confirm: Json, path: string, check: Check): void {
  if (confirm.title) checkText(confirm.title as Json, `${path}.title`, 100, check, 'plain_text');
  checkText(confirm.text as Json, `${path}.text`, 300, check);
  if (confirm.confirm) checkText(confirm.confirm as Json, `${path}.confirm`, 30, check, 'plain_text');
  if (confirm.deny) checkText(confirm.deny as Json, `${path}.deny`, 30, check, 'plain_text');
}

function checkText(
  text: Json | undefined,
  path: string,
  max: number,
  check: Check,
  requiredType?: 'plain_text',
): void {
  if (!text) {
    check(false, path, 'missing text object');
    return;
  }
  check(
    text.type === 'plain_text' || text.type === 'mrkdwn',
    path,
    `not a text object: ${String(text.type)}`,
  );
  if (requiredType) check(text.type === requiredType, path, `must be ${requiredType}`);
  const value = String(text.text ?? '');
  check(value.trim() !== '', path, 'empty text');
  check(value.length <= max, path, `${value.length} characters; max ${max}`);
}

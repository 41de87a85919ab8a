// The Block Kit rules Slack enforces when a message is posted or a view opened, checked the way
// Slack reports them (`[ERROR] <what> [json-pointer:<where>]`), so a builder that oversteps a limit
// fails in the sandbox as it would in Slack instead of only in production. Stored blocks also get
// the block_id (and elements the action_id) Slack assigns when the app gives none.
import { randomBytes } from 'node:crypto';
import { checkChartCount, checkDataVisualization } from './data-visualization-rules.js';
import { isRecord } from './http-util.js';

type Json = Record<string, unknown>;

const BLOCK_LIMITS = {
  messageBlocks: 50,
  viewBlocks: 100,
  messageText: 40_000,
  headerText: 150,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  contextElements: 10,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  url: 3000,
  id: 255,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  overflowOptions: 5,
  selectOptions: 100,
  optionText: 75,
  optionValue: 150,
  inputLabel: 2000,
  placeholder: 150,
  viewTitle: 24,
  privateMetadata: 3000,
} as const;

const COMMON_BLOCKS = ['header', 'section', 'actions', 'context', 'divider', 'image', 'rich_text'];
// The chart block is described for messages; whether a modal or the Home takes one, what we read of
// Slack's reference does not say, so the stand-ins refuse one there rather than pass what may fail.
const MESSAGE_BLOCKS = new Set([...COMMON_BLOCKS, 'data_visualization']);
const VIEW_BLOCKS = new Set([...COMMON_BLOCKS, 'input']);
const INTERACTIVE = new Set([
  'button',
  'overflow',
  'static_select',
  'users_select',
  'checkboxes',
  'radio_buttons',
  'datepicker',
  'plain_text_input',
  'number_input',
  'email_text_input',
  'url_text_input',
]);

class Problems {
  readonly list: string[] = [];
  add(pointer: string, what: string): void {
    this.list.push(`[ERROR] ${what} [json-pointer:${pointer}]`);
  }
  maxLength(pointer: string, value: unknown, max: number): void {
    if (typeof value === 'string' && value.length > max) {
      this.add(pointer, `must be less than ${max + 1} characters`);
    }
  }
}

function checkText(problems: Problems, pointer: string, text: unknown, max: number, plainOnly = false): void {
  if (!isRecord(text)) {
    problems.add(pointer, 'must provide an object');
    return;
  }
  if (text.type !== 'plain_text' && (plainOnly || text.type !== 'mrkdwn')) {
    problems.add(`${pointer}/type`, plainOnly ? 'must be plain_text' : 'must be plain_text or mrkdwn');
  }
  if (typeof text.text !== 'string' || text.text.length === 0) {
    problems.add(`${pointer}/text`, 'must be more than 0 characters');
  } else {
    problems.maxLength(`${pointer}/text`, text.text, max);
  }
}

function checkOptions(problems: Problems, pointer: string, options: unknown, max: number): void {
  if (!Array.isArray(options) || options.length === 0) {
    problems.add(pointer, 'must provide at least one option');
    return;
  }
  if (options.length > max) problems.add(pointer, `must provide no more than ${max} items`);
  options.forEach((option, index) => {
    const at = `${pointer}/${index}`;
    if (!isRecord(option)) {
      problems.add(at, 'must provide an object');
      return;
    }
    checkText(problems, `${at}/text`, option.text, BLOCK_LIMITS.optionText);
    problems.maxLength(`${at}/value`, option.value, BLOCK_LIMITS.optionValue);
  });
}

function checkConfirm(problems: Problems, pointer: string, confirm: unknown): void {
  if (confirm === undefined) return;
  if (!isRecord(confirm)) {
    problems.add(pointer, 'must provide an object');
    return;
  }
  checkText(problems, `${pointer}/title`, confirm.title, BLOCK_LIMITS.confirmTitle, true);
  checkText(problems, `${pointer}/text`, confirm.text, BLOCK_LIMITS.confirmText);
  checkText(problems, `${pointer}/confirm`, confirm.confirm, BLOCK_LIMITS.confirmButton, true);
  checkText(problems, `${pointer}/deny`, confirm.deny, BLOCK_LIMITS.confirmButton, true);
}

function checkElement(problems: Problems, pointer: string, element: unknown): void {
  if (!isRecord(element)) {
    problems.add(pointer, 'must provide an object');
    return;
  }
  problems.maxLength(`${pointer}/action_id`, element.action_id, BLOCK_LIMITS.id);
  switch (element.type) {
    case 'button':
      checkText(problems, `${pointer}/text`, element.text, BLOCK_LIMITS.buttonText, true);
      problems.maxLength(`${pointer}/value`, element.value, BLOCK_LIMITS.buttonValue);
      problems.maxLength(`${pointer}/url`, element.url, BLOCK_LIMITS.url);
      if (element.style !== undefined && element.style !== 'primary' && element.style !== 'danger') {
        problems.add(`${pointer}/style`, 'must be primary or danger');
      }
      break;
    case 'overflow':
      checkOptions(problems, `${pointer}/options`, element.options, BLOCK_LIMITS.overflowOptions);
      break;
    case 'static_select':
      if (Array.isArray(element.option_groups)) {
        element.option_groups.forEach((group, index) => {
          const at = `${pointer}/option_groups/${index}`;
          if (!isRecord(group)) {
            problems.add(at, 'must provide an object');
            return;
          }
          checkText(problems, `${at}/label`, group.label, BLOCK_LIMITS.optionText, true);
          checkOptions(problems, `${at}/options`, group.options, BLOCK_LIMITS.selectOptions);
        });
      } else {
        checkOptions(problems, `${pointer}/options`, element.options, BLOCK_LIMITS.selectOptions);
      }
      break;
    case 'checkboxes':
    case 'radio_buttons':
      checkOptions(problems, `${pointer}/options`, element.options, 10);
      break;
    default:
      break;
  }
  if (isRecord(element.placeholder)) {
    checkText(problems, `${pointer}/placeholder`, element.placeholder, BLOCK_LIMITS.placeholder, true);
  }
  checkConfirm(problems, `${pointer}/confirm`, element.confirm);
}

function checkBlock(problems: Problems, pointer: string, block: unknown, allowed: Set<string>): void {
  if (!isRecord(block)) {
    problems.add(pointer, 'must provide an object');
    return;
  }
  if (typeof block.type !== 'string' || !allowed.has(block.type)) {
    problems.add(`${pointer}/type`, `unsupported block type ${JSON.stringify(block.type)} here`);
    return;
  }
  problems.maxLength(`${pointer}/block_id`, block.block_id, BLOCK_LIMITS.id);
  switch (block.type) {
    case 'header':
      checkText(problems, `${pointer}/text`, block.text, BLOCK_LIMITS.headerText, true);
      break;
    case 'section':
      if (block.text === undefined && block.fields === undefined) {
        problems.add(pointer, 'must provide text or fields');
      }
      if (block.text !== undefined)
        checkText(problems, `${pointer}/text`, block.text, BLOCK_LIMITS.sectionText);
      if (block.fields !== undefined) {
        if (!Array.isArray(block.fields) || block.fields.length > BLOCK_LIMITS.sectionFields) {
          problems.add(`${pointer}/fields`, `must provide no more than ${BLOCK_LIMITS.sectionFields} items`);
        } else {
          block.fields.forEach((field, index) => {
            checkText(problems, `${pointer}/fields/${index}`, field, BLOCK_LIMITS.fieldText);
          });
        }
      }
      if (block.accessory !== undefined) checkElement(problems, `${pointer}/accessory`, block.accessory);
      break;
    case 'context':
      if (
        !Array.isArray(block.elements) ||
        block.elements.length === 0 ||
        block.elements.length > BLOCK_LIMITS.contextElements
      ) {
        problems.add(`${pointer}/elements`, `must provide 1 to ${BLOCK_LIMITS.contextElements} items`);
      } else {
        block.elements.forEach((element, index) => {
          if (isRecord(element) && element.type === 'image') return;
          checkText(problems, `${pointer}/elements/${index}`, element, BLOCK_LIMITS.sectionText);
        });
      }
      break;
    case 'actions':
      if (
        !Array.isArray(block.elements) ||
        block.elements.length === 0 ||
        block.elements.length > BLOCK_LIMITS.actionsElements
      ) {
        problems.add(`${pointer}/elements`, `must provide 1 to ${BLOCK_LIMITS.actionsElements} items`);
      } else {
        const actionIds = new Set<unknown>();
        block.elements.forEach((element, index) => {
          checkElement(problems, `${pointer}/elements/${index}`, element);
          const actionId = isRecord(element) ? element.action_id : undefined;
          if (actionId !== undefined && actionIds.has(actionId)) {
            problems.add(`${pointer}/elements/${index}/action_id`, 'must be unique within the block');
          }
          actionIds.add(actionId);
        });
      }
      break;
    case 'input':
      checkText(problems, `${pointer}/label`, block.label, BLOCK_LIMITS.inputLabel, true);
      if (block.hint !== undefined)
        checkText(problems, `${pointer}/hint`, block.hint, BLOCK_LIMITS.inputLabel, true);
      checkElement(problems, `${pointer}/element`, block.element);
      break;
    case 'data_visualization':
      checkDataVisualization((at, what) => problems.add(at, what), pointer, block);
      break;
    default:
      break;
  }
}

function checkBlocks(
  problems: Problems,
  pointer: string,
  blocks: unknown,
  max: number,
  allowed: Set<string>,
) {
  if (!Array.isArray(blocks)) {
    problems.add(pointer, 'must provide an array');
    return;
  }
  if (blocks.length > max) problems.add(pointer, `no more than ${max} items allowed`);
  checkChartCount((at, what) => problems.add(at, what), pointer, blocks);
  const blockIds = new Set<unknown>();
  blocks.forEach((block, index) => {
    checkBlock(problems, `${pointer}/${index}`, block, allowed);
    const blockId = isRecord(block) ? block.block_id : undefined;
    if (blockId !== undefined && blockIds.has(blockId)) {
      problems.add(`${pointer}/${index}/block_id`, 'must be unique within the blocks');
    }
    blockIds.add(blockId);
  });
}

/**
 * Above this much block text (src/slack/block-kit/block-text.ts) a message is refused: the lowest
 * refusal Slack has been seen to make is 11,341 characters (9,597 were accepted), so the stand-ins
 * refuse from there. A builder stays under 11,000 by its own budget.
 */
export const MAX_BLOCK_TEXT = 11_340;

/** Problems with a message's text and blocks; empty when Slack would take it. */
export function messageProblems(args: { text?: unknown; blocks?: unknown }): string[] {
  const problems = new Problems();
  problems.maxLength('/text', args.text, BLOCK_LIMITS.messageText);
  if (args.blocks !== undefined) {
    checkBlocks(problems, '/blocks', args.blocks, BLOCK_LIMITS.messageBlocks, MESSAGE_BLOCKS);
  }
  return problems.list;
}

/** Problems with a modal or Home view; empty when Slack would take it. */
export function viewProblems(view: unknown): string[] {
  const problems = new Problems();
  if (!isRecord(view)) {
    problems.add('/view', 'must provide an object');
    return problems.list;
  }
  if (view.type !== 'modal' && view.type !== 'home') {
    problems.add('/view/type', 'must be modal or home');
    return problems.list;
  }
  checkBlocks(problems, '/view/blocks', view.blocks, BLOCK_LIMITS.viewBlocks, VIEW_BLOCKS);
  problems.maxLength('/view/private_metadata', view.private_metadata, BLOCK_LIMITS.privateMetadata);
  problems.maxLength('/view/callback_id', view.callback_id, BLOCK_LIMITS.id);
  problems.maxLength('/view/external_id', view.external_id, BLOCK_LIMITS.id);
  if (view.type === 'modal') {
    checkText(problems, '/view/title', view.title, BLOCK_LIMITS.viewTitle, true);
    if (view.submit !== undefined)
      checkText(problems, '/view/submit', view.submit, BLOCK_LIMITS.viewTitle, true);
    if (view.close !== undefined)
      checkText(problems, '/view/close', view.close, BLOCK_LIMITS.viewTitle, true);
    const hasInput = Array.isArray(view.blocks) && view.blocks.some((b) => isRecord(b) && b.type === 'input');
    if (hasInput && view.submit === undefined) {
      problems.add('/view/submit', 'must be provided when the view has input blocks');
    }
  }
  return problems.list;
}

const randomId = (): string => randomBytes(4).toString('base64url').slice(0, 5);

/**
 * A copy of the blocks with the ids Slack fills in: a block_id on every block and an action_id on
 * every interactive element, so that payloads name them exactly as Slack's would.
 */
export function withSlackIds(blocks: unknown[]): unknown[] {
  const element = (value: unknown): unknown =>
    isRecord(value) &&
    typeof value.type === 'string' &&
    INTERACTIVE.has(value.type) &&
    value.action_id === undefined
      ? { ...value, action_id: randomId() }
      : value;
  return blocks.map((block) => {
    if (!isRecord(block)) return block;
    const copy: Json = { ...block, block_id: block.block_id ?? randomId() };
    if (Array.isArray(copy.elements)) copy.elements = copy.elements.map(element);
    if (copy.accessory !== undefined) copy.accessory = element(copy.accessory);
    if (copy.element !== undefined) copy.element = element(copy.element);
    return copy;
  });
}

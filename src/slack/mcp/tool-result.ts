// What an operation answered, as a tool result Slackbot can show: the words for the model and for
// people (the message's text and the text of its blocks, so the model reads the figures and names the
// blocks show), and the blocks themselves in `_meta.slack.blocks`. A button there would be clicked in
// Slackbot's conversation, not on a message of ours: only link buttons stay, and every other
// interactive element goes, as the confirmation of a change comes from the bot in the person's DM.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { KnownBlock } from '@slack/types';
import { contextLine } from '../block-kit/elements.js';
import { blockTextLength, MESSAGE_BUDGET } from '../block-kit/message-budget.js';
import type { SlackMessage } from '../block-kit/text.js';

export function toolResult(
  messages: readonly SlackMessage[],
  options: { isError?: boolean } = {},
): CallToolResult {
  const text = messages
    .map(readableText)
    .filter((part) => part !== '')
    .join('\n\n');
  const blocks = withinBudget(messages.flatMap((message) => message.blocks.flatMap(withoutButtons)));
  return {
    content: [{ type: 'text', text: text === '' ? 'Done.' : text }],
    ...(blocks.length === 0 ? {} : { _meta: { slack: { blocks } } }),
    ...(options.isError ? { isError: true } : {}),
  };
}

/** A refusal in one sentence: what the person should do, never an HTTP code or a stack. */
export function refusal(sentence: string): CallToolResult {
  return { content: [{ type: 'text', text: sentence }], isError: true };
}

/** Slackbot shows the blocks as a message: they keep a message's budget, with a line when some are left out. */
function withinBudget(blocks: KnownBlock[]): KnownBlock[] {
  const more = contextLine('More in Slack: the same command with /ps shows all of it.');
  const room = { blocks: MESSAGE_BUDGET.blocks - 1, text: MESSAGE_BUDGET.text - blockTextLength([more]) };
  const kept: KnownBlock[] = [];
  let text = 0;
  for (const block of blocks) {
    const size = blockTextLength(block);
    if (kept.length === room.blocks || text + size > room.text) return [...kept, more];
    kept.push(block);
    text += size;
  }
  return kept;
}

function readableText(message: SlackMessage): string {
  const lines: string[] = [];
  for (const block of message.blocks) lines.push(...blockLines(block));
  const fromBlocks = lines.join('\n').trim();
  if (fromBlocks === '') return message.text;
  return fromBlocks.includes(message.text) ? fromBlocks : `${message.text}\n${fromBlocks}`;
}

function blockLines(block: KnownBlock): string[] {
  switch (block.type) {
    case 'header':
      return [block.text.text];
    case 'section':
      return [
        ...(block.text === undefined ? [] : [block.text.text]),
        ...(block.fields ?? []).map((field) => field.text),
      ];
    case 'context':
      return block.elements.flatMap((element) => ('text' in element ? [element.text] : []));
    case 'rich_text':
    case 'divider':
    case 'actions':
    case 'image':
    case 'input':
    case 'file':
    case 'video':
      return [];
    default:
      return [];
  }
}

/** The block with its interactive elements taken out; nothing when nothing is left of it. */
function withoutButtons(block: KnownBlock): KnownBlock[] {
  if (block.type === 'actions') {
    const links = block.elements.filter((element) => element.type === 'button' && element.url !== undefined);
    return links.length === 0 ? [] : [{ ...block, elements: links }];
  }
  if (block.type === 'section' && block.accessory !== undefined) {
    const { accessory, ...rest } = block;
    const keep = accessory.type === 'image' || (accessory.type === 'button' && accessory.url !== undefined);
    return [keep ? block : rest];
  }
  if (block.type === 'input') return [];
  return [block];
}

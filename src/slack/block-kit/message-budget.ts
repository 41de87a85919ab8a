// How much text a message or a view may carry, and how builders fit their rows into it. Slack refuses
// chat.postMessage with `msg_blocks_too_long` once the summed text of a message's blocks passes a limit
// it does not publish: reports put it between 9,597 characters (accepted) and 11,341 (refused), counted
// as every `text` string of the block tree after escaping (slackapi/bolt-js issues 2509 and 2867), with
// some allowance for the block containers themselves. A builder that lists rows (machines, people,
// requests) takes rows while they fit this budget and the block count, and says how many it left out.
import type { KnownBlock } from '@slack/types';
import { LIMITS } from './text.js';

export interface Budget {
  /** The most blocks Slack takes here: 50 in a message, 100 in a modal or the Home. */
  blocks: number;
  /** The most summed block text we send, as blockTextLength counts it. */
  text: number;
}

/**
 * 9,000: under the largest message reported accepted (9,597), so the containers' unknown share and a
 * change on Slack's side leave room, and well under the 11,341 Slack has been seen to refuse.
 */
export const MESSAGE_BUDGET: Budget = { blocks: LIMITS.messageBlocks, text: 9_000 };

/**
 * Slack publishes no summed-text limit for views; the Home is held to the message's, so a person with
 * many machines never depends on an allowance nobody has measured.
 */
export const VIEW_BUDGET: Budget = { blocks: LIMITS.viewBlocks, text: 9_000 };

/**
 * The summed length of every `text` string in the blocks (or in any part of a block), as Slack counts
 * it: escapes such as `&amp;` count in full, since builders escape before measuring. The fake Slack and
 * the sandbox refuse by this same count. Buttons' labels, confirm dialogs and context
 * elements count too; values, ids and URLs do not.
 */
export function blockTextLength(blocks: unknown): number {
  // Every list is measured, every row several times (paging.ts, rowsThatFit): walked with for...in, not
  // Object.entries, which would build a pair array per object on this hot path.
  if (Array.isArray(blocks)) {
    let total = 0;
    for (const item of blocks) total += blockTextLength(item);
    return total;
  }
  if (blocks === null || typeof blocks !== 'object') return 0;
  let total = 0;
  const node = blocks as Record<string, unknown>;
  for (const key in node) {
    if (!Object.hasOwn(node, key)) continue;
    const value = node[key];
    if (key === 'text' && typeof value === 'string') total += value.length;
    else if (value !== null && typeof value === 'object') total += blockTextLength(value);
  }
  return total;
}

/** Whether the blocks fit the budget in count and text. */
function fitsBudget(blocks: readonly KnownBlock[], budget: Budget = MESSAGE_BUDGET): boolean {
  return blocks.length <= budget.blocks && blockTextLength(blocks) <= budget.text;
}

/**
 * How many of `rows`, in order, fit beside the `fixed` blocks (header, footer). When they do not all
 * fit, `overflow` (the "and N more" line, drafted for the largest N) is reserved too, so the message
 * that says what was left out still fits.
 */
export function rowsThatFit(
  rows: readonly (readonly KnownBlock[])[],
  fixed: readonly KnownBlock[],
  overflow: readonly KnownBlock[],
  budget: Budget = MESSAGE_BUDGET,
): number {
  if (fitsBudget([...fixed, ...rows.flat()], budget)) return rows.length;
  let blocks = fixed.length + overflow.length;
  let text = blockTextLength(fixed) + blockTextLength(overflow);
  let count = 0;
  for (const row of rows) {
    blocks += row.length;
    text += blockTextLength(row);
    if (blocks > budget.blocks || text > budget.text) break;
    count += 1;
  }
  return count;
}

/**
 * As many of `lines` as fit in `max` characters (and at most `most`), one a line, then
 * `more(left out)` when some were left out: a list in one section that says how many it did not
 * show, instead of being cut mid-line.
 */
export function linesThatFit(
  lines: readonly string[],
  more: (leftOut: number) => string,
  max: number,
  most: number = lines.length,
): string {
  const all = lines.join('\n');
  if (lines.length <= most && all.length <= max) return all;
  const room = max - more(lines.length).length - 1;
  let text = '';
  let count = 0;
  for (const line of lines.slice(0, most)) {
    const next = count === 0 ? line : `${text}\n${line}`;
    if (next.length > room) break;
    text = next;
    count += 1;
  }
  const tail = more(lines.length - count);
  return count === 0 ? tail : `${text}\n${tail}`;
}

// How much text a message's blocks hold, as Slack counts it for `msg_blocks_too_long`: every text
// object's (and rich text element's) `text`, summed over the blocks. Slack does not publish the cap;
// 11,341 characters were refused in slackapi/bolt-js#2509 and #2867, and 9,597 accepted.

/** The characters of text in `blocks` (or in any part of a block). */
export function blockTextLength(blocks: unknown): number {
  if (Array.isArray(blocks)) return blocks.reduce((sum: number, item) => sum + blockTextLength(item), 0);
  if (typeof blocks !== 'object' || blocks === null) return 0;
  let sum = 0;
  for (const [key, value] of Object.entries(blocks)) {
    sum += key === 'text' && typeof value === 'string' ? value.length : blockTextLength(value);
  }
  return sum;
}

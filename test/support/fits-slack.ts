// One assertion for what the bot sends: Slack's documented per-field limits (limits.ts, from Block
// Kit's reference) and our summed-text budget, which keeps a message clear of `msg_blocks_too_long`.
import type { View } from '@slack/types';
import { expect } from 'vitest';
import { blockTextLength, MESSAGE_BUDGET, VIEW_BUDGET } from '../../src/slack/block-kit/message-budget.js';
import { assertBlockKitLimits } from '../slack/block-kit/limits.js';

export function assertFitsSlack(built: { blocks: readonly unknown[]; text: string } | View): void {
  assertBlockKitLimits(built);
  const budget = 'type' in built ? VIEW_BUDGET : MESSAGE_BUDGET;
  expect(built.blocks.length).toBeLessThanOrEqual(budget.blocks);
  expect(blockTextLength(built.blocks)).toBeLessThanOrEqual(budget.text);
}

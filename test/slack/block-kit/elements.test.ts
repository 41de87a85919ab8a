import { describe, expect, it } from 'vitest';
import { header } from '../../../src/slack/block-kit/elements.js';
import { LIMITS } from '../../../src/slack/block-kit/text.js';

describe('header', () => {
  it('is a plain text header cut to the limit Slack sets for one', () => {
    const block = header('x'.repeat(400));
    expect(block.type).toBe('header');
    expect(block.text.type).toBe('plain_text');
    expect(block.text.text.length).toBeLessThanOrEqual(LIMITS.headerText);
    expect(block).not.toHaveProperty('block_id');
  });

  it('carries a block id when one is given', () => {
    expect(header('3 machines still running', 'reminder_header_3')).toMatchObject({
      block_id: 'reminder_header_3',
      text: { text: '3 machines still running' },
    });
  });
});

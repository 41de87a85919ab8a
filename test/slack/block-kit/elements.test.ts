import { describe, expect, it } from 'vitest';
import { header, section } from '../../../src/slack/block-kit/elements.js';
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

describe('section', () => {
  it('is a section of mrkdwn alone, cut to the limit Slack sets for a section', () => {
    expect(section('*gpu-1* is ready')).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: '*gpu-1* is ready' },
    });
    expect(section('x'.repeat(4000)).text?.text.length).toBe(LIMITS.sectionText);
  });
});

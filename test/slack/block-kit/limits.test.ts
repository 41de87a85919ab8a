import { describe, expect, it } from 'vitest';
import { blockKitViolations } from './limits.js';

describe('blockKitViolations', () => {
  it('accepts a small valid message', () => {
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: 'hello' } }];
    expect(blockKitViolations({ blocks, text: 'hello' })).toEqual([]);
  });

  it('reports too many blocks, long section text, long button values and empty fallback text', () => {
    const blocks = [
      ...Array.from({ length: 50 }, () => ({ type: 'divider' })),
      { type: 'section', text: { type: 'mrkdwn', text: 'x'.repeat(3001) } },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: 'a',
            text: { type: 'plain_text', text: 'Go' },
            value: 'v'.repeat(2001),
          },
        ],
      },
    ];
    const problems = blockKitViolations({ blocks, text: ' ' });
    expect(problems).toEqual([
      'text: notification fallback is empty',
      'blocks: 52 blocks; a message allows 50',
      'blocks[50].text: 3001 characters; max 3000',
      'blocks[51].elements[0].value: 2001 characters; max 2000',
    ]);
  });

  it('reports a modal title over 24 characters, long options and an initial option that is not offered', () => {
    const offered = { text: { type: 'plain_text', text: 'a' }, value: 'a' };
    const view = {
      type: 'modal' as const,
      title: { type: 'plain_text' as const, text: 'A title that is far too long' },
      blocks: [
        {
          type: 'input',
          label: { type: 'plain_text', text: 'Pick' },
          element: {
            type: 'static_select',
            action_id: 'pick',
            options: [
              offered,
              { text: { type: 'plain_text', text: 'o'.repeat(76) }, value: 'v'.repeat(151) },
            ],
            initial_option: { text: { type: 'plain_text', text: 'b' }, value: 'b' },
          },
        },
      ],
    };
    expect(blockKitViolations(view)).toEqual([
      'view.title: 28 characters; max 24',
      'blocks[0].element.options[1].text: 76 characters; max 75',
      'blocks[0].element.options[1].value: 151 characters; 1-150',
      'blocks[0].element.initial_option: initial option b is not one of the options',
    ]);
  });

  it('reports duplicate block ids and input blocks in a message', () => {
    const input = {
      type: 'input',
      block_id: 'x',
      label: { type: 'plain_text', text: 'L' },
      element: { type: 'number_input' },
    };
    expect(blockKitViolations([input, { type: 'divider', block_id: 'x' }])).toEqual([
      'blocks[0]: input blocks only work in views',
      'blocks[1].block_id: duplicate block_id x',
    ]);
  });
});

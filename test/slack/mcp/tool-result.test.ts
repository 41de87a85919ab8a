// An operation's answer as Slackbot shows it: the words a model and a person read (figures and names
// from the blocks included), the blocks within one message's budget, and no button that would be
// clicked in Slackbot's conversation instead of on a message of the bot's.
import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { button, contextLine, section } from '../../../src/slack/block-kit/elements.js';
import { toolResult } from '../../../src/slack/mcp/tool-result.js';
import { assertFitsSlack } from '../../support/fits-slack.js';

const row = (index: number): KnownBlock => section(`*gpu-${index}* · Ready · $0.51/h ${'·'.repeat(150)}`);
const blocksOf = (result: ReturnType<typeof toolResult>) =>
  ((result._meta?.slack as { blocks?: KnownBlock[] } | undefined)?.blocks ?? []) as KnownBlock[];

describe('toolResult', () => {
  it('reads the words of the blocks, not only the notification text', () => {
    const result = toolResult([
      { text: '2 machines', blocks: [row(1), row(2), contextLine('Total $1.02/h')] },
    ]);
    const [part] = result.content;
    expect(part?.type === 'text' && part.text).toContain('*gpu-2* · Ready');
    expect(part?.type === 'text' && part.text).toContain('Total $1.02/h');
  });

  it('keeps the blocks of several answers within one message, and says when some are left out', () => {
    const many = Array.from({ length: 90 }, (_, index) => row(index));
    const result = toolResult([
      { text: 'first', blocks: many.slice(0, 45) },
      { text: 'second', blocks: many.slice(45) },
    ]);
    const blocks = blocksOf(result);
    assertFitsSlack({ blocks, text: 'x' });
    expect(JSON.stringify(blocks.at(-1))).toContain('More in Slack');
    expect(blocks.length).toBeLessThan(90);
  });

  it('takes out buttons and menus but keeps link buttons', () => {
    const result = toolResult([
      {
        text: 'card',
        blocks: [
          {
            ...section('*gpu-1*'),
            accessory: button({ actionId: 'machine_start', text: 'Start', value: 'x' }),
          },
          {
            type: 'actions',
            elements: [
              button({ actionId: 'machine_stop', text: 'Stop', value: 'x' }),
              {
                type: 'button',
                action_id: 'console',
                text: { type: 'plain_text', text: 'Console' },
                url: 'https://console.paperspace.com',
              },
            ],
          },
          {
            type: 'actions',
            elements: [button({ actionId: 'machine_restart', text: 'Restart', value: 'x' })],
          },
        ],
      },
    ]);
    const text = JSON.stringify(blocksOf(result));
    expect(text).not.toMatch(/machine_start|machine_stop|machine_restart/);
    expect(text).toContain('https://console.paperspace.com');
    expect(text).toContain('*gpu-1*');
  });
});

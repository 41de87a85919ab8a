import { describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../src/slack/block-kit/text.js';
import { type ClickRedraw, redrawClickedMessage } from '../../src/slack/button-click.js';
import { captureLogs } from '../support/log-capture.js';
import { useFakeSlack } from '../support/use-fake-slack.js';

const fake = useFakeSlack();

const row = { type: 'section' as const, block_id: 'row', text: { type: 'mrkdwn' as const, text: 'gpu-1' } };
const redraw: ClickRedraw = {
  done: '🟢 gpu-1: kept running',
  what: 'the row of a test',
  redraw: (message) => ({
    blocks: message.blocks.map((block) =>
      block.block_id === 'row' ? { ...row, text: { type: 'mrkdwn', text: '🟢 gpu-1: kept running' } } : block,
    ),
  }),
};

function clickOn(message: { ts: string; text: string; blocks: (typeof row)[] } | undefined) {
  const told: SlackMessage[] = [];
  const click = {
    message,
    channelId: message === undefined ? undefined : 'C-ops',
    logger: captureLogs().logger,
    replyPrivately: async (reply: SlackMessage) => {
      told.push(reply);
    },
  };
  return { click, told };
}

describe('redrawClickedMessage', () => {
  it('rewrites the clicked message in place, keeping its text', async () => {
    const { click, told } = clickOn({ ts: '1700000000.000100', text: 'Still running', blocks: [row] });
    await redrawClickedMessage(fake.web, click, redraw);
    const [update] = fake.slack.calls('chat.update');
    expect(update?.args).toMatchObject({ channel: 'C-ops', ts: '1700000000.000100', text: 'Still running' });
    expect(JSON.stringify(update?.args.blocks)).toContain('kept running');
    expect(told).toEqual([]);
  });

  it('tells the clicker what was done when there is no message to rewrite (an ephemeral one)', async () => {
    // The reminder's and the digest's rows said nothing here; the cost alert told the clicker. Telling wins.
    const { click, told } = clickOn(undefined);
    await redrawClickedMessage(fake.web, click, redraw);
    expect(told).toEqual([{ blocks: [], text: '🟢 gpu-1: kept running' }]);
    expect(fake.slack.calls('chat.update')).toEqual([]);
  });

  it('leaves a message alone that no longer has what was clicked', async () => {
    const { click, told } = clickOn({ ts: '1700000000.000100', text: 'Still running', blocks: [row] });
    await redrawClickedMessage(fake.web, click, { ...redraw, redraw: () => undefined });
    expect(fake.slack.calls('chat.update')).toEqual([]);
    expect(told).toEqual([]);
  });
});

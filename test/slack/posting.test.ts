// The posting module against the fake Slack: a post that must land in one conversation stays there
// (or fails where the caller can see it), and an update replaces a message's blocks and text.
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliver, postIn, updateMessage } from '../../src/slack/posting.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack.js';

let slack: FakeSlack;
let web: WebClient;
beforeAll(async () => {
  slack = await startFakeSlack({ botToken: 'xoxb-posting' });
  // As app.ts makes it: a 429 is thrown at once, for posting.ts to wait out.
  web = new WebClient('xoxb-posting', {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
});
beforeEach(() => slack.reset());
afterAll(() => slack.close());

const message = {
  blocks: [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text: 'gpu-1 *asks*' } }],
  text: 'gpu-1 asks',
};

describe('postIn', () => {
  it('posts in the thread it is given and says where the message landed', async () => {
    const posted = await postIn(web, { channel: 'C0OPS', threadTs: '1700000000.000100' }, message);
    const [call] = slack.calls('chat.postMessage');
    expect(call?.args).toMatchObject({
      channel: 'C0OPS',
      thread_ts: '1700000000.000100',
      text: 'gpu-1 asks',
    });
    expect(call?.args.blocks).toEqual(message.blocks);
    expect(posted).toEqual({ channel: 'C0OPS', ts: call?.answer?.ts });
  });

  it("posts to a person's id in the app's DM with them", async () => {
    const posted = await postIn(web, { channel: 'U0ADA' }, message);
    expect(posted.channel).toBe('D0ADA');
  });

  it('throws a refused conversation instead of moving the message elsewhere', async () => {
    slack.fail('chat.postMessage', 'not_in_channel');
    await expect(postIn(web, { channel: 'C0LOCKED' }, message)).rejects.toMatchObject({
      data: { error: 'not_in_channel' },
    });
    expect(slack.calls('chat.postMessage')).toHaveLength(1);
  });

  it('posts the words alone when Slack refuses the blocks', async () => {
    slack.fail('chat.postMessage', 'invalid_blocks');
    await postIn(web, { channel: 'C0OPS' }, message);
    const [refused, words] = slack.calls('chat.postMessage');
    expect(refused?.args.blocks).toEqual(message.blocks);
    expect(words?.args).toMatchObject({ channel: 'C0OPS', text: 'gpu-1 asks' });
    expect(words?.args.blocks).toBeUndefined();
  });
});

describe('updateMessage', () => {
  it('replaces the blocks and the text of the message', async () => {
    slack.showMessage('C0OPS', '1700000000.000100');
    await updateMessage(web, { channel: 'C0OPS', ts: '1700000000.000100' }, message);
    const [call] = slack.calls('chat.update');
    expect(call?.args).toMatchObject({ channel: 'C0OPS', ts: '1700000000.000100', text: 'gpu-1 asks' });
    expect(call?.args.blocks).toEqual(message.blocks);
  });

  it('throws what Slack refused, without an update that would keep the old buttons', async () => {
    slack.fail('chat.update', 'invalid_blocks');
    await expect(
      updateMessage(web, { channel: 'C0OPS', ts: '1700000000.000100' }, message),
    ).rejects.toMatchObject({ data: { error: 'invalid_blocks' } });
    expect(slack.calls('chat.update')).toHaveLength(1);
  });
});

describe('deliver', () => {
  const ADA = 'U0ADA';
  // 6 sections of 2,500 characters: each within Slack's 3,000, 15,000 in all (msg_blocks_too_long).
  const big = (text: string) => ({
    blocks: Array.from({ length: 6 }, (_, index) => ({
      type: 'section' as const,
      text: { type: 'mrkdwn' as const, text: `${index}`.repeat(2500) },
    })),
    text,
  });

  it('posts the words of a message too big for Slack in the same channel, never in the DM', async () => {
    const delivery = await deliver(web, { channel: 'C0OPS', userId: ADA }, big('Team digest: 120 running'));

    expect(delivery).toMatchObject({
      landed: 'channel',
      channel: 'C0OPS',
      shortened: { refusal: 'msg_blocks_too_long', blocks: 6, blockText: 15_000, posted: 'text' },
    });
    const posts = slack.calls('chat.postMessage');
    expect(posts.map((call) => [call.args.channel, call.answer?.ok ?? call.answer?.error])).toEqual([
      ['C0OPS', false],
      ['C0OPS', true],
    ]);
    expect(posts[1]?.args).toEqual({ channel: 'C0OPS', text: 'Team digest: 120 running' });
    expect(slack.calls('chat.postEphemeral')).toEqual([]);
  });

  it('posts its beginning and says it was too large when the words alone are too long too', async () => {
    const delivery = await deliver(web, { channel: 'C0OPS', userId: ADA }, big('w'.repeat(40_001)));

    expect(delivery).toMatchObject({ landed: 'channel', shortened: { posted: 'notice' } });
    const last = slack.calls('chat.postMessage').at(-1);
    expect(last?.answer?.ok).toBe(true);
    const text = String(last?.args.text);
    expect(text.startsWith(`${'w'.repeat(500)}…`)).toBe(true);
    expect(text).toMatch(
      /This message was too large for Slack to show \(msg_too_long\), so only its beginning/,
    );
  });

  it('waits out a 429 and posts in the same channel, not the DM', async () => {
    slack.script('chat.postMessage', { channel: 'C0BUSY', status: 429, retryAfterSeconds: 1 });
    const started = Date.now();

    const delivery = await deliver(web, { channel: 'C0BUSY', userId: ADA }, message);

    expect(delivery).toMatchObject({ landed: 'channel', channel: 'C0BUSY' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(slack.calls('chat.postMessage').map((call) => call.args.channel)).toEqual(['C0BUSY', 'C0BUSY']);
  });

  it("gives up on a channel that keeps rate limiting past a minute and posts in the person's DM, saying so", async () => {
    slack.script('chat.postMessage', { channel: 'C0BUSY', status: 429, retryAfterSeconds: 120 });

    const delivery = await deliver(
      web,
      { channel: 'C0BUSY', userId: ADA, threadTs: '1700000000.000100' },
      message,
    );

    expect(delivery).toMatchObject({ landed: 'dm', channel: 'D0ADA', refusal: 'rate limited' });
    const posts = slack.calls('chat.postMessage');
    // Not the channel again without its thread: both share the channel's pace.
    expect(posts.map((call) => call.args.channel)).toEqual(['C0BUSY', ADA]);
    expect(String(posts[1]?.args.text)).toMatch(
      /^⚠️ Slack kept asking me to wait before posting this in <#C0BUSY> \(rate limited\)/,
    );
    expect(String(posts[1]?.args.text)).toContain('gpu-1 asks');
    expect(slack.calls('chat.postEphemeral')).toEqual([]);
  });

  it('reports a channel still rate limited to a caller that tries it again later, without the DM', async () => {
    slack.script('chat.postMessage', { channel: 'C0BUSY', status: 429, retryAfterSeconds: 120 });

    const delivery = await deliver(web, { channel: 'C0BUSY', userId: ADA, retriesLater: true }, message);

    expect(delivery).toEqual({ landed: 'nowhere', refusal: 'rate limited' });
    expect(slack.calls('chat.postMessage').map((call) => call.args.channel)).toEqual(['C0BUSY']);
  });

  it('still goes to the DM when the channel refuses the bot', async () => {
    slack.fail('chat.postMessage', 'not_in_channel');
    const delivery = await deliver(web, { channel: 'C0LOCKED', userId: ADA }, message);
    expect(delivery).toMatchObject({ landed: 'dm', channel: 'D0ADA' });
  });
});

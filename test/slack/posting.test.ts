// The posting module against the fake Slack: a post that must land in one conversation stays there
// (or fails where the caller can see it), and an update replaces a message's blocks and text.
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postIn, updateMessage } from '../../src/slack/posting.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack.js';

let slack: FakeSlack;
let web: WebClient;
beforeAll(async () => {
  slack = await startFakeSlack({ botToken: 'xoxb-posting' });
  web = new WebClient('xoxb-posting', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
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

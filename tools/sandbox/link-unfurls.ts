// Link unfurling as Slack does it, for the fake Slack Web API and the sandbox: a message with links to an app's unfurl
// domains reaches the app as a `link_shared` event, and the app may answer with chat.unfurl for those
// links of that message only. From Slack's reference pages (events/link_shared, methods/chat.unfurl):
// a message Slack does not know is `cannot_find_message`, a URL that was not shared in it is
// `cannot_unfurl_url`. Each unfurl's blocks are held to a message's Block Kit rules, since Slack shows
// them as one: its reference lists no error for them, but it answers `invalid_blocks` with the
// problems in response_metadata, as for chat.postMessage (seen in slackapi/java-slack-sdk#948 and
// slackapi/bolt-js#1667), so an unfurl is refused with what a message with those blocks is refused with.
import { blockTextLength } from '../../src/slack/block-kit/message-budget.js';
import { MAX_BLOCK_TEXT, messageProblems } from './block-kit-rules.js';

interface SharedMessage {
  channel: string;
  ts: string;
  unfurlId: string;
  urls: string[];
}

type Answer = Record<string, unknown> & { ok: boolean };
type Call = { args: Record<string, unknown> };

export interface FakeUnfurls {
  /**
   * A person posts a message with these links: answers the link_shared event Slack sends the app. The
   * sandbox names the message it stored (`ts`); the fake Slack lets a fresh ts stand for it.
   */
  share(input: { channel: string; user: string; urls: string[]; ts?: string }): Record<string, unknown> & {
    type: string;
  };
  /** The shared message a chat.unfurl call names (by channel and ts, or by unfurl_id). */
  messageOf(args: Record<string, unknown>): { channel: string; ts: string } | undefined;
  handlers: Record<string, (call: Call) => Answer>;
}

/** Why Slack refuses a message with these blocks; undefined when it takes them. */
export type BlocksRefusal = (blocks: unknown[]) => Answer | undefined;

/** The sandbox's message rules (slack-standin.ts): Block Kit's limits, then the summed block text. */
const messageBlocksRefusal: BlocksRefusal = (blocks) => {
  const problems = messageProblems({ blocks });
  if (problems.length > 0)
    return { ok: false, error: 'invalid_blocks', response_metadata: { messages: problems } };
  if (blockTextLength(blocks) > MAX_BLOCK_TEXT) return { ok: false, error: 'msg_blocks_too_long' };
  return undefined;
};

/**
 * `blocksRefusal` is how the stand-in refuses a message's blocks (the fake Slack passes its own, whose
 * rules a test may relax by name).
 */
export function createFakeUnfurls(
  nextTs: () => string,
  blocksRefusal: BlocksRefusal = messageBlocksRefusal,
): FakeUnfurls {
  const messages: SharedMessage[] = [];
  const find = (args: Record<string, unknown>) =>
    messages.find(
      (candidate) =>
        (candidate.channel === args.channel && candidate.ts === args.ts) ||
        (args.unfurl_id !== undefined && candidate.unfurlId === args.unfurl_id),
    );
  return {
    share({ channel, user, urls, ts = nextTs() }) {
      const unfurlId = `C-${ts}`;
      messages.push({ channel, ts, unfurlId, urls });
      return {
        type: 'link_shared',
        channel,
        is_bot_user_member: true,
        user,
        message_ts: ts,
        unfurl_id: unfurlId,
        source: 'conversations_history',
        links: urls.map((url) => ({ domain: new URL(url).hostname, url })),
      };
    },
    messageOf: (args) => {
      const message = find(args);
      return message && { channel: message.channel, ts: message.ts };
    },
    handlers: {
      'chat.unfurl': ({ args }) => {
        const message = find(args);
        if (message === undefined) return { ok: false, error: 'cannot_find_message' };
        const unfurls = args.unfurls;
        if (typeof unfurls !== 'object' || unfurls === null) return { ok: false, error: 'invalid_arguments' };
        for (const [url, unfurl] of Object.entries(unfurls)) {
          if (!message.urls.includes(url)) return { ok: false, error: 'cannot_unfurl_url' };
          const blocks = (unfurl as { blocks?: unknown } | null)?.blocks;
          const refusal = Array.isArray(blocks) ? blocksRefusal(blocks) : undefined;
          if (refusal !== undefined) return refusal;
        }
        return { ok: true };
      },
    },
  };
}

// Link unfurling as Slack does it, for the fake Slack Web API and the sandbox: a message with links to an app's unfurl
// domains reaches the app as a `link_shared` event, and the app may answer with chat.unfurl for those
// links of that message only. From Slack's reference pages (events/link_shared, methods/chat.unfurl):
// a message Slack does not know is `cannot_find_message`, a URL that was not shared in it is
// `cannot_unfurl_url`, an unfurl of more than 50 blocks is `invalid_blocks`.

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

const MAX_BLOCKS = 50;

export function createFakeUnfurls(nextTs: () => string): FakeUnfurls {
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
          const blocks = (unfurl as { blocks?: unknown }).blocks;
          if (Array.isArray(blocks) && blocks.length > MAX_BLOCKS)
            return { ok: false, error: 'invalid_blocks' };
        }
        return { ok: true };
      },
    },
  };
}

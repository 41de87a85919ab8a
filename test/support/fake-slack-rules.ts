// What Slack refuses, for the fake Slack Web API: its documented limits on messages and views (the
// sandbox's Block Kit rules, so the two stand-ins refuse alike), the undocumented cap on a message's
// summed block text, trigger_ids, view hashes, which messages exist, response_url uses, who may see an
// ephemeral message, the per-channel posting pace and the workspace's chat.update budget. Every rule holds by default; a test turns one
// off only by name and with a reason (`fakeSlack.relax('channelPace', 'why')`), so a grep for
// `relax(` lists every place a test lets through what Slack would not.
import { blockTextLength } from '../../src/slack/block-kit/message-budget.js';
import { MAX_BLOCK_TEXT, messageProblems, viewProblems } from '../../tools/sandbox/block-kit-rules.js';
import { createChannelPace, createUpdatePace } from '../../tools/sandbox/channel-pace.js';

export type FakeSlackRule =
  /** Block Kit's per-field and per-message limits (`invalid_blocks`; `invalid_arguments` for views). */
  | 'blockKit'
  /** The summed text of a message's blocks (`msg_blocks_too_long`). */
  | 'blockText'
  /** A trigger_id opens one view, within 3 s of the click (`invalid_trigger_id`, `expired_trigger_id`). */
  | 'triggers'
  /** `views.update` names a view that exists, with its current hash when a hash is sent (`hash_conflict`). */
  | 'viewHash'
  /** `chat.update` and `chat.delete` need a message that was posted, and not ephemerally. */
  | 'knownMessages'
  /** A response_url takes 5 posts within 30 minutes (`used_url`, `expired_url`). */
  | 'responseUrlUses'
  /** An ephemeral message goes only to someone in the conversation (`user_not_in_channel`). */
  | 'ephemeralAudience'
  /** About one chat.postMessage a second per channel after a small burst, then HTTP 429. */
  | 'channelPace'
  /** chat.update is Tier 3: about 50 a minute per app per workspace after a burst, then HTTP 429. */
  | 'updatePace';

type SlackAnswer = Record<string, unknown> & { ok: boolean };

/** A refusal of a whole request by HTTP status, as Slack's rate limiter and response_urls answer. */
export interface HttpRefusal {
  status: number;
  retryAfterSeconds?: number;
  body: SlackAnswer;
}

// chat.postMessage's `text` argument.
const MAX_MESSAGE_TEXT = 40_000;
const TRIGGER_TTL_MS = 3000;
const RESPONSE_URL_USES = 5;
const RESPONSE_URL_TTL_MS = 30 * 60_000;

const refuse = (error: string, messages?: string[]): SlackAnswer =>
  messages && messages.length > 0
    ? { ok: false, error, response_metadata: { messages } }
    : { ok: false, error };

interface PostedMessage {
  ephemeral: boolean;
}

export interface FakeSlackRules {
  relax(rule: FakeSlackRule, reason: string): void;
  /** Every rule holds again (each test relaxes its own). */
  restore(): void;
  /** Why Slack refuses this message (chat.postMessage/update/postEphemeral, a response_url post). */
  messageRefusal(args: Record<string, unknown>): SlackAnswer | undefined;
  /** Why Slack refuses this view (views.open/update/publish/push). */
  viewRefusal(view: Record<string, unknown>): SlackAnswer | undefined;
  issueTrigger(): string;
  /** Spends a trigger_id; the refusal when Slack would not take it. */
  useTrigger(triggerId: string | undefined): SlackAnswer | undefined;
  /** A view Slack shows (opened, published, or sent to the app in a payload) with its current hash. */
  viewShown(view: { id: string; hash: string; external_id?: string }): void;
  /** Checks a views.update; the view's id when Slack would take it. */
  viewUpdate(
    ref: { viewId?: string | undefined; externalId?: string | undefined },
    hash: string | undefined,
  ): SlackAnswer | { id: string };
  /** A message that exists in Slack, posted by anyone (a click names one). */
  messageShown(channel: string, ts: string, ephemeral?: boolean): void;
  /** Why chat.update or chat.delete of this message is refused. */
  changeRefusal(channel: string, ts: string): SlackAnswer | undefined;
  /** Counts a post to a response_url; the refusal when it is one too many or too late. */
  useResponseUrl(id: string): HttpRefusal | undefined;
  responseUrlIssued(id: string): void;
  /** Declares who is in a conversation; until then everyone is (a DM holds only its person). */
  setMembers(channel: string, userIds: string[]): void;
  ephemeralRefusal(channel: string, userId: string): SlackAnswer | undefined;
  /** Takes one post from the channel's allowance; the 429 when it is spent. */
  pace(channel: string): HttpRefusal | undefined;
  /** Takes one chat.update from the workspace's (the token's) Tier 3 budget; the 429 when it is spent. */
  updatePace(workspace: string): HttpRefusal | undefined;
  /** Forgets the pace of every channel and workspace (a reset between tests: real time has passed in Slack). */
  resetPace(): void;
}

export function createFakeSlackRules(now: () => number = () => Date.now()): FakeSlackRules {
  const relaxed = new Map<FakeSlackRule, string>();
  const holds = (rule: FakeSlackRule) => !relaxed.has(rule);
  const triggers = new Map<string, { issuedAt: number; used: boolean }>();
  const views = new Map<string, { hash: string; externalId: string | undefined }>();
  const messages = new Map<string, PostedMessage>();
  const responseUrls = new Map<string, { issuedAt: number; uses: number }>();
  const members = new Map<string, Set<string>>();
  // The sandbox's pace (tools/sandbox/channel-pace.ts), so the two stand-ins rate limit alike.
  const channelPace = createChannelPace(now);
  const updatePace = createUpdatePace(now);
  let triggerSequence = 0;

  return {
    relax(rule, reason) {
      if (reason.trim() === '') throw new Error(`fake Slack: relaxing ${rule} needs a reason`);
      relaxed.set(rule, reason);
    },
    restore: () => relaxed.clear(),

    messageRefusal(args) {
      if (holds('blockKit')) {
        if (typeof args.text === 'string' && args.text.length > MAX_MESSAGE_TEXT)
          return refuse('msg_too_long');
        const problems = messageProblems({ blocks: args.blocks });
        if (problems.length > 0) return refuse('invalid_blocks', problems);
      }
      if (holds('blockText') && blockTextLength(args.blocks) > MAX_BLOCK_TEXT) {
        return refuse('msg_blocks_too_long');
      }
      return undefined;
    },

    viewRefusal(view) {
      if (!holds('blockKit')) return undefined;
      const problems = viewProblems(view);
      return problems.length > 0 ? refuse('invalid_arguments', problems) : undefined;
    },

    issueTrigger() {
      triggerSequence += 1;
      // Slack's trigger ids look like `<number>.<number>.<hex>`; apps treat them as opaque.
      const id = `${triggerSequence}.${Math.floor(now() / 1000)}.${triggerSequence.toString(16).padStart(8, '0')}`;
      triggers.set(id, { issuedAt: now(), used: false });
      return id;
    },

    useTrigger(triggerId) {
      if (triggerId === undefined) return refuse('invalid_arguments');
      if (!holds('triggers')) return undefined;
      const trigger = triggers.get(triggerId);
      if (trigger === undefined || trigger.used) return refuse('invalid_trigger_id');
      if (now() - trigger.issuedAt > TRIGGER_TTL_MS) return refuse('expired_trigger_id');
      trigger.used = true;
      return undefined;
    },

    viewShown(view) {
      views.set(view.id, { hash: view.hash, externalId: view.external_id || undefined });
    },

    viewUpdate(ref, hash) {
      let id = ref.viewId;
      if (id === undefined) {
        id = [...views].find(([, view]) => view.externalId === ref.externalId)?.[0];
      }
      if (!holds('viewHash')) return { id: id ?? ref.viewId ?? 'V0UNKNOWN' };
      const view = id === undefined ? undefined : views.get(id);
      if (id === undefined || view === undefined) return refuse('not_found');
      if (hash !== undefined && hash !== view.hash) return refuse('hash_conflict');
      return { id };
    },

    messageShown(channel, ts, ephemeral = false) {
      messages.set(`${channel}/${ts}`, { ephemeral });
    },

    changeRefusal(channel, ts) {
      if (!holds('knownMessages')) return undefined;
      const message = messages.get(`${channel}/${ts}`);
      // Slack keeps no ephemeral message on its side: there is nothing to update or delete.
      if (message === undefined || message.ephemeral) return refuse('message_not_found');
      return undefined;
    },

    responseUrlIssued(id) {
      if (!responseUrls.has(id)) responseUrls.set(id, { issuedAt: now(), uses: 0 });
    },

    useResponseUrl(id) {
      const grant = responseUrls.get(id) ?? { issuedAt: now(), uses: 0 };
      responseUrls.set(id, grant);
      if (!holds('responseUrlUses')) return undefined;
      if (now() - grant.issuedAt > RESPONSE_URL_TTL_MS) return { status: 404, body: refuse('expired_url') };
      if (grant.uses >= RESPONSE_URL_USES) return { status: 404, body: refuse('used_url') };
      grant.uses += 1;
      return undefined;
    },

    setMembers(channel, userIds) {
      members.set(channel, new Set(userIds));
    },

    ephemeralRefusal(channel, userId) {
      if (!holds('ephemeralAudience')) return undefined;
      const declared = members.get(channel);
      // A DM (D + the person's id without its first letter, as the fake names them) holds its person.
      const inChannel = declared
        ? declared.has(userId)
        : !channel.startsWith('D') || channel.slice(1) === userId.slice(1);
      return inChannel ? undefined : refuse('user_not_in_channel');
    },

    pace(channel) {
      if (!holds('channelPace')) return undefined;
      const retryAfterSeconds = channelPace.take(channel);
      if (retryAfterSeconds === undefined) return undefined;
      return { status: 429, retryAfterSeconds, body: refuse('ratelimited') };
    },

    updatePace(workspace) {
      if (!holds('updatePace')) return undefined;
      const retryAfterSeconds = updatePace.take(workspace);
      if (retryAfterSeconds === undefined) return undefined;
      return { status: 429, retryAfterSeconds, body: refuse('ratelimited') };
    },

    resetPace() {
      channelPace.reset();
      updatePace.reset();
    },
  };
}

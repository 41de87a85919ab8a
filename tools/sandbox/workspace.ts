// The sandbox's conversations, in memory: channels and the app's DMs with messages and threads, and
// the ephemeral messages each person alone sees. Every change goes out on the change feed, tagged so
// that a person only hears about conversations they are in.
import type { ChangeFeed, WorkspaceChange } from './change-feed.js';
import {
  type ChannelKind,
  directMessageChannelId,
  SANDBOX_APP,
  SANDBOX_CHANNELS,
  SANDBOX_PEOPLE,
  SANDBOX_TEAM,
  type SandboxPerson,
} from './sandbox-identity.js';

export type Author = { kind: 'bot' } | { kind: 'user'; userId: string } | { kind: 'slackbot' };

/** A message as the page renders it (ephemeral ones included). */
export interface PageMessage {
  ts: string;
  channel: string;
  /** Set on thread replies and on a thread's parent (equal to ts there), as Slack does. */
  threadTs: string | null;
  author: Author;
  text: string;
  blocks: unknown[];
  replyCount: number;
  replyUsers: string[];
  edited: boolean;
  ephemeral: boolean;
  /** The app's unfurls of links in a person's message (chat.unfurl), shown under it, one per URL. */
  unfurls: { url: string; blocks: unknown[] }[];
}

interface Channel {
  id: string;
  name: string;
  kind: ChannelKind;
  botIsMember: boolean;
  topic: string;
  /** People in it; the app's DM has exactly one. */
  members: string[];
}

export interface MessageContent {
  text: string;
  blocks: unknown[];
}

export interface Workspace {
  readonly people: readonly SandboxPerson[];
  person(userId: string): SandboxPerson | undefined;
  /** Every person gets the browser's time zone: one person drives them all. */
  timeZone(): string;
  setTimeZone(timeZone: string): void;
  channels(): Channel[];
  /** A channel id, or a person's id for the app's DM with them (chat.postMessage accepts both). */
  conversation(idOrUser: string): Channel | undefined;
  isMember(channelId: string, userId: string): boolean;
  post(channelId: string, author: Author, content: MessageContent, threadTs?: string): PageMessage;
  message(channelId: string, ts: string): PageMessage | undefined;
  update(channelId: string, ts: string, content: MessageContent): PageMessage | undefined;
  delete(channelId: string, ts: string): boolean;
  /** Attaches the app's unfurls to a message; a URL unfurled again has its unfurl replaced, as Slack does. */
  unfurl(channelId: string, ts: string, unfurls: PageMessage['unfurls']): PageMessage | undefined;
  postEphemeral(
    channelId: string,
    userId: string,
    author: Author,
    content: MessageContent,
    threadTs?: string,
  ): PageMessage;
  ephemeral(userId: string, ts: string): PageMessage | undefined;
  replaceEphemeral(userId: string, ts: string, content: MessageContent): PageMessage | undefined;
  deleteEphemeral(userId: string, ts: string): boolean;
  /** What one person sees: their conversations, their messages and their ephemeral messages. */
  snapshotFor(userId: string): { channels: Channel[]; messages: PageMessage[]; ephemerals: PageMessage[] };
  /** Whether a change concerns a conversation (or a person) this person may see. */
  visibleTo(change: WorkspaceChange, userId: string): boolean;
  /** A Slack message timestamp: unique and increasing. */
  nextTs(): string;
}

export interface WorkspaceOptions {
  feed: ChangeFeed;
  now: () => number;
  /** Oldest messages beyond this many per conversation are dropped, so a long demo stays small. */
  maxMessagesPerChannel?: number;
}

const DEFAULT_MAX_MESSAGES = 1000;
const MAX_EPHEMERALS_PER_PERSON = 200;

export function createWorkspace({
  feed,
  now,
  maxMessagesPerChannel = DEFAULT_MAX_MESSAGES,
}: WorkspaceOptions): Workspace {
  const everyone = SANDBOX_PEOPLE.map((person) => person.id);
  const channels = new Map<string, Channel>();
  for (const seed of SANDBOX_CHANNELS) channels.set(seed.id, { ...seed, members: [...everyone] });
  for (const person of SANDBOX_PEOPLE) {
    const id = directMessageChannelId(person.id);
    channels.set(id, {
      id,
      name: SANDBOX_APP.name,
      kind: 'im',
      botIsMember: true,
      topic: 'Messages from the app',
      members: [person.id],
    });
  }
  const messages = new Map<string, PageMessage[]>([...channels.keys()].map((id) => [id, []]));
  const ephemerals = new Map<string, PageMessage[]>(everyone.map((id) => [id, []]));
  let timeZone = 'UTC';
  let lastMicros = 0;

  const nextTs = (): string => {
    lastMicros = Math.max(Math.floor(now() * 1000), lastMicros + 1);
    return `${Math.floor(lastMicros / 1e6)}.${String(lastMicros % 1e6).padStart(6, '0')}`;
  };

  const find = (channelId: string, ts: string) => messages.get(channelId)?.find((m) => m.ts === ts);
  const copy = (message: PageMessage): PageMessage => structuredClone(message);

  const conversation = (idOrUser: string): Channel | undefined =>
    channels.get(idOrUser) ??
    (SANDBOX_PEOPLE.some((person) => person.id === idOrUser)
      ? channels.get(directMessageChannelId(idOrUser))
      : undefined);

  const isMember = (channelId: string, userId: string): boolean =>
    channels.get(channelId)?.members.includes(userId) ?? false;

  const visibleTo = (change: WorkspaceChange, userId: string): boolean => {
    switch (change.type) {
      case 'message':
        return isMember(change.message.channel, userId);
      case 'message_deleted':
        return isMember(change.channel, userId);
      case 'clock':
        return true;
      default:
        return change.userId === userId;
    }
  };

  return {
    people: SANDBOX_PEOPLE,
    person: (userId) => SANDBOX_PEOPLE.find((person) => person.id === userId),
    timeZone: () => timeZone,
    setTimeZone(zone) {
      timeZone = zone;
    },
    channels: () => [...channels.values()].map((channel) => ({ ...channel, members: [...channel.members] })),
    conversation,
    isMember,

    post(channelId, author, content, threadTs) {
      const list = messages.get(channelId);
      if (!list) throw new Error(`sandbox workspace: no channel ${channelId}`);
      const parent = threadTs === undefined ? undefined : find(channelId, threadTs);
      // Slack treats a reply to a reply as a reply to the thread, and ignores an unknown thread_ts.
      const root = parent === undefined ? undefined : find(channelId, parent.threadTs ?? parent.ts);
      const message: PageMessage = {
        ts: nextTs(),
        channel: channelId,
        threadTs: root?.ts ?? null,
        author,
        ...content,
        replyCount: 0,
        replyUsers: [],
        edited: false,
        ephemeral: false,
        unfurls: [],
      };
      list.push(message);
      if (list.length > maxMessagesPerChannel) list.splice(0, list.length - maxMessagesPerChannel);
      feed.emit({ type: 'message', message: copy(message) });
      if (root) {
        root.threadTs = root.ts;
        root.replyCount += 1;
        const replier = author.kind === 'user' ? author.userId : SANDBOX_APP.botUserId;
        if (!root.replyUsers.includes(replier)) root.replyUsers.push(replier);
        feed.emit({ type: 'message', message: copy(root) });
      }
      return copy(message);
    },

    message: (channelId, ts) => {
      const found = find(channelId, ts);
      return found && copy(found);
    },

    update(channelId, ts, content) {
      const found = find(channelId, ts);
      if (!found) return undefined;
      Object.assign(found, content, { edited: true });
      feed.emit({ type: 'message', message: copy(found) });
      return copy(found);
    },

    unfurl(channelId, ts, unfurls) {
      const found = find(channelId, ts);
      if (!found) return undefined;
      for (const unfurl of unfurls) {
        const index = found.unfurls.findIndex((existing) => existing.url === unfurl.url);
        if (index < 0) found.unfurls.push(unfurl);
        else found.unfurls[index] = unfurl;
      }
      feed.emit({ type: 'message', message: copy(found) });
      return copy(found);
    },

    delete(channelId, ts) {
      const list = messages.get(channelId);
      const index = list?.findIndex((message) => message.ts === ts) ?? -1;
      if (!list || index < 0) return false;
      list.splice(index, 1);
      feed.emit({ type: 'message_deleted', channel: channelId, ts });
      return true;
    },

    postEphemeral(channelId, userId, author, content, threadTs) {
      const list = ephemerals.get(userId);
      if (!list) throw new Error(`sandbox workspace: no person ${userId}`);
      const message: PageMessage = {
        ts: nextTs(),
        channel: channelId,
        threadTs: threadTs ?? null,
        author,
        ...content,
        replyCount: 0,
        replyUsers: [],
        edited: false,
        ephemeral: true,
        unfurls: [],
      };
      list.push(message);
      if (list.length > MAX_EPHEMERALS_PER_PERSON) list.splice(0, list.length - MAX_EPHEMERALS_PER_PERSON);
      feed.emit({ type: 'ephemeral', userId, message: copy(message) });
      return copy(message);
    },

    ephemeral: (userId, ts) => {
      const found = ephemerals.get(userId)?.find((message) => message.ts === ts);
      return found && copy(found);
    },

    replaceEphemeral(userId, ts, content) {
      const found = ephemerals.get(userId)?.find((message) => message.ts === ts);
      if (!found) return undefined;
      Object.assign(found, content);
      feed.emit({ type: 'ephemeral', userId, message: copy(found) });
      return copy(found);
    },

    deleteEphemeral(userId, ts) {
      const list = ephemerals.get(userId);
      const index = list?.findIndex((message) => message.ts === ts) ?? -1;
      if (!list || index < 0) return false;
      const [removed] = list.splice(index, 1);
      feed.emit({ type: 'ephemeral_deleted', userId, channel: removed?.channel ?? '', ts });
      return true;
    },

    snapshotFor(userId) {
      const visible = [...channels.values()].filter((channel) => channel.members.includes(userId));
      return {
        channels: visible.map((channel) => ({ ...channel, members: [...channel.members] })),
        messages: visible.flatMap((channel) => (messages.get(channel.id) ?? []).map(copy)),
        ephemerals: (ephemerals.get(userId) ?? []).map(copy),
      };
    },

    visibleTo,
    nextTs,
  };
}

/** A stored message as Slack's API and interaction payloads show it. */
export function toSlackMessage(message: PageMessage): Record<string, unknown> {
  const author =
    message.author.kind === 'user'
      ? { user: message.author.userId }
      : { user: SANDBOX_APP.botUserId, bot_id: SANDBOX_APP.botId, app_id: SANDBOX_APP.appId };
  return {
    type: 'message',
    ...author,
    team: SANDBOX_TEAM.id,
    text: message.text,
    blocks: message.blocks,
    ts: message.ts,
    ...(message.threadTs === null ? {} : { thread_ts: message.threadTs }),
    ...(message.replyCount > 0
      ? {
          reply_count: message.replyCount,
          reply_users_count: message.replyUsers.length,
          reply_users: message.replyUsers,
        }
      : {}),
    // Slack keeps app unfurls as the message's attachments, each marked with the URL it unfurls.
    ...(message.unfurls.length > 0
      ? {
          attachments: message.unfurls.map((unfurl, index) => ({
            id: index + 1,
            app_unfurl_url: unfurl.url,
            is_app_unfurl: true,
            blocks: unfurl.blocks,
          })),
        }
      : {}),
    ...(message.edited ? { edited: { user: SANDBOX_APP.botUserId, ts: message.ts } } : {}),
  };
}

// Who and what exists in the sandbox workspace: the team, the app, three people (each paired with a
// demo account of the emulator's built-in seed, so one person can try sharing and permissions by
// switching between them) and the channels they meet in.

export const SANDBOX_TEAM = { id: 'T0SANDBOX', domain: 'sandbox', name: 'Sandbox workspace' } as const;

/** The app as Slack names it: the bot user, the bot and the app id that payloads carry. */
export const SANDBOX_APP = {
  appId: 'A0PSAPP',
  botId: 'B0PSBOT',
  botUserId: 'U0PSBOT',
  /** display_information.name in manifest.yml. */
  name: 'Paperspace Ops',
  /** bot_user.display_name in manifest.yml. */
  handle: 'paperspace',
} as const;

export interface SandboxPerson {
  id: string;
  /** The @handle typed in mentions. */
  handle: string;
  realName: string;
  /** The Slack profile e-mail (users:read.email): the emulator user's, so a team key links to them. */
  email: string;
  /** The emulator user whose demo API key fits this person. */
  emulatorUserId: string;
  /** A Slack workspace admin (users.info is_admin): may change the workspace's settings. */
  workspaceAdmin: boolean;
}

/** Same Slack ids as the end-to-end tests use (test/support/test-bot.ts), so logs read alike. */
export const SANDBOX_PEOPLE: readonly SandboxPerson[] = [
  {
    id: 'U0ADA',
    handle: 'ada',
    realName: 'Ada Park',
    email: 'ada.park@example.com',
    emulatorUserId: 'u1ada',
    workspaceAdmin: false,
  },
  {
    id: 'U0MAYA',
    handle: 'maya',
    realName: 'Maya Chen',
    email: 'maya.chen@orbital.example',
    emulatorUserId: 'u1maya',
    workspaceAdmin: true,
  },
  {
    id: 'U0SAM',
    handle: 'sam',
    realName: 'Sam Rivera',
    email: 'sam.rivera@orbital.example',
    emulatorUserId: 'u1sam',
    workspaceAdmin: false,
  },
];

export type ChannelKind = 'public' | 'private' | 'im';

export interface ChannelSeed {
  id: string;
  name: string;
  kind: ChannelKind;
  /** Whether the app was added. A public channel takes posts anyway (chat:write.public); a private one does not. */
  botIsMember: boolean;
  topic: string;
}

const GENERAL_CHANNEL_ID = 'C0GENERAL';

export const SANDBOX_CHANNELS: readonly ChannelSeed[] = [
  {
    id: GENERAL_CHANNEL_ID,
    name: 'general',
    kind: 'public',
    botIsMember: true,
    topic: 'Type /ps help to begin',
  },
  {
    id: 'G0PRIVATE',
    name: 'private-lab',
    kind: 'private',
    botIsMember: false,
    topic: 'A private channel the app was not added to: its posts go to your DM instead',
  },
];

/** The app's DM with a person (its Messages tab), as Slack names IM channels. */
export function directMessageChannelId(userId: string): string {
  return `D${userId.slice(1)}`;
}

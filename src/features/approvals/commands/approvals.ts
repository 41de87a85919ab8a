// /ps approvals <#channel|off> [--expires 24h]: where the create requests of the person's Paperspace
// team are posted, and how long requests stay open. Audited: it changes who sees requests. Only Slack
// workspace admins and owners may set it (slack/workspace-admin.ts: it posts into the workspace's
// channels), and it is refused to a person Paperspace shows is not an administrator (domain/team-role.ts); when Paperspace does not say,
// the setting is allowed, as Paperspace then judges each approval made under it.

import { z } from 'zod';
import { teamRoleOf } from '../../../domain/team-role.js';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import type { CommandContext } from '../../../slack/command-context.js';
import {
  accept,
  fail,
  type OptionSpec,
  splitWithoutKeyValues,
  tooMany,
} from '../../../slack/command-language/command-arguments.js';
import { parseDuration } from '../../../slack/command-language/duration.js';
import { echo } from '../../../slack/command-language/echo.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { requireWorkspaceAdmin, WORKSPACE_ADMINS_ONLY } from '../../../slack/workspace-admin.js';
import type { ApprovalsDeps } from '../approvals-deps.js';
import { DEFAULT_REQUEST_LIFETIME_MS } from '../request-delivery.js';

const reply = plainMessage;

const EXPIRES: OptionSpec = { name: '--expires', takesValue: true };
/** A request left open longer than a week is forgotten rather than decided. */
const MAX_REQUEST_LIFETIME_MS = 7 * 24 * 3_600_000;

/** `channel` null: requests go to each administrator's DM again; `lifetimeMs` null: the default. */
type ApprovalsParams = { channel: string | null; lifetimeMs: number | null };

export const approvalsOperation = defineOperation({
  name: 'approvals',
  usage: `${ps} approvals <#channel|off> [--expires 24h]`,
  summary:
    "Administrators: post your team's create requests (and those waiting for an owner who has not linked a key) in a channel (off: create requests to each administrator's DM), and how long requests stay open.",
  help: {
    parameters: [
      "`#channel`: post the team's requests there; `off`: to each administrator's DM.",
      '`--expires 24h`: how long a request stays open (at most 7 days).',
    ],
    examples: [`${ps} approvals #gpu-requests`, `${ps} approvals off --expires 8h`],
    effect: `Changes where your team's create requests go and how long they wait. ${WORKSPACE_ADMINS_ONLY}`,
  },
  kind: 'change',
  params: z.object({
    channel: z
      .string()
      .min(1)
      .nullable()
      .describe("The Slack channel id for requests, or null for each administrator's DM."),
    lifetimeMs: z
      .number()
      .int()
      .positive()
      .max(MAX_REQUEST_LIFETIME_MS)
      .nullable()
      .describe('How long a request stays open, in milliseconds, or null for the default.'),
  }),
  read(args) {
    const split = splitWithoutKeyValues('approvals', args, [EXPIRES]);
    if (!split.ok) return split;
    const [where] = split.args.positionals;
    if (where === undefined)
      return fail("Missing <#channel>: pick the channel from Slack's # list, or say off.");
    const extra = tooMany('approvals', split.args.positionals, 1, 'one channel');
    if (extra !== null) return extra;
    let channel: string | null = null;
    if (where.text.toLowerCase() !== 'off') {
      if (where.slackChannelId === undefined) {
        return fail(
          `Cannot tell which channel ${echo(where.text)} is: pick it from Slack's # list so it is sent as a link.`,
        );
      }
      channel = where.slackChannelId;
    }
    let lifetimeMs: number | null = null;
    const typedExpiry = split.args.options.get(EXPIRES.name);
    if (typeof typedExpiry === 'string') {
      const duration = parseDuration(typedExpiry, MAX_REQUEST_LIFETIME_MS);
      if (!duration.ok) return fail(`Invalid --expires ${echo(typedExpiry)}: ${duration.error}.`);
      lifetimeMs = duration.ms;
    }
    return accept({ channel, lifetimeMs });
  },
  run: routeRequests,
});

async function routeRequests(
  command: ApprovalsParams,
  context: CommandContext,
  deps: ApprovalsDeps,
): Promise<void> {
  const { user } = context;
  const account = await deps.vault.account(user);
  if (!account) {
    // Shows the login prompt: settings belong to a Paperspace team, known only from a linked key.
    await context.userClient();
    return;
  }
  if (!account.teamId) {
    return context.replyPrivately(
      reply('Your Paperspace account is not a team account: it has no requests to route.'),
    );
  }
  const teamId = account.teamId;
  await requireWorkspaceAdmin(
    { web: context.web, userId: user.userId, logger: deps.logger },
    "choose where your team's requests go",
  );
  const client = await context.userClient();
  if (!client) return;
  // It decides who sees the team's requests: an administrator's setting, as far as Paperspace tells.
  if ((await teamRoleOf(deps, { user, client, paperspaceUserId: account.userId })).role === 'member') {
    return context.replyPrivately(
      reply(
        "Only your team's administrators can choose where requests go, and Paperspace says you are a member. Ask an administrator to run this.",
      ),
    );
  }
  await deps.audit.run(
    {
      user,
      action: 'approval.settings',
      note: `channel ${command.channel ?? 'off'}, lifetime ${command.lifetimeMs ?? 'default'}`,
    },
    () =>
      deps.store.approvals.setSettings({
        teamId: user.teamId,
        paperspaceTeamId: teamId,
        settings: { channel: command.channel, lifetimeMs: command.lifetimeMs },
        setBy: user.userId,
        at: deps.now(),
      }),
  );
  const hours = (command.lifetimeMs ?? DEFAULT_REQUEST_LIFETIME_MS) / 3_600_000;
  const where = command.channel
    ? `posted in <#${command.channel}>, as are requests waiting for an owner who has not linked a key (invite me there with \`/invite\` if I am not a member)`
    : "sent to each administrator's direct messages";
  await context.replyPrivately(
    reply(`✅ Create requests of your team are now ${where}. Requests stay open for ${hours} hours.`),
  );
}

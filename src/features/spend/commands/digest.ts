// /ps digest <#channel> <daily|weekly> <HH:MM>: an administrator sets the team digest: a Slack
// workspace admin (it posts into a channel of the workspace) whose key Paperspace shows administers
// the team (it lists the team's machines). It is stored
// with who set it (their key lists the team's machines when it is posted) and their Slack time zone;
// the scheduler picks it up on its next tick, on every replica.

import { z } from 'zod';
import { requireAdministrator } from '../../../domain/team-role.js';
import { UserFacingError } from '../../../errors/user-facing-error.js';
import { isKnownTimeZone, nextFireTime } from '../../../scheduler/cron-engine.js';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import { escapeMrkdwn, isoMinutes, slackDate } from '../../../slack/block-kit/text.js';
import type { CommandContext } from '../../../slack/command-context.js';
import {
  accept,
  fail,
  splitWithoutKeyValues,
  tooMany,
} from '../../../slack/command-language/command-arguments.js';
import { parseTimeOfDay } from '../../../slack/command-language/command-values.js';
import { echo } from '../../../slack/command-language/echo.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { userTimeZone } from '../../../slack/user-time-zone.js';
import { requireWorkspaceAdmin, WORKSPACE_ADMINS_ONLY } from '../../../slack/workspace-admin.js';
import type { SpendDeps } from '../spend-deps.js';

/**
 * The team digest in `channel`; `time` is `HH:MM` in the administrator's time zone, `cron` the
 * five-field expression built from it (weekly: Mondays). `timezone` null: the administrator's Slack
 * time zone; otherwise an IANA name as typed, which the command checks.
 */
type DigestParams = {
  channel: string;
  schedule: 'daily' | 'weekly';
  time: string;
  cron: string;
  timezone: string | null;
};

export const digestOperation = defineOperation({
  name: 'digest',
  usage: `${SLASH_COMMAND} digest <#channel> <daily|weekly> <HH:MM> [time zone]`,
  summary:
    "Post the team's running machines, their owners and the month's spend per person in a channel, daily or every Monday, in your time zone or the one given (Europe/Berlin) (team administrators).",
  help: {
    parameters: [
      '`#channel`: where it is posted.',
      '`daily` or `weekly` (Mondays).',
      '`HH:MM`: when, in your Slack time zone, or `[time zone]` given (`Europe/Berlin`).',
    ],
    examples: [
      `${SLASH_COMMAND} digest #ops daily 09:00`,
      `${SLASH_COMMAND} digest #ops weekly 08:30 America/New_York`,
    ],
    effect: `Posts the team's running machines (with Stop) and the month's spend per person in that channel, using your key. ${WORKSPACE_ADMINS_ONLY}`,
  },
  kind: 'change',
  params: z.object({
    channel: z.string().min(1).describe('The Slack channel id to post the digest in.'),
    schedule: z.enum(['daily', 'weekly']).describe('Every day, or every Monday.'),
    time: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
      .describe('The time of day, HH:MM.'),
    cron: z.string().describe('The five-field cron expression of the time and the days.'),
    timezone: z
      .string()
      .nullable()
      .describe("An IANA time zone (Europe/Berlin), or null for the person's own."),
  }),
  read(args) {
    const split = splitWithoutKeyValues('digest', args);
    if (!split.ok) return split;
    const [where, scheduleToken, timeToken, zoneToken] = split.args.positionals;
    if (where === undefined)
      return fail("Missing <#channel>: pick the channel from Slack's # list, or say off.");
    if (where.slackChannelId === undefined) {
      return fail(
        `Cannot tell which channel ${echo(where.text)} is: pick it from Slack's # list so it is sent as a link.`,
      );
    }
    const schedule = scheduleToken?.text.toLowerCase();
    if (schedule !== 'daily' && schedule !== 'weekly') {
      return fail(
        scheduleToken === undefined
          ? 'Missing daily or weekly after the channel.'
          : `Invalid schedule ${echo(scheduleToken.text)}: use daily or weekly (Mondays).`,
      );
    }
    if (timeToken === undefined) return fail('Missing <HH:MM>: say when to post it, for example 09:00.');
    const time = parseTimeOfDay(timeToken.text);
    if (!time.ok) return fail(`Invalid time ${echo(timeToken.text)}: ${time.error}.`);
    const extra = tooMany(
      'digest',
      split.args.positionals,
      4,
      'a channel, daily or weekly, a time and a time zone',
    );
    if (extra !== null) return extra;
    const { hour, minute } = time.value;
    return accept({
      channel: where.slackChannelId,
      schedule,
      time: time.value.time,
      cron: `${minute} ${hour} * * ${schedule === 'weekly' ? '1' : '*'}`,
      timezone: zoneToken?.text ?? null,
    });
  },
  run: setDigest,
});

async function setDigest(command: DigestParams, context: CommandContext, deps: SpendDeps): Promise<void> {
  const client = await context.userClient();
  if (!client) return;
  const { user } = context;
  await requireWorkspaceAdmin(
    { web: context.web, userId: user.userId, logger: deps.logger },
    'set the team digest',
  );
  const account = await requireAdministrator(deps, user, client, 'set the team digest');
  // A channel has no time zone: without one typed, the administrator's own is used.
  const zone =
    command.timezone === null
      ? await userTimeZone({
          web: context.web,
          userId: user.userId,
          usable: isKnownTimeZone,
          logger: deps.logger,
        })
      : givenTimeZone(command.timezone);
  const label = `${command.schedule === 'daily' ? 'daily' : 'every Monday'} at ${command.time}`;
  const digest = await deps.audit.run(
    { user, action: 'digest.set', note: `in ${command.channel}, ${label} ${zone.timezone}` },
    () =>
      deps.store.teamDigests.put({
        teamId: user.teamId,
        paperspaceTeamId: account.teamId,
        channel: command.channel,
        cron: command.cron,
        timezone: zone.timezone,
        label,
        setBy: user.userId,
        createdAt: deps.now(),
      }),
    (stored) => stored.id,
  );
  const next = nextFireTime(digest.cron, digest.timezone, deps.now());
  const lines = [
    `📋 Team digest set: <#${escapeMrkdwn(command.channel)}>, ${escapeMrkdwn(label)} (${escapeMrkdwn(zone.timezone)}). It replaces any digest your team had.`,
    next === undefined
      ? ''
      : `The first one is ${slackDate(next, '{date_short_pretty} at {time}', isoMinutes(next))}.`,
    "It lists the team's machines with your key: if you unlink it, the digest says so in the channel and stops. " +
      `\`${SLASH_COMMAND} digest off\` ends it.`,
    zone.fellBack
      ? '⚠️ Slack did not tell me your time zone, so the digest uses UTC. Set your time zone in your Slack profile and set the digest again.'
      : '',
  ].filter((line) => line !== '');
  const text = lines.join('\n');
  await context.replyPrivately(plainMessage(text));
}

/** A time zone typed with the command, for a channel whose people live elsewhere than its administrator. */
function givenTimeZone(typed: string): { timezone: string; fellBack: false } {
  if (!isKnownTimeZone(typed)) {
    // Echoed only when it looks like a zone name: anything else could carry Slack markup.
    const named = /^[A-Za-z0-9_+\-/]{1,64}$/.test(typed) ? ` "${typed}"` : '';
    throw new UserFacingError(
      `Unknown time zone${named}: give an IANA name such as Europe/Berlin or America/New_York, or leave it out to use yours.`,
    );
  }
  return { timezone: typed, fellBack: false };
}

// /ps digest <#channel> <daily|weekly> <HH:MM>: an administrator sets the team digest: a Slack
// workspace admin (it posts into a channel of the workspace) whose key Paperspace shows administers
// the team (it lists the team's machines). It is stored
// with who set it (their key lists the team's machines when it is posted) and their Slack time zone;
// the scheduler picks it up on its next tick, on every replica.

import { requireAdministrator } from '../../../domain/team-role.js';
import { UserFacingError } from '../../../errors/user-facing-error.js';
import { isKnownTimeZone, nextFireTime } from '../../../scheduler/cron-engine.js';
import { escapeMrkdwn, isoMinutes, mrkdwn, slackDate } from '../../../slack/block-kit/text.js';
import type { CommandHandler } from '../../../slack/command-context.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';
import { userTimeZone } from '../../../slack/user-time-zone.js';
import { requireWorkspaceAdmin } from '../../../slack/workspace-admin.js';

export const digestCommand: CommandHandler<'digest'> = async (command, context) => {
  const client = await context.userClient();
  if (!client) return;
  const { deps, user } = context;
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
  await context.replyPrivately({ blocks: [{ type: 'section', text: mrkdwn(text) }], text });
};

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

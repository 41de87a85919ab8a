// The one rule that turns the ids Slack sends with a request into the key a person is stored under
// (their linked Paperspace key, watches, reminders, requests), the same on every surface: commands,
// clicks, modals, events, workflow steps, unfurls, and the scheduler that works from what they stored.
//
// On Enterprise Grid a user id is the same in every workspace of the organisation, and an org-wide
// install serves a person from each of them: keyed by workspace, they would have to link again in every
// workspace, and a command (keyed by `command.team_id`) and a click in a channel shared between two
// workspaces (`team.id` is the channel's) would disagree. So a person of an organisation is keyed by the
// organisation. Outside Enterprise Grid user ids are unique within a workspace only, so a person is
// keyed by their own workspace: the user's team where Slack names it (in a shared channel it is not the
// channel's team), else the request's.
import type { SlackUser } from '../store/slack-user.js';

interface PersonIds {
  userId: string;
  /** The Enterprise Grid organisation (`enterprise_id`, `enterprise.id`); null or absent outside one. */
  enterpriseId?: string | null | undefined;
  /** The user's own workspace, where Slack names it (`user.team_id`). */
  userTeamId?: string | null | undefined;
  /** The request's workspace (`team_id`, `team.id`). */
  teamId?: string | null | undefined;
}

const present = (id: string | null | undefined) =>
  id === null || id === undefined || id === '' ? undefined : id;

export function slackPerson({ userId, enterpriseId, userTeamId, teamId }: PersonIds): SlackUser {
  return { teamId: present(enterpriseId) ?? present(userTeamId) ?? present(teamId) ?? '', userId };
}

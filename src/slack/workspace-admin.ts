// Who may change what applies to the whole Slack workspace (the cost alerts' default, where the team's
// requests go, the team digest): the workspace's admins and owners, as Slack itself says
// (users.info's is_admin, is_owner). A Paperspace role is not enough: a person with an individual
// Paperspace account administers that account, not the workspace everyone else works in. Every such
// setting asks here, so none of them can answer differently.
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { describeError } from '../errors/describe-error.js';
import { UserFacingError } from '../errors/user-facing-error.js';

/**
 * Throws a UserFacingError, naming who may, unless Slack says the person is an admin or owner of the
 * workspace. `what` finishes "Only … can …" (e.g. "set this workspace's default").
 */
/** What the help of such a setting says about who may change it. */
export const WORKSPACE_ADMINS_ONLY =
  'Only Slack workspace admins and owners may change it: it applies to the whole workspace.';

export async function requireWorkspaceAdmin(
  request: { web: WebClient; userId: string; logger: Logger },
  what: string,
): Promise<void> {
  let answer: Awaited<ReturnType<WebClient['users']['info']>>;
  try {
    answer = await request.web.users.info({ user: request.userId });
  } catch (error) {
    // Refused rather than assumed: a workspace setting changes what everyone else gets.
    request.logger.warn({ error: describeError(error) }, 'users.info failed; a workspace setting is refused');
    throw new UserFacingError(
      `Only Slack workspace admins and owners can ${what}, and Slack did not tell me whether you are one. Try again in a moment.`,
    );
  }
  if (answer.user?.is_admin === true || answer.user?.is_owner === true) return;
  throw new UserFacingError(
    `Only Slack workspace admins and owners can ${what}: it applies to everyone in this workspace. Ask one of them to run it.`,
  );
}

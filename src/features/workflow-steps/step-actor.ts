// Whose key a step acts with: only the Slack user named in the step's own input, and only once that
// person said yes with `/ps steps on`. A workflow is built by someone and run by a trigger, possibly
// for many people; without their yes it must not spend anyone's Paperspace account. Everything here
// happens before the first Paperspace call, so a refusal sends nothing there.
import { UserFacingError } from '../../errors/user-facing-error.js';
import { SLASH_COMMAND } from '../../slack/ids.js';
import { slackPerson } from '../../slack/slack-person.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Actor } from '../machines/machine-operations.js';
import type { WorkflowStepsDeps } from './workflow-steps-deps.js';

/** A Slack user id as Slack sends it in a `slack#/types/user_id` input. */
const USER_ID = /^[UW][A-Z0-9]{2,}$/;

/** The person a step names in its `user` input; a refusal naming the input when it is not one. */
export function namedPerson(
  where: { enterpriseId: string | undefined; teamId: string },
  input: unknown,
): SlackUser {
  if (typeof input !== 'string' || !USER_ID.test(input)) {
    throw new UserFacingError(
      'This step needs a Slack user in its "Act as" input: choose the person whose Paperspace key it should use.',
    );
  }
  // Keyed as the person's own commands and clicks are, so the step finds the key they linked.
  return slackPerson({ userId: input, ...where });
}

/**
 * The person with their own client, or a UserFacingError saying who must do what. The key comes first:
 * someone who never linked one is told to, not to type `/ps steps on` (which would then ask for it).
 * The person is named by the input, not by a mention: a step's error is shown escaped, as plain words.
 */
export async function stepActor(
  deps: Pick<WorkflowStepsDeps, 'store' | 'clients'>,
  user: SlackUser,
): Promise<Actor> {
  const client = await deps.clients.forUser(user);
  if (client === undefined) {
    throw new UserFacingError(
      `The person this step acts as has no Paperspace key linked: they must type \`${SLASH_COMMAND} login\` in Slack and link their key, then \`${SLASH_COMMAND} steps on\`, before a step can act for them.`,
    );
  }
  if (!(await deps.store.workflowSteps.enabled(user))) {
    throw new UserFacingError(
      `The person this step acts as has not allowed Paperspace steps to act for them: they must type \`${SLASH_COMMAND} steps on\` in Slack first (or the workflow should name someone who did).`,
    );
  }
  return { user, client };
}

// Whose key a step acts with: only the person who asked, that is who started the workflow or clicked a
// button in it, and only once that person said yes with `/ps steps on`. A workflow is built by someone
// and run by a trigger, possibly for many people; whoever builds it must not be able to spend anyone
// else's Paperspace account. Everything here happens before the first Paperspace call, so a refusal
// sends nothing there.
//
// So the person comes from the step's `slack#/types/user_context` input alone (manifest.yml), which
// Slack sets itself from whoever started the workflow or clicked in it: Workflow Builder shows a builder
// no field for it. A `user_id` input would be the builder's to fill with anyone, and function_executed
// names no workflow an allowance could be tied to. Slack sends the context as `{ id, secret }`, the
// secret "a hash used internally by Slack to validate the authenticity of the id": it is Slack's to
// check, not ours. Ours is that the event carrying it is signed with the app's signing secret (the
// request guard and Bolt check that), and that the person comes from nowhere else: a plain user id, or
// an input the installed manifest declares with another type, acts for nobody.
import { z } from 'zod';
import { UserFacingError } from '../../errors/user-facing-error.js';
import { SLASH_COMMAND } from '../../slack/ids.js';
import { slackPerson } from '../../slack/slack-person.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Actor } from '../machines/machine-operations.js';
import type { WorkflowStepsDeps } from './workflow-steps-deps.js';

/** The input that carries the acting person (manifest.yml), and the only type it is taken from. */
const ACTOR_INPUT = 'user';
const USER_CONTEXT = 'slack#/types/user_context';

/** A user context as Slack sends it: a user id (`slack#/types/user_id`'s form) and Slack's secret. */
const userContext = z.object({ id: z.string().regex(/^[UW][A-Z0-9]{2,}$/), secret: z.string().min(1) });

const BUILT_BEFORE =
  "This step was added when the person it acts for was an input a workflow's builder fills in, so it acts for nobody: remove the step and add it again, and Slack will set the person from whoever starts the workflow or clicks its button.";
const NOBODY =
  'This step acts only for the person who started the workflow or clicked a button in it, and Slack named nobody: a workflow that starts on a schedule needs a message with a button before this step.';

/**
 * The person a step acts for: the user context Slack set in its `user` input, declared so by the
 * manifest the run was made from. A refusal saying how to fix the workflow otherwise.
 */
export function actingPerson(
  where: { enterpriseId: string | undefined; teamId: string },
  run: { declared: readonly { name: string; type: string }[]; inputs: Record<string, unknown> },
): SlackUser {
  const declared = run.declared.find((parameter) => parameter.name === ACTOR_INPUT)?.type;
  if (declared !== undefined && declared !== USER_CONTEXT) throw new UserFacingError(BUILT_BEFORE);
  const context = userContext.safeParse(run.inputs[ACTOR_INPUT]);
  if (!context.success) {
    throw new UserFacingError(typeof run.inputs[ACTOR_INPUT] === 'string' ? BUILT_BEFORE : NOBODY);
  }
  // Keyed as the person's own commands and clicks are, so the step finds the key they linked.
  return slackPerson({ userId: context.data.id, ...where });
}

/**
 * The person with their own client, or a UserFacingError saying who must do what. The key comes first:
 * someone who never linked one is told to, not to type `/ps steps on` (which would then ask for it).
 * The person is described, not mentioned: a step's error is shown escaped, as plain words.
 */
export async function stepActor(
  deps: Pick<WorkflowStepsDeps, 'store' | 'clients'>,
  user: SlackUser,
): Promise<Actor> {
  const client = await deps.clients.forUser(user);
  if (client === undefined) {
    throw new UserFacingError(
      `The person this step acts for has no Paperspace key linked: they must link one first with \`${SLASH_COMMAND} login\`, then type \`${SLASH_COMMAND} steps on\`, before a step can act for them.`,
    );
  }
  if (!(await deps.store.workflowSteps.enabled(user))) {
    throw new UserFacingError(
      `The person this step acts for has not allowed Paperspace steps to act for them: they must type \`${SLASH_COMMAND} steps on\` in Slack first.`,
    );
  }
  return { user, client };
}

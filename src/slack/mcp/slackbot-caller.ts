// Who is asking, as Slackbot's MCP client says under Slack identity auth: `params._meta.slack` of a
// tools/call, signed with the request. The ids become the person's key by the same rule as on every
// other surface (slack-person.ts): the organisation on Enterprise Grid, else the workspace.
import { z } from 'zod';
import type { SlackUser } from '../../store/slack-user.js';
import { slackPerson } from '../slack-person.js';

const callerSchema = z.object({
  user_id: z.string().regex(/^[UW][A-Z0-9]+$/),
  team_id: z.string().regex(/^T[A-Z0-9]+$/),
  enterprise_id: z
    .string()
    .regex(/^E[A-Z0-9]+$/)
    .nullish(),
});

export interface SlackbotCaller {
  /** The person, keyed as on every surface. */
  user: SlackUser;
  /** The workspace the call came from (its installation serves it). */
  teamId: string;
  enterpriseId: string | undefined;
}

/** The caller, or undefined when the call carries no Slack identity (not from Slack). */
export function slackbotCaller(meta: unknown): SlackbotCaller | undefined {
  const parsed = callerSchema.safeParse(meta);
  if (!parsed.success) return undefined;
  const { user_id: userId, team_id: teamId, enterprise_id: enterpriseId } = parsed.data;
  return {
    user: slackPerson({ userId, enterpriseId, teamId }),
    teamId,
    enterpriseId: enterpriseId ?? undefined,
  };
}

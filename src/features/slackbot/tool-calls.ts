// What Slackbot's calls do. Each call is checked in the order a person can act on: who is asking (the
// Slack identity the call carries), where (a workspace the app is installed in), how often, what (the
// operation's own schema), and whether they have linked a Paperspace key; nothing reaches Paperspace
// before all of that holds. Then a read runs at once, with the caller's key, as `/ps` runs it, and its
// private answer is the tool's result. A change is only proposed: it waits in the store for the person
// to confirm it in their DM with the bot (proposals.ts). Every call is audited, whatever it came to.
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { WebClient } from '@slack/web-api';
import type { z } from 'zod';
import { UserFacingError } from '../../errors/user-facing-error.js';
import { failureText } from '../../errors/user-message.js';
import { errorMessage } from '../../slack/block-kit/messages.js';
import type { SlackMessage } from '../../slack/block-kit/text.js';
import type { CommandContext } from '../../slack/command-context.js';
import { SLASH_COMMAND } from '../../slack/ids.js';
import { inRequest, slackbotInteraction } from '../../slack/interaction.js';
import type { McpToolHost } from '../../slack/mcp/mcp-endpoint.js';
import { type ToolOperation, toolDefinition, toolOperations } from '../../slack/mcp/operation-tools.js';
import { type SlackbotCaller, slackbotCaller } from '../../slack/mcp/slackbot-caller.js';
import type { SlackbotWorkspace } from '../../slack/mcp/slackbot-workspaces.js';
import { refusal, toolResult } from '../../slack/mcp/tool-result.js';
import type { FrontDoor } from '../feature.js';
import { type CallLimiter, createCallLimiter } from './call-limits.js';
import { proposeChange } from './proposals.js';
import type { SlackbotDeps } from './slackbot-deps.js';

const NO_IDENTITY =
  "I can't tell who is asking: this tool answers only calls from Slack that name the person. Ask in Slack, or use /ps there.";
const NOT_INSTALLED =
  'Paperspace Ops is not installed in this Slack workspace, so I cannot act here. Ask a workspace admin to install it.';
const NOT_LINKED = `You have not linked a Paperspace API key yet. Type \`${SLASH_COMMAND} login\` in Slack to link yours; every action then runs with your own key.`;
const TOO_MANY =
  'You have asked me for a lot in the last minute, so I am pausing here. Try again in a minute, or use /ps in Slack.';

export function slackbotTools(
  deps: SlackbotDeps,
  door: FrontDoor,
  workspaceOf: SlackbotWorkspace,
  limiter: CallLimiter = createCallLimiter(),
): McpToolHost {
  const operations = toolOperations(door.operations);
  const definitions = operations.map(toolDefinition);
  const byName = new Map(operations.map((operation) => [operation.tool.name, operation]));

  return {
    tools: () => definitions,
    async call(name, args, meta) {
      const operation = byName.get(name);
      if (operation === undefined) return refusal(`There is no tool named ${JSON.stringify(name)}.`);
      const caller = slackbotCaller(meta);
      if (caller === undefined) return refusal(NO_IDENTITY);
      const web = await workspaceOf(caller);
      if (web === undefined) return refusal(NOT_INSTALLED);
      const { user } = caller;
      const requestId = randomUUID();
      const logger = deps.logger.child({ requestId, tool: name, user: user.userId });
      // Audited from here on, refusals too: the record's outcome and message say what the person was told.
      try {
        return await deps.audit.run(
          { user, action: `slackbot.${name}`, note: 'asked through Slackbot' },
          async () => {
            if (!limiter.allow(`${user.teamId}:${user.userId}`, deps.now()))
              throw new UserFacingError(TOO_MANY);
            const params = operation.params.safeParse(args ?? {});
            if (!params.success) throw new UserFacingError(problemOf(params.error));
            if ((await deps.clients.linkedClient(user, { requestId })) === undefined) {
              throw new UserFacingError(NOT_LINKED);
            }
            return operation.kind === 'read'
              ? runRead(door, operation, params.data, { user, web })
              : proposeChange(deps, operation, params.data, { user, web });
          },
        );
      } catch (error) {
        if (error instanceof UserFacingError) return refusal(error.message);
        return toolResult([errorMessage(failureText(error, logger))], { isError: true });
      }
    },
  };
}

/** Runs a read as `/ps` runs it, for the caller alone: its private answers are the result. */
async function runRead(
  door: FrontDoor,
  operation: ToolOperation,
  params: unknown,
  { user, web }: Pick<SlackbotCaller, 'user'> & { web: WebClient },
): Promise<CallToolResult> {
  const answers: SlackMessage[] = [];
  const operationDeps = door.depsOf(operation);
  const interaction = slackbotInteraction(operationDeps, {
    user,
    web,
    tool: operation.tool.name,
    answer: (message) => answers.push(message),
  });
  const context: CommandContext = { ...interaction, channelId: user.userId, triggerId: '' };
  await operation.run(params, context, inRequest(operationDeps, context));
  // A read that answers later (a wait) says so, rather than nothing.
  if (answers.length === 0 && operation.tool.followUp !== undefined) {
    return { content: [{ type: 'text', text: operation.tool.followUp }] };
  }
  return toolResult(answers);
}

/** The first problem zod found, as a sentence naming the parameter. */
function problemOf(error: z.ZodError): string {
  const [issue] = error.issues;
  if (issue === undefined) return 'The parameters are not what this tool takes.';
  if (issue.path.length === 0) return `The parameters: ${issue.message}.`;
  const parameter = `The parameter ${issue.path.join('.')}`;
  // zod says "expected string, received undefined" of a parameter left out.
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message))
    return `${parameter} is missing.`;
  return `${parameter}: ${issue.message}.`;
}

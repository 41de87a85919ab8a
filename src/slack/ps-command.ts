// The one `/ps` listener: parse, ack, route. A bad command is answered in the ack itself (a usage
// message only the typist sees); a good one is acked empty first, so a slow Paperspace call can never
// make Slack time out, and the handler answers later through respond or the Web API.
import { randomUUID } from 'node:crypto';
import { messageForUser } from '../errors/user-message.js';
import { requestIdOf } from '../observability/request-scope.js';
import { errorMessage, loginPrompt, usageErrorMessage } from './block-kit/messages.js';
import type { CommandContext, CommandHandler, CommandHandlers, CommandOf } from './command-context.js';
import type { CommandName } from './command-language/command-grammar.js';
import { parseCommand } from './command-language/command-parser.js';
import { SLASH_COMMAND } from './ids.js';
import type { ListenerDeps } from './listener-deps.js';
import type { ListenerRouter } from './router.js';

export function registerPsCommand(
  router: ListenerRouter,
  deps: ListenerDeps,
  handlers: CommandHandlers,
): void {
  router.command(SLASH_COMMAND, async ({ command, ack, respond, client, context: boltContext }) => {
    const parsed = parseCommand(command.text);
    if (!parsed.ok) {
      if (parsed.secretDetected) {
        // Never log the text: it holds the secret. Who and where is enough to follow up.
        deps.logger.warn({ user: command.user_id, channel: command.channel_id }, 'refused a pasted secret');
      }
      await ack({ response_type: 'ephemeral', ...usageErrorMessage(parsed.error, parsed.usage) });
      return;
    }
    await ack();

    const user = { teamId: command.team_id, userId: command.user_id };
    // The bot's request scope gave this request its id; it already stamps the log lines and the
    // Paperspace calls. An app without that scope (a bare Bolt app in a test) gets an id of its own here.
    const scopedId = requestIdOf(boltContext);
    const requestId = scopedId ?? randomUUID();
    const logger = deps.logger.child({
      ...(scopedId === undefined ? { requestId } : {}),
      command: parsed.command.name,
      user: user.userId,
    });
    const replyPrivately: CommandContext['replyPrivately'] = async (message) => {
      await respond({ response_type: 'ephemeral', replace_original: false, ...message });
    };
    const context: CommandContext = {
      deps: { ...deps, logger },
      user,
      channelId: command.channel_id,
      triggerId: command.trigger_id,
      requestId,
      client,
      respond,
      replyPrivately,
      async userClient() {
        const userClient = await deps.clients.forUser(user, { requestId });
        if (userClient === undefined) await replyPrivately(loginPrompt());
        return userClient;
      },
    };
    try {
      await dispatch(parsed.command, handlers, context);
    } catch (error) {
      await replyPrivately(errorMessage(messageForUser(error, logger)));
    }
  });
}

function dispatch<N extends CommandName>(
  command: CommandOf<N>,
  handlers: CommandHandlers,
  context: CommandContext,
): Promise<void> {
  // TypeScript cannot relate handlers[command.name] to the narrowed command on its own; the mapped
  // CommandHandlers type guarantees the pairing.
  const handler = handlers[command.name] as CommandHandler<N>;
  return handler(command, context);
}

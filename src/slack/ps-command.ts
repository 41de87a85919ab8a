// The one `/ps` listener: parse, ack, route. A bad command is answered in the ack itself (a usage
// message only the typist sees); a good one is acked empty first, so a slow Paperspace call can never
// make Slack time out, and the handler answers later through respond or the Web API.
import { usageErrorMessage } from './block-kit/messages.js';
import type { CommandContext, CommandHandler, CommandHandlers, CommandOf } from './command-context.js';
import type { CommandName } from './command-language/command-grammar.js';
import { parseCommand } from './command-language/command-parser.js';
import { SLASH_COMMAND } from './ids.js';
import { commandInteraction } from './interaction.js';
import type { ListenerDeps } from './listener-deps.js';
import type { ListenerRouter } from './router.js';

export function registerPsCommand(
  router: ListenerRouter,
  deps: ListenerDeps,
  handlers: CommandHandlers,
): void {
  router.command(SLASH_COMMAND, async (args) => {
    const { command, ack } = args;
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

    const context: CommandContext = {
      ...commandInteraction(deps, args, parsed.command.name),
      channelId: command.channel_id,
      triggerId: command.trigger_id,
      respond: args.respond,
    };
    try {
      await dispatch(parsed.command, handlers, context);
    } catch (error) {
      await context.replyFailure(error);
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

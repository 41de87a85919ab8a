// The one `/ps` listener: parse, ack, route. A bad command is answered in the ack itself (a usage
// message only the typist sees); a good one is acked empty first, so a slow Paperspace call can never
// make Slack time out, and its operation answers later through respond or the Web API.
import { usageErrorMessage } from './block-kit/messages.js';
import type { CommandContext } from './command-context.js';
import type { CommandParser } from './command-language/command-parser.js';
import { SLASH_COMMAND } from './ids.js';
import { commandInteraction, inRequest } from './interaction.js';
import type { Operation } from './operation.js';
import type { PlatformDeps } from './platform-deps.js';
import type { ListenerRouter } from './router.js';

/** The deps of the feature that owns an operation (features/index.ts knows which feature that is). */
export type OperationDeps = (operation: Operation) => PlatformDeps;

export function registerPsCommand(
  router: ListenerRouter,
  deps: PlatformDeps,
  parser: CommandParser<Operation>,
  depsOf: OperationDeps,
): void {
  router.command(SLASH_COMMAND, async (args) => {
    const { command, ack } = args;
    const parsed = parser.parse(command.text);
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
      ...commandInteraction(deps, args, parsed.definition.name),
      channelId: command.channel_id,
      triggerId: command.trigger_id,
      respond: args.respond,
    };
    try {
      await parsed.definition.run(parsed.params, context, inRequest(depsOf(parsed.definition), context));
    } catch (error) {
      await context.replyFailure(error);
    }
  });
}

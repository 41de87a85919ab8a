// The one `/ps` listener: parse, ack, route. A bad command is answered in the ack itself (a usage
// message only the typist sees); a good one is acked empty first, so a slow Paperspace call can never
// make Slack time out, and its operation answers later through respond or the Web API. A change that
// declares a receipt has it stored before the ack and ended once it answered (request-receipt.ts).
import { usageErrorMessage } from './block-kit/messages.js';
import type { CommandContext } from './command-context.js';
import type { CommandParser } from './command-language/command-parser.js';
import { SLASH_COMMAND } from './ids.js';
import { commandInteraction, inRequest } from './interaction.js';
import type { Operation } from './operation.js';
import type { PlatformDeps } from './platform-deps.js';
import { storedBeforeAck } from './request-receipt.js';
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
    const { definition, params } = parsed;
    const interaction: CommandContext = {
      ...commandInteraction(deps, args, definition.name),
      channelId: command.channel_id,
      triggerId: command.trigger_id,
      respond: args.respond,
    };
    const operationDeps = inRequest(depsOf(definition), interaction);
    const receipt = definition.receive?.(
      params,
      { user: interaction.user, channelId: command.channel_id },
      operationDeps,
    );
    if (receipt !== undefined) await storedBeforeAck(receipt, args.context);
    await ack();

    const context: CommandContext = receipt === undefined ? interaction : { ...interaction, receipt };
    try {
      await definition.run(params, context, operationDeps);
    } catch (error) {
      await context.replyFailure(error);
    } finally {
      await receipt?.end();
    }
  });
}

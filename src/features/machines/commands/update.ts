// /ps update <machine> key=value ...: typed and checked against the client's update schema before any
// call, so a bad value is named with its key; the confirmation carries the refreshed card.
import { failureText } from '../../../errors/user-message.js';
import { updateMachineParamsSchema } from '../../../paperspace/request-params/machine-params.js';
import { usageErrorMessage } from '../../../slack/block-kit/messages.js';
import type { CommandHandler } from '../../../slack/command-context.js';
import { usageOf } from '../../../slack/command-language/command-grammar.js';
import { updatedMessage, updatedUnreadMessage } from '../blocks/machine-replies.js';
import { findMachine } from '../machine-lookup.js';
import { createMachineOperations } from '../machine-operations.js';
import { typedKeyValues, validateKeyValues } from '../typed-key-values.js';

export const updateMachine: CommandHandler<'update'> = async (command, context) => {
  const typed = typedKeyValues(command.params, updateMachineParamsSchema, 'update');
  const params = typed.ok ? validateKeyValues(updateMachineParamsSchema, typed.value) : typed;
  if (!params.ok) {
    await context.replyPrivately(usageErrorMessage(params.error, usageOf('update')));
    return;
  }
  const client = await context.userClient();
  if (!client) return;
  const machine = await findMachine(client, command.machine);
  const updated = await createMachineOperations(context.deps).update(
    { user: context.user, client },
    machine.id,
    params.value,
  );
  const changed = Object.keys(params.value);
  await context.replyPrivately(
    updated.machine === undefined
      ? updatedUnreadMessage(
          params.value.machineName ?? machine.name,
          changed,
          failureText(updated.rereadError, context.deps.logger),
        )
      : updatedMessage(updated.machine, changed),
  );
};

// /ps script show|text|delete <id> and /ps script create. Delete only asks: the deletion happens when
// the person confirms on the Delete button (buttons/delete-confirmed.ts).
import type { Machine } from '../../../paperspace/schemas.js';
import type { CommandHandler } from '../../../slack/command-context.js';
import { openLoadingModal } from '../../../slack/loading-modal.js';
import {
  scriptDeleteConfirmation,
  scriptDetailMessage,
  scriptTextMessage,
  scriptTextUnavailableMessage,
} from '../blocks/catalog.js';
import { createScriptModal } from '../blocks/create-script-modal.js';
import { machineNames } from '../machine-names.js';

export const scriptShowCommand: CommandHandler<'script show'> = async (command, context) => {
  const client = await context.userClient();
  if (client === undefined) return;
  const [script, names] = await Promise.all([
    client.scripts.show(command.scriptId),
    machineNames(client, context.deps.logger),
  ]);
  await context.replyPrivately(scriptDetailMessage(script, names));
};

export const scriptTextCommand: CommandHandler<'script text'> = async (command, context) => {
  const client = await context.userClient();
  if (client === undefined) return;
  if (!client.capabilities.scriptText) {
    await context.replyPrivately(scriptTextUnavailableMessage(await client.scripts.show(command.scriptId)));
    return;
  }
  const [script, text] = await Promise.all([
    client.scripts.show(command.scriptId),
    client.scripts.text(command.scriptId),
  ]);
  await context.replyPrivately(scriptTextMessage(script, text));
};

export const scriptDeleteCommand: CommandHandler<'script delete'> = async (command, context) => {
  const client = await context.userClient();
  if (client === undefined) return;
  await context.replyPrivately(scriptDeleteConfirmation(await client.scripts.show(command.scriptId)));
};

export const scriptCreateCommand: CommandHandler<'script create'> = async (_command, context) => {
  const client = await context.userClient();
  if (client === undefined) return;
  await openLoadingModal(context, {
    title: 'New startup script',
    loading: 'Loading your machines…',
    async build() {
      const machines: Machine[] = [];
      for await (const machine of client.machines.listAll()) machines.push(machine);
      return createScriptModal({ machines });
    },
  });
};

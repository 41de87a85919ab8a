// /ps script show|text|delete <id> and /ps script create. Delete only asks: the deletion happens when
// the person confirms on the Delete button (buttons/delete-confirmed.ts).
import { z } from 'zod';
import type { Machine } from '../../../paperspace/schemas.js';
import type { CommandContext } from '../../../slack/command-context.js';
import {
  accept,
  type Read,
  readId,
  splitWithoutKeyValues,
  tooMany,
  withoutArguments,
} from '../../../slack/command-language/command-arguments.js';
import type { Token } from '../../../slack/command-language/tokenize.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { openLoadingModal } from '../../../slack/loading-modal.js';
import { defineOperation } from '../../../slack/operation.js';
import {
  scriptDeleteConfirmation,
  scriptDetailMessage,
  scriptTextMessage,
  scriptTextUnavailableMessage,
} from '../blocks/catalog.js';
import { createScriptModal } from '../blocks/create-script-modal.js';
import { machineNames } from '../machine-names.js';

const SCRIPT_ID = z.object({
  scriptId: z.string().min(1).describe('The startup script id, from /ps scripts.'),
});

function readScriptId(name: string, args: readonly Token[]): Read<{ scriptId: string }> {
  const split = splitWithoutKeyValues(name, args);
  if (!split.ok) return split;
  const scriptId = readId(split.args.positionals[0], 'script');
  if (!scriptId.ok) return scriptId;
  return tooMany(name, split.args.positionals, 1, 'one script <id>') ?? accept({ scriptId: scriptId.value });
}

export const scriptShowOperation = defineOperation({
  name: 'script show',
  usage: `${ps} script show <id>`,
  summary: 'Show a startup script and its machines.',
  help: {
    parameters: ['`<id>`: the script id from `/ps scripts`.'],
    examples: [`${ps} script show scr123`],
    effect: 'Shows one startup script and the machines it runs on.',
  },
  kind: 'read',
  params: SCRIPT_ID,
  read: (args) => readScriptId('script show', args),
  run: showScript,
});

export const scriptTextOperation = defineOperation({
  name: 'script text',
  usage: `${ps} script text <id>`,
  summary: 'Show the text of a startup script.',
  help: {
    parameters: ['`<id>`: the script id.'],
    examples: [`${ps} script text scr123`],
    effect: 'Shows the text of the script.',
  },
  kind: 'read',
  params: SCRIPT_ID,
  read: (args) => readScriptId('script text', args),
  run: showScriptText,
});

export const scriptDeleteOperation = defineOperation({
  name: 'script delete',
  usage: `${ps} script delete <id>`,
  summary: 'Delete a startup script (it is removed from every machine).',
  help: {
    parameters: ['`<id>`: the script id.'],
    examples: [`${ps} script delete scr123`],
    effect: 'Asks you to confirm, then deletes it; it no longer runs on any machine.',
  },
  kind: 'change',
  params: SCRIPT_ID,
  read: (args) => readScriptId('script delete', args),
  run: confirmScriptDelete,
});

export const scriptCreateOperation = defineOperation({
  name: 'script create',
  usage: `${ps} script create`,
  summary: 'Upload a startup script in a form.',
  help: {
    parameters: [],
    examples: [`${ps} script create`],
    effect: 'Opens a form for a new startup script: its name, its text, whether it runs once.',
  },
  kind: 'change',
  params: z.object({}),
  read: (args) => withoutArguments('script create', args),
  run: openScriptForm,
});

async function showScript(command: { scriptId: string }, context: CommandContext): Promise<void> {
  const client = await context.userClient();
  if (client === undefined) return;
  const [script, names] = await Promise.all([
    client.scripts.show(command.scriptId),
    machineNames(client, context.deps.logger),
  ]);
  await context.replyPrivately(scriptDetailMessage(script, names));
}

async function showScriptText(command: { scriptId: string }, context: CommandContext): Promise<void> {
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
}

async function confirmScriptDelete(command: { scriptId: string }, context: CommandContext): Promise<void> {
  const client = await context.userClient();
  if (client === undefined) return;
  await context.replyPrivately(scriptDeleteConfirmation(await client.scripts.show(command.scriptId)));
}

async function openScriptForm(_params: unknown, context: CommandContext): Promise<void> {
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
}

// /ps drive create and /ps drive delete <id>. Shared drives live behind the GraphQL API, which takes
// the access token rather than the API key, and only team administrators may change them: both are
// said before a form is filled in, not after.
import { z } from 'zod';
import type { PaperspaceClient } from '../../../paperspace/client.js';
import { errorMessage, loginPrompt } from '../../../slack/block-kit/messages.js';
import type { CommandContext } from '../../../slack/command-context.js';
import {
  accept,
  readId,
  splitWithoutKeyValues,
  tooMany,
  withoutArguments,
} from '../../../slack/command-language/command-arguments.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { openLoadingModal } from '../../../slack/loading-modal.js';
import { defineOperation } from '../../../slack/operation.js';
import { driveDeleteConfirmation } from '../blocks/catalog.js';
import { createDriveModal } from '../blocks/create-drive-modal.js';
import type { CatalogDeps } from '../catalog-deps.js';
import { findDrive } from '../drive-changes.js';

const NO_ACCESS_TOKEN =
  'Shared drives need a Paperspace access token, and you linked only an API key. ' +
  'Run /ps login again and paste the token in the access token field, with your key.';

/** The person's client when they linked what drives need; otherwise says what is missing. */
async function driveClient(
  context: CommandContext,
  deps: CatalogDeps,
): Promise<PaperspaceClient | undefined> {
  const credentials = await deps.vault.credentials(context.user);
  if (credentials === undefined) {
    await context.replyPrivately(loginPrompt());
    return undefined;
  }
  // Only the legacy API's GraphQL needs the token; v1 manages drives with the API key.
  if (credentials.accessToken === undefined && context.deps.clients.capabilities.driveAccessToken) {
    await context.replyPrivately(errorMessage(NO_ACCESS_TOKEN));
    return undefined;
  }
  return context.userClient();
}

export const driveCreateOperation = defineOperation({
  name: 'drive create',
  usage: `${ps} drive create`,
  summary: 'Create a shared drive in a form (team administrators).',
  help: {
    parameters: [],
    examples: [`${ps} drive create`],
    effect: 'Opens a form for a new shared drive: name, size, region, network (team administrators).',
  },
  kind: 'change',
  params: z.object({}),
  read: (args) => withoutArguments('drive create', args),
  run: openDriveForm,
});

export const driveDeleteOperation = defineOperation({
  name: 'drive delete',
  usage: `${ps} drive delete <id>`,
  summary: 'Delete a shared drive (team administrators).',
  help: {
    parameters: ['`<id>`: the drive id from `/ps drives`.'],
    examples: [`${ps} drive delete sdr123`],
    effect: 'Asks you to confirm, then deletes the drive and its files (team administrators).',
  },
  kind: 'change',
  params: z.object({ driveId: z.string().min(1).describe('The shared drive id, from /ps drives.') }),
  read(args) {
    const split = splitWithoutKeyValues('drive delete', args);
    if (!split.ok) return split;
    const driveId = readId(split.args.positionals[0], 'shared drive');
    if (!driveId.ok) return driveId;
    const extra = tooMany('drive delete', split.args.positionals, 1, 'one drive <id>');
    return extra ?? accept({ driveId: driveId.value });
  },
  run: confirmDriveDelete,
});

async function openDriveForm(_params: unknown, context: CommandContext, deps: CatalogDeps): Promise<void> {
  const client = await driveClient(context, deps);
  if (client === undefined) return;
  await openLoadingModal(context, {
    title: 'New shared drive',
    loading: 'Loading networks…',
    async build() {
      // Listing one drive asks Paperspace whether this token may manage drives at all, so a team
      // member hears "administrators only" now rather than after filling in the form.
      const [networks] = await Promise.all([client.networks.list(), client.sharedDrives.list({ first: 1 })]);
      return createDriveModal({ networks });
    },
  });
}

async function confirmDriveDelete(
  command: { driveId: string },
  context: CommandContext,
  deps: CatalogDeps,
): Promise<void> {
  const client = await driveClient(context, deps);
  if (client === undefined) return;
  await context.replyPrivately(driveDeleteConfirmation(await findDrive(client, command.driveId)));
}

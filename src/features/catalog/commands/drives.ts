// /ps drive create and /ps drive delete <id>. Shared drives live behind the GraphQL API, which takes
// the access token rather than the API key, and only team administrators may change them: both are
// said before a form is filled in, not after.
import type { PaperspaceClient } from '../../../paperspace/client.js';
import { errorMessage, loginPrompt } from '../../../slack/block-kit/messages.js';
import type { CommandContext, CommandHandler } from '../../../slack/command-context.js';
import { openLoadingModal } from '../../../slack/loading-modal.js';
import { driveDeleteConfirmation } from '../blocks/catalog.js';
import { createDriveModal } from '../blocks/create-drive-modal.js';
import { findDrive } from '../drive-changes.js';

const NO_ACCESS_TOKEN =
  'Shared drives need a Paperspace access token, and you linked only an API key. ' +
  'Run /ps login again and paste the token in the access token field, with your key.';

/** The person's client when they linked what drives need; otherwise says what is missing. */
async function driveClient(context: CommandContext): Promise<PaperspaceClient | undefined> {
  const credentials = await context.deps.vault.credentials(context.user);
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

export const driveCreateCommand: CommandHandler<'drive create'> = async (_command, context) => {
  const client = await driveClient(context);
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
};

export const driveDeleteCommand: CommandHandler<'drive delete'> = async (command, context) => {
  const client = await driveClient(context);
  if (client === undefined) return;
  await context.replyPrivately(driveDeleteConfirmation(await findDrive(client, command.driveId)));
};

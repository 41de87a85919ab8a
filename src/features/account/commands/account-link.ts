// /ps login, logout and whoami: link a key through the private form, forget it, show whose it is.

import { loginPrompt } from '../../../slack/block-kit/messages.js';
import type { CommandHandler } from '../../../slack/command-context.js';
import { publishHome } from '../../home/publish-home.js';
import { createAccountLinking } from '../account-linking.js';
import { unlinkedMessage, whoamiMessage } from '../blocks/account.js';
import { openLoginModal } from '../open-login-modal.js';

export const loginCommand: CommandHandler<'login'> = (_command, context) => openLoginModal(context);

export const logoutCommand: CommandHandler<'logout'> = async (_command, context) => {
  const { deps, user } = context;
  const unlinked = await createAccountLinking(deps).unlink(user);
  await context.replyPrivately(unlinkedMessage(unlinked));
  if (unlinked !== undefined) await publishHome(context.web, deps, user);
};

export const whoamiCommand: CommandHandler<'whoami'> = async (_command, context) => {
  const { vault } = context.deps;
  const account = await vault.account(context.user);
  if (account === undefined) {
    await context.replyPrivately(loginPrompt());
    return;
  }
  const [credentials, maskedKey] = await Promise.all([
    vault.credentials(context.user),
    vault.maskedKey(context.user),
  ]);
  await context.replyPrivately(
    whoamiMessage({
      maskedKey: maskedKey ?? '••••',
      email: account.email,
      userId: account.userId,
      linkedAt: account.linkedAt,
      hasAccessToken: credentials?.accessToken !== undefined,
      drivesNeedAccessToken: context.deps.clients.capabilities.driveAccessToken,
    }),
  );
};

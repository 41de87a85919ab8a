// /ps login, logout and whoami: link a key through the private form, forget it, show whose it is.

import { z } from 'zod';
import { loginPrompt } from '../../../slack/block-kit/messages.js';
import type { CommandContext } from '../../../slack/command-context.js';
import { accept, withoutArguments } from '../../../slack/command-language/command-arguments.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { publishHome } from '../../home/publish-home.js';
import type { AccountDeps } from '../account-deps.js';
import { createAccountLinking } from '../account-linking.js';
import { unlinkedMessage, whoamiMessage } from '../blocks/account.js';
import { openLoginModal } from '../open-login-modal.js';

export const loginOperation = defineOperation({
  name: 'login',
  usage: `${ps} login`,
  summary: 'Link your Paperspace API key in a private form.',
  help: {
    parameters: [],
    examples: [`${ps} login`],
    effect:
      'Opens a private form for your Paperspace API key. It is checked with Paperspace, stored encrypted, and used only for what you do.',
  },
  // A key typed after it is refused unread, before any reader could echo it.
  secretArguments: true,
  kind: 'change',
  params: z.object({}),
  read: () => accept({}),
  run: (_params, context, deps: AccountDeps) => openLoginModal(context, deps.vault),
});

export const logoutOperation = defineOperation({
  name: 'logout',
  usage: `${ps} logout`,
  summary: 'Forget your API key.',
  help: {
    parameters: [],
    examples: [`${ps} logout`],
    effect: 'Forgets your key: nothing is done with it any more until you link one again.',
  },
  kind: 'change',
  params: z.object({}),
  read: (args) => withoutArguments('logout', args),
  run: logout,
});

export const whoamiOperation = defineOperation({
  name: 'whoami',
  usage: `${ps} whoami`,
  summary: 'Show which Paperspace account your key belongs to.',
  help: {
    parameters: [],
    examples: [`${ps} whoami`],
    effect: 'Answers only you with the Paperspace account (and team) your key belongs to.',
  },
  kind: 'read',
  params: z.object({}),
  read: (args) => withoutArguments('whoami', args),
  run: whoami,
});

async function logout(_params: unknown, context: CommandContext, deps: AccountDeps): Promise<void> {
  const { user } = context;
  const unlinked = await createAccountLinking(deps).unlink(user);
  await context.replyPrivately(unlinkedMessage(unlinked));
  if (unlinked !== undefined) await publishHome(context.web, deps, user);
}

async function whoami(_params: unknown, context: CommandContext, deps: AccountDeps): Promise<void> {
  const { vault } = deps;
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
      drivesNeedAccessToken: deps.clients.capabilities.driveAccessToken,
    }),
  );
}

// The person's link to Paperspace: `/ps login`, `logout`, `whoami` and `help`, the Log in button and
// form (which publish the App Home again, features/home/), and the purge when the app is uninstalled.
import type { CommandLookup } from '../../slack/command-language/command-definition.js';
import type { Feature } from '../feature.js';
import { accountNeeds } from './account-deps.js';
import { registerLoginButton } from './buttons/login-button.js';
import { loginOperation, logoutOperation, whoamiOperation } from './commands/account-link.js';
import { createHelpOperation } from './commands/help.js';
import { registerLoginSubmission } from './modals/login-submission.js';
import { registerWorkspaceUninstall } from './workspace-uninstall.js';

export function createAccountFeature(commands: () => CommandLookup) {
  return {
    needs: accountNeeds,
    operations: [createHelpOperation(commands), loginOperation, logoutOperation, whoamiOperation],
    listen(router, deps) {
      registerLoginButton(router, deps);
      registerLoginSubmission(router, deps);
      registerWorkspaceUninstall(router, deps);
    },
  } as const satisfies Feature<typeof accountNeeds>;
}

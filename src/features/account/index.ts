// The person's link to Paperspace: `/ps login`, `logout`, `whoami` and `help`, the Log in button and
// form (which publish the App Home again, features/home/), and the purge when the app is uninstalled.
import type { Feature } from '../feature.js';
import { registerLoginButton } from './buttons/login-button.js';
import { loginCommand, logoutCommand, whoamiCommand } from './commands/account-link.js';
import { helpCommand } from './commands/help.js';
import { registerLoginSubmission } from './modals/login-submission.js';
import { registerWorkspaceUninstall } from './workspace-uninstall.js';

export const accountFeature: Feature<'help' | 'login' | 'logout' | 'whoami'> = {
  commands: { help: helpCommand, login: loginCommand, logout: logoutCommand, whoami: whoamiCommand },
  listen(router, deps) {
    registerLoginButton(router, deps);
    registerLoginSubmission(router, deps);
    registerWorkspaceUninstall(router, deps);
  },
};

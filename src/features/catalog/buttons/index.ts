// Account and catalogue buttons: Log in, Prev/Next of every list, and the confirmed deletions.
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { registerLoginButton } from '../../account/buttons/login-button.js';
import { registerDeleteConfirmed } from './delete-confirmed.js';
import { registerListPage } from './list-page.js';

export function registerAccountActions(router: ListenerRouter, deps: ListenerDeps): void {
  registerLoginButton(router, deps);
  registerListPage(router, deps);
  registerDeleteConfirmed(router, deps);
}

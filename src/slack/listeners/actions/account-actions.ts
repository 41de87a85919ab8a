// Account and catalogue buttons: Log in, Prev/Next of every list, and the confirmed deletions.
import type { ListenerDeps } from '../deps.js';
import type { ListenerRouter } from '../router.js';
import { registerDeleteConfirmed } from './account/delete-confirmed.js';
import { registerListPage } from './account/list-page.js';
import { registerLoginButton } from './account/login-button.js';

export function registerAccountActions(router: ListenerRouter, deps: ListenerDeps): void {
  registerLoginButton(router, deps);
  registerListPage(router, deps);
  registerDeleteConfirmed(router, deps);
}

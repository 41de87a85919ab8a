// Account and catalogue buttons: Log in, Prev/Next of every list, and the confirmed deletions.
import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';
import { registerDeleteConfirmed } from './account/delete-confirmed.js';
import { registerListPage } from './account/list-page.js';
import { registerLoginButton } from './account/login-button.js';

export function registerAccountActions(app: App, deps: ListenerDeps): void {
  registerLoginButton(app, deps);
  registerListPage(app, deps);
  registerDeleteConfirmed(app, deps);
}

// Account and catalogue modals: login, new startup script, new shared drive.
import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';
import { registerDriveCreateSubmission } from './account/drive-create-submission.js';
import { registerLoginSubmission } from './account/login-submission.js';
import { registerScriptCreateSubmission } from './account/script-create-submission.js';

export function registerAccountViews(app: App, deps: ListenerDeps): void {
  registerLoginSubmission(app, deps);
  registerScriptCreateSubmission(app, deps);
  registerDriveCreateSubmission(app, deps);
}

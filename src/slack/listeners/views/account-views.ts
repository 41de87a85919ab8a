// Account and catalogue modals: login, new startup script, new shared drive.
import type { ListenerDeps } from '../deps.js';
import type { ListenerRouter } from '../router.js';
import { registerDriveCreateSubmission } from './account/drive-create-submission.js';
import { registerLoginSubmission } from './account/login-submission.js';
import { registerScriptCreateSubmission } from './account/script-create-submission.js';

export function registerAccountViews(router: ListenerRouter, deps: ListenerDeps): void {
  registerLoginSubmission(router, deps);
  registerScriptCreateSubmission(router, deps);
  registerDriveCreateSubmission(router, deps);
}

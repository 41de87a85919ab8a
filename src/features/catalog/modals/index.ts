// Account and catalogue modals: login, new startup script, new shared drive.
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { registerLoginSubmission } from '../../account/modals/login-submission.js';
import { registerDriveCreateSubmission } from './drive-create-submission.js';
import { registerScriptCreateSubmission } from './script-create-submission.js';

export function registerAccountViews(router: ListenerRouter, deps: ListenerDeps): void {
  registerLoginSubmission(router, deps);
  registerScriptCreateSubmission(router, deps);
  registerDriveCreateSubmission(router, deps);
}

// Submissions of the machine modals: create, settings (update), destroy confirmation and access.
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { registerAccessSubmission } from './access-submission.js';
import { registerCreateSubmission } from './create-submission.js';
import { registerDestroySubmission } from './destroy-submission.js';
import { registerUpdateSubmission } from './update-submission.js';

export function registerMachineViews(router: ListenerRouter, deps: ListenerDeps): void {
  registerCreateSubmission(router, deps);
  registerUpdateSubmission(router, deps);
  registerDestroySubmission(router, deps);
  registerAccessSubmission(router, deps);
}

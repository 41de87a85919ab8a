// Submissions of the machine modals: create, settings (update), destroy confirmation and access.
import type { ListenerDeps } from '../deps.js';
import type { ListenerRouter } from '../router.js';
import { registerAccessSubmission } from './machines/access-submission.js';
import { registerCreateSubmission } from './machines/create-submission.js';
import { registerDestroySubmission } from './machines/destroy-submission.js';
import { registerUpdateSubmission } from './machines/update-submission.js';

export function registerMachineViews(router: ListenerRouter, deps: ListenerDeps): void {
  registerCreateSubmission(router, deps);
  registerUpdateSubmission(router, deps);
  registerDestroySubmission(router, deps);
  registerAccessSubmission(router, deps);
}

// Submissions of the machine modals: create, settings (update), destroy confirmation and access.
import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';
import { registerAccessSubmission } from './machines/access-submission.js';
import { registerCreateSubmission } from './machines/create-submission.js';
import { registerDestroySubmission } from './machines/destroy-submission.js';
import { registerUpdateSubmission } from './machines/update-submission.js';

export function registerMachineViews(app: App, deps: ListenerDeps): void {
  registerCreateSubmission(app, deps);
  registerUpdateSubmission(app, deps);
  registerDestroySubmission(app, deps);
  registerAccessSubmission(app, deps);
}

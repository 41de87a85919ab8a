// Requests and approvals: a member asks for what Paperspace lets only an administrator (create) or
// the owner (start, stop, restart) do, and that person approves with one click, acting with their
// own key. `/ps approvals`, `/ps requests`, the request buttons, the Deny form, and the expiry job.
// `settled` hears how each request ended (a Workflow Builder step waits on the ones it opened).
import type { Feature } from '../feature.js';
import { approvalsNeeds } from './approvals-deps.js';
import { registerRequestButtons } from './buttons/request-buttons.js';
import { approvalsOperation } from './commands/approvals.js';
import { requestsOperation } from './commands/requests.js';
import { approvalJobPlan } from './jobs.js';
import { registerDenySubmission } from './modals/deny-submission.js';
import type { RequestSettled } from './request-settled.js';

export function createApprovalsFeature(settled: RequestSettled) {
  return {
    needs: approvalsNeeds,
    operations: [approvalsOperation, requestsOperation],
    listen(router, deps) {
      registerRequestButtons(router, deps, settled);
      registerDenySubmission(router, deps, settled);
    },
    jobs: approvalJobPlan(settled),
  } as const satisfies Feature<typeof approvalsNeeds>;
}

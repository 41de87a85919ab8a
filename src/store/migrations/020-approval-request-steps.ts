// approval_requests.function_execution_id: a request a Workflow Builder "Request a machine" step
// opened ends that step's run when it is decided (the machine created, or a sentence why not).
// Kept with the request, so whichever replica handles the decision, before or after a restart,
// can end the run.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const approvalRequestSteps: Migration = {
  version: 20,
  name: 'approval_request_steps',
  sql: () => `ALTER TABLE approval_requests ADD COLUMN function_execution_id TEXT;`,
};

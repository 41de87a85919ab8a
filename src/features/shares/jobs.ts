// The shares' work for the scheduler: the access an accessor share gave is removed once it is over,
// and a share's channel post is marked expired once its time is up.
import type { SchedulerJob } from '../../scheduler/job.js';
import { createAuditTrail } from '../../store/audit-trail.js';
import { type JobDepsOf, planJobs } from '../job-needs.js';
import { createDelegationExpiry } from './delegation-expiry.js';

const needs = { store: ['delegations', 'audit'], uses: ['clients', 'slack', 'now', 'logger'] } as const;

export const shareJobPlan = planJobs(needs, shareJobs);

function shareJobs(deps: JobDepsOf<typeof needs>): SchedulerJob[] {
  const expiry = createDelegationExpiry({
    store: deps.store,
    audit: createAuditTrail({ audit: deps.store.audit, now: deps.now, logger: deps.logger }),
    clients: deps.clients,
    slack: deps.slack,
    now: deps.now,
    logger: deps.logger,
  });
  return [{ name: 'shares', tick: () => expiry.tick() }];
}

// The shares' work for the scheduler: a share's channel post is marked expired once its time is up.
import type { JobDeps, SchedulerJob } from '../../scheduler/job.js';
import { createDelegationExpiry } from './delegation-expiry.js';

export function shareJobs(deps: JobDeps): SchedulerJob[] {
  const expiry = createDelegationExpiry({
    store: deps.store,
    clients: deps.clients,
    slack: deps.slack,
    now: deps.now,
    logger: deps.logger,
  });
  return [{ name: 'shares', tick: () => expiry.tick() }];
}

// The spend feature's work for the scheduler: team digests kept in step with the store and posted on
// their cron, and the pruning of old occurrence claims.
import type { SchedulerJob } from '../../scheduler/job.js';
import { storedCronJobs } from '../../scheduler/stored-cron-jobs.js';
import { type JobDepsOf, planJobs } from '../job-needs.js';
import { createDigestDelivery } from './digest-delivery.js';

/** A claimed occurrence only matters while replicas may still fire it. */
export const KEEP_DIGEST_RUNS_MS = 8 * 24 * 60 * 60_000;

const needs = {
  // The digest reads the spend as /ps spend does: whose each machine is (the recorded owners, and the
  // links of the people Paperspace names), and the role notes kept with the approvals; and lists the
  // team's budgets.
  store: ['teamDigests', 'audit', 'vaultEntries', 'approvals', 'machineOwners', 'budgets'],
  uses: ['vault', 'clients', 'slack', 'pacer', 'logger', 'now', 'cron', 'replicaId'],
} as const;

export const spendJobPlan = planJobs(needs, spendJobs);

function spendJobs(deps: JobDepsOf<typeof needs>): SchedulerJob[] {
  const delivery = createDigestDelivery(deps);
  return storedCronJobs({
    noun: 'team digest',
    idField: 'digestId',
    entries: deps.store.teamDigests,
    cron: deps.cron,
    run: (digest) => delivery.post(digest),
    keepRunsMs: KEEP_DIGEST_RUNS_MS,
    now: deps.now,
    owner: deps.replicaId,
    logger: deps.logger,
  });
}

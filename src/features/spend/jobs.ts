// The spend feature's work for the scheduler: team digests kept in step with the store and posted on
// their cron, and the pruning of old occurrence claims.
import type { JobDeps, SchedulerJob } from '../../scheduler/job.js';
import { createDigestDelivery } from './digest-delivery.js';
import { createDigestScheduler } from './digest-scheduler.js';

const HOUSEKEEPING_EVERY_MS = 60 * 60_000;
/** A claimed occurrence only matters while replicas may still fire it. */
const KEEP_DIGEST_RUNS_MS = 8 * 24 * 60 * 60_000;

export function spendJobs(deps: JobDeps): SchedulerJob[] {
  const { store, now } = deps;
  const delivery = createDigestDelivery(deps);
  const digests = createDigestScheduler({
    store,
    cron: deps.cron,
    post: (digest) => delivery.post(digest),
    now,
    owner: deps.replicaId,
    logger: deps.logger,
  });
  let lastHousekeeping = Number.NEGATIVE_INFINITY;
  return [
    {
      name: 'team digests',
      start: () => digests.sync(),
      tick: () => digests.sync(),
      stop: async () => digests.stop(),
    },
    {
      name: 'team digest housekeeping',
      async tick() {
        if (now() - lastHousekeeping < HOUSEKEEPING_EVERY_MS) return;
        lastHousekeeping = now();
        await store.teamDigests.pruneRuns(now() - KEEP_DIGEST_RUNS_MS);
      },
    },
  ];
}

// Team digests on the cron engine, kept in step with the store on every tick (a digest set through
// another replica is scheduled here too). Every replica fires every digest; the claim in the store lets
// exactly one of them post a given occurrence.
import type { Logger } from 'pino';
import { describeError } from '../../errors/describe-error.js';
import type { CronEngine, CronJob } from '../../scheduler/cron-engine.js';
import type { Store } from '../../store/store.js';
import type { TeamDigest } from '../../store/team-digests.js';

export interface DigestSchedulerDeps {
  store: Pick<Store, 'teamDigests'>;
  cron: CronEngine;
  post: (digest: TeamDigest) => Promise<void>;
  now: () => number;
  /** This replica, recorded with each occurrence it claims. */
  owner: string;
  logger: Logger;
}

export function createDigestScheduler(deps: DigestSchedulerDeps) {
  const { logger } = deps;
  const scheduled = new Map<string, CronJob | undefined>();

  const fire = async (digest: TeamDigest, scheduledAt: number) => {
    try {
      const claimed = await deps.store.teamDigests.claimRun(digest.id, scheduledAt, {
        owner: deps.owner,
        at: deps.now(),
      });
      if (claimed) await deps.post(digest);
    } catch (error) {
      logger.error({ digestId: digest.id, error: describeError(error) }, 'a team digest could not be posted');
    }
  };

  const schedule = (digest: TeamDigest): CronJob | undefined => {
    try {
      return deps.cron.schedule(
        { name: `digest:${digest.id}`, expression: digest.cron, timezone: digest.timezone },
        (scheduledAt) => fire(digest, scheduledAt),
      );
    } catch (error) {
      // Kept as scheduled-without-a-job, so it is logged once rather than every tick.
      logger.error(
        { digestId: digest.id, error: describeError(error) },
        'a stored team digest could not be scheduled',
      );
      return undefined;
    }
  };

  return {
    /** Schedules stored digests not yet scheduled, and stops the deleted ones (a changed one has a new id). */
    async sync(): Promise<void> {
      const digests = await deps.store.teamDigests.listAll();
      const wanted = new Set(digests.map((digest) => digest.id));
      for (const [id, job] of scheduled) {
        if (!wanted.has(id)) {
          job?.stop();
          scheduled.delete(id);
        }
      }
      for (const digest of digests) if (!scheduled.has(digest.id)) scheduled.set(digest.id, schedule(digest));
    },
    stop(): void {
      for (const job of scheduled.values()) job?.stop();
      scheduled.clear();
    },
  };
}

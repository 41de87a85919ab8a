// A cron engine driven by an injected clock instead of real time: jobs fire when runDue() is called
// after the clock moved past their next occurrence (tests call it after moving their fake clock; the
// sandbox every second and after its clock control moved the time). When that is comes from nextFireTime,
// which node-cron's own matcher decides, so time zones behave as they do in production.
import type { CronEngine, CronJobSpec } from '../../src/scheduler/cron-engine.js';
import { nextFireTime } from '../../src/scheduler/cron-engine.js';

interface ManualCronJob extends CronJobSpec {
  /** The next occurrence (epoch ms), undefined when there is none. */
  nextAt: number | undefined;
}

export interface ManualCron extends CronEngine {
  /** Fires each job whose next occurrence is at or before now(), once; answers how many fired. */
  runDue(): Promise<number>;
  /** The earliest next occurrence of any job (epoch ms); undefined when none has one. */
  nextDueAt(): number | undefined;
  /** The jobs scheduled and not stopped. */
  jobs(): ManualCronJob[];
}

export function createManualCron(now: () => number): ManualCron {
  const active = new Set<{ job: ManualCronJob; fire: (scheduledAt: number) => Promise<void> }>();
  return {
    schedule(spec, fire) {
      const entry = { job: { ...spec, nextAt: nextFireTime(spec.expression, spec.timezone, now()) }, fire };
      active.add(entry);
      return { stop: () => active.delete(entry) };
    },
    async runDue() {
      let fired = 0;
      for (const entry of [...active]) {
        const at = entry.job.nextAt;
        if (at === undefined || at > now()) continue;
        // Like node-cron, occurrences missed while the clock jumped are not made up: one fire, then
        // the next occurrence after now.
        entry.job.nextAt = nextFireTime(entry.job.expression, entry.job.timezone, now());
        fired += 1;
        await entry.fire(at);
      }
      return fired;
    },
    nextDueAt() {
      const times = [...active].flatMap(({ job }) => (job.nextAt === undefined ? [] : [job.nextAt]));
      return times.length === 0 ? undefined : Math.min(...times);
    },
    jobs: () => [...active].map((entry) => ({ ...entry.job })),
  };
}

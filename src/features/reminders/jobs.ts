// The reminders' work for the scheduler: cron entries kept in step with the store (at start and on
// every tick, so a reminder made through another replica fires here too), snoozed reminders that are
// due, and the pruning of old occurrence claims.
import type { JobDeps, SchedulerJob } from '../../scheduler/job.js';
import { createReminderDelivery } from './reminder-delivery.js';
import { createReminderScheduler } from './reminder-scheduler.js';
import { createSnoozeRunner } from './snoozes.js';

const HOUSEKEEPING_EVERY_MS = 60 * 60_000;
/** Claimed reminder occurrences only matter while replicas may still fire them. */
const KEEP_REMINDER_RUNS_MS = 2 * 24 * 60 * 60_000;

export function reminderJobs(deps: JobDeps): SchedulerJob[] {
  const { store, logger, now, observer } = deps;
  // Counted here, where every delivery passes: reminder-scheduler.ts and snoozes.ts log the failure they rethrow.
  const observed =
    <T>(kind: 'scheduled' | 'snoozed', deliver: (item: T) => Promise<void>) =>
    async (item: T) => {
      try {
        await deliver(item);
      } catch (error) {
        observer.failed('reminder');
        throw error;
      }
      observer.reminderFired(kind);
    };
  const delivery = createReminderDelivery({
    clients: deps.clients,
    snoozes: store.snoozes,
    vault: deps.vault,
    slack: deps.slack,
    logger,
  });
  const reminders = createReminderScheduler({
    store,
    cron: deps.cron,
    deliver: observed('scheduled', (reminder) => delivery.remind(reminder)),
    now,
    owner: deps.replicaId,
    logger,
  });
  const snoozes = createSnoozeRunner({
    store,
    deliver: observed('snoozed', (snooze) => delivery.remindAgain(snooze)),
    now,
    logger,
  });
  let lastHousekeeping = Number.NEGATIVE_INFINITY;
  return [
    {
      name: 'reminders',
      start: () => reminders.sync(),
      tick: () => reminders.sync(),
      stop: async () => reminders.stop(),
    },
    { name: 'snoozes', tick: () => snoozes.tick() },
    {
      name: 'reminder housekeeping',
      async tick() {
        if (now() - lastHousekeeping < HOUSEKEEPING_EVERY_MS) return;
        lastHousekeeping = now();
        await store.reminders.pruneRuns(now() - KEEP_REMINDER_RUNS_MS);
      },
    },
  ];
}

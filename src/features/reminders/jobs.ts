// The reminders' work for the scheduler: their cron entries kept in step with the store (so a reminder
// made through another replica fires here too) with the pruning of old occurrence claims, and the
// snoozed reminders that are due.
import type { SchedulerJob } from '../../scheduler/job.js';
import { storedCronJobs } from '../../scheduler/stored-cron-jobs.js';
import { type JobDepsOf, planJobs } from '../job-needs.js';
import { createReminderDelivery } from './reminder-delivery.js';
import { createSnoozeRunner } from './snoozes.js';

/** Claimed reminder occurrences only matter while replicas may still fire them. */
export const KEEP_REMINDER_RUNS_MS = 2 * 24 * 60 * 60_000;

const needs = {
  store: ['reminders', 'snoozes', 'machineOwners'],
  uses: ['clients', 'vault', 'slack', 'pacer', 'logger', 'now', 'observer', 'cron', 'replicaId'],
} as const;

export const reminderJobPlan = planJobs(needs, reminderJobs);

function reminderJobs(deps: JobDepsOf<typeof needs>): SchedulerJob[] {
  const { store, logger, now, observer } = deps;
  // Counted here, where every delivery passes: stored-cron-jobs.ts and snoozes.ts log the failure they rethrow.
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
    machineOwners: store.machineOwners,
    slack: deps.slack,
    pacer: deps.pacer,
    logger,
  });
  const snoozes = createSnoozeRunner({
    store,
    deliver: observed('snoozed', (snooze) => delivery.remindAgain(snooze)),
    now,
    logger,
  });
  return [
    ...storedCronJobs({
      noun: 'reminder',
      idField: 'reminderId',
      entries: store.reminders,
      cron: deps.cron,
      run: observed('scheduled', (reminder) => delivery.remind(reminder)),
      keepRunsMs: KEEP_REMINDER_RUNS_MS,
      now,
      owner: deps.replicaId,
      logger,
    }),
    { name: 'snoozes', tick: () => snoozes.tick() },
  ];
}

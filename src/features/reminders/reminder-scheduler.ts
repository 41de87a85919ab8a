// Shutdown reminders on the cron engine. The store is the truth: sync() schedules what is stored and
// drops what was deleted, at start and on every tick, so a reminder made through another replica is
// scheduled here too. Every replica fires every reminder; runOnce lets exactly one of them deliver it.
import type { Logger } from 'pino';
import { describeError } from '../../errors/describe-error.js';
import type { CronEngine, CronJob } from '../../scheduler/cron-engine.js';
import type { Reminder } from '../../store/reminders.js';
import type { Store } from '../../store/store.js';

export interface ReminderSchedulerDeps {
  store: Pick<Store, 'reminders'>;
  cron: CronEngine;
  deliver: (reminder: Reminder) => Promise<void>;
  now: () => number;
  /** This replica, recorded with each occurrence it claims. */
  owner: string;
  logger: Logger;
}

export interface ReminderScheduler {
  /** Schedules stored reminders not yet scheduled, and stops the ones deleted or changed since. */
  sync(): Promise<void>;
  /**
   * The one door every fire goes through: claims the occurrence of `reminderId` scheduled for
   * `scheduledAt` and runs `deliver` only if this caller got it. With several replicas on one database
   * exactly one claim succeeds; a deleted reminder's claim fails, so a late fire posts nothing.
   */
  runOnce(reminderId: string, scheduledAt: number, deliver: () => Promise<void>): Promise<boolean>;
  /** Stops every scheduled job. */
  stop(): void;
}

interface Scheduled {
  signature: string;
  job: CronJob | undefined;
}

const signatureOf = (reminder: Reminder) => `${reminder.cron}|${reminder.timezone}|${reminder.channel}`;

export function createReminderScheduler(deps: ReminderSchedulerDeps): ReminderScheduler {
  const { logger } = deps;
  const scheduled = new Map<string, Scheduled>();

  const runOnce: ReminderScheduler['runOnce'] = async (reminderId, scheduledAt, deliver) => {
    const claimed = await deps.store.reminders.claimRun(reminderId, scheduledAt, {
      owner: deps.owner,
      at: deps.now(),
    });
    if (!claimed) return false;
    await deliver();
    return true;
  };

  const fire = async (reminder: Reminder, scheduledAt: number) => {
    try {
      const delivered = await runOnce(reminder.id, scheduledAt, () => deps.deliver(reminder));
      logger.info(
        { reminderId: reminder.id, scheduledAt: new Date(scheduledAt).toISOString(), delivered },
        delivered ? 'reminder fired' : 'reminder fired elsewhere or was deleted',
      );
    } catch (error) {
      logger.error(
        { reminderId: reminder.id, error: describeError(error) },
        'a reminder could not be delivered',
      );
    }
  };

  const schedule = (reminder: Reminder): Scheduled => {
    const signature = signatureOf(reminder);
    try {
      const job = deps.cron.schedule(
        { name: `reminder:${reminder.id}`, expression: reminder.cron, timezone: reminder.timezone },
        (scheduledAt) => fire(reminder, scheduledAt),
      );
      return { signature, job };
    } catch (error) {
      // Kept as scheduled-without-a-job, so a stored reminder the engine refuses is logged once, not
      // every tick. The command validated it, so this means the runtime lost a time zone or the like.
      logger.error(
        {
          reminderId: reminder.id,
          cron: reminder.cron,
          timezone: reminder.timezone,
          error: describeError(error),
        },
        'a stored reminder could not be scheduled',
      );
      return { signature, job: undefined };
    }
  };

  return {
    runOnce,

    async sync() {
      const reminders = await deps.store.reminders.listAll();
      const wanted = new Map(reminders.map((reminder) => [reminder.id, reminder]));
      for (const [id, entry] of scheduled) {
        const reminder = wanted.get(id);
        if (reminder === undefined || signatureOf(reminder) !== entry.signature) {
          entry.job?.stop();
          scheduled.delete(id);
        }
      }
      for (const reminder of reminders) {
        if (!scheduled.has(reminder.id)) scheduled.set(reminder.id, schedule(reminder));
      }
    },

    stop() {
      for (const entry of scheduled.values()) entry.job?.stop();
      scheduled.clear();
    },
  };
}

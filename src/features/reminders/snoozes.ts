// "Snooze 1h" on a reminder: due snoozes are picked up on the poll tick. take() hands each one to
// exactly one replica, which asks about that one machine again.
import type { Logger } from 'pino';
import { describeError } from '../../errors/describe-error.js';
import type { Snooze } from '../../store/reminder-snoozes.js';
import type { Store } from '../../store/store.js';

export interface SnoozeRunner {
  tick(): Promise<void>;
}

/** Due snoozes handled per tick; the rest come next tick. */
const SNOOZES_PER_TICK = 100;

export function createSnoozeRunner(deps: {
  store: Pick<Store, 'snoozes'>;
  deliver: (snooze: Snooze) => Promise<void>;
  now: () => number;
  logger: Logger;
}): SnoozeRunner {
  return {
    async tick() {
      const due = await deps.store.snoozes.due(deps.now(), SNOOZES_PER_TICK);
      for (const snooze of due) {
        if (!(await deps.store.snoozes.take(snooze))) continue;
        try {
          await deps.deliver(snooze);
        } catch (error) {
          deps.logger.error(
            { machineId: snooze.machineId, user: snooze.userId, error: describeError(error) },
            'a snoozed reminder could not be delivered',
          );
        }
      }
    },
  };
}

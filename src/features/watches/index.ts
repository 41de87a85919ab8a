// Watches: `/ps wait`, and the polling behind every card that follows a machine to a state (the
// machines feature starts those through machines/machine-watcher.ts).
import type { Feature } from '../feature.js';
import { waitOperation } from './commands/wait.js';
import { type HomeRefresh, watchJobPlan } from './jobs.js';
import type { RowFinishers } from './row-messages.js';
import { watchesNeeds } from './watches-deps.js';

/**
 * `finishers`: how the reminders, cost alerts and team digests redraw a row of theirs once the watch a
 * click on it started ends (those features sit above watches).
 */
export function createWatchesFeature(refreshHome: HomeRefresh, finishers: RowFinishers) {
  return {
    needs: watchesNeeds,
    operations: [waitOperation],
    jobs: watchJobPlan(refreshHome, finishers),
  } as const satisfies Feature<typeof watchesNeeds>;
}

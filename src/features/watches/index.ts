// Watches: `/ps wait`, and the polling behind every card that follows a machine to a state (the
// machines feature starts those through machines/machine-watcher.ts).
import type { Feature } from '../feature.js';
import { waitCommand } from './commands/wait.js';
import { type HomeRefresh, watchJobs } from './jobs.js';

export function createWatchesFeature(refreshHome: HomeRefresh): Feature<'wait'> {
  return {
    commands: { wait: waitCommand },
    jobs: (deps) => watchJobs(deps, refreshHome),
  };
}

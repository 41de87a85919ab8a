// Watches: `/ps wait`, and the polling behind every card that follows a machine to a state (the
// machines feature starts those through machines/machine-watcher.ts).
import type { Feature } from '../feature.js';
import { waitCommand } from './commands/wait.js';
import { watchJobs } from './jobs.js';

export const watchesFeature: Feature<'wait'> = {
  commands: { wait: waitCommand },
  jobs: watchJobs,
};

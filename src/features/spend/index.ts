// The cost guard's spend side: `/ps spend` and the team digest (its command, its Stop buttons and the
// job that posts it). running-cost.ts is the one definition of running time and cost, also read by
// /ps usage and the cost alerts.
import type { Feature } from '../feature.js';
import { spend } from './commands/spend.js';

export const spendFeature: Feature<'spend'> = {
  commands: { spend },
};

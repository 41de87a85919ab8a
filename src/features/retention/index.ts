// Retention: no command of its own, only the daily prune of rows past their retention (jobs.ts).
import type { Feature } from '../feature.js';
import { retentionJobPlan } from './jobs.js';

export const retentionFeature: Feature = {
  jobs: retentionJobPlan,
};

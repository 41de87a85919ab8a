// Retention: no command of its own, only the daily prune of audit records and expired shares.
import type { Feature } from '../feature.js';
import { retentionJobs } from './jobs.js';

export const retentionFeature: Feature<never> = {
  commands: {},
  jobs: retentionJobs,
};

// What the workflow-steps feature's listeners and operations use, declared once: features/index.ts hands them an
// object that holds these repositories and services alone.
import type { DepsOf, FeatureNeeds } from '../feature-deps.js';

export const workflowStepsNeeds = {
  ports: ['workflowSteps', 'workflowStepRuns', 'approvals', 'vaultEntries', 'powerClaims', 'budgets'],
  services: ['vault', 'audit', 'watcher', 'now'],
} as const satisfies FeatureNeeds;

export type WorkflowStepsDeps = DepsOf<typeof workflowStepsNeeds>;

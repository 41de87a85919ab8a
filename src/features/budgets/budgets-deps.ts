// What the budgets feature's listeners and operations use, declared once: features/index.ts hands them an
// object that holds these repositories and services alone.
import type { DepsOf, FeatureNeeds } from '../feature-deps.js';

export const budgetsNeeds = {
  ports: ['budgets', 'approvals', 'vaultEntries', 'machineOwners'],
  services: ['vault', 'audit', 'now'],
} as const satisfies FeatureNeeds;

export type BudgetsDeps = DepsOf<typeof budgetsNeeds>;

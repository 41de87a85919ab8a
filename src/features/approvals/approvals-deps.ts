// What the approvals feature's listeners and operations use, declared once: features/index.ts hands them an
// object that holds these repositories and services alone.
import type { DepsOf, FeatureNeeds } from '../feature-deps.js';

export const approvalsNeeds = {
  ports: ['approvals', 'vaultEntries', 'watches', 'powerClaims', 'machineOwners', 'budgets'],
  services: ['vault', 'audit', 'watcher', 'now', 'redrawRow'],
} as const satisfies FeatureNeeds;

export type ApprovalsDeps = DepsOf<typeof approvalsNeeds>;

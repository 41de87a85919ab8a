// What the spend feature's listeners and operations use, declared once: features/index.ts hands them an
// object that holds these repositories and services alone.
import type { DepsOf, FeatureNeeds } from '../feature-deps.js';

export const spendNeeds = {
  ports: [
    'rowMessages',
    'teamDigests',
    'audit',
    'approvals',
    'vaultEntries',
    'watches',
    'powerClaims',
    'machineOwners',
    'budgets',
  ],
  services: ['vault', 'audit', 'watcher', 'now', 'redrawRow'],
} as const satisfies FeatureNeeds;

export type SpendDeps = DepsOf<typeof spendNeeds>;

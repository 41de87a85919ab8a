// What the machines feature's listeners and operations use, declared once: features/index.ts hands them an
// object that holds these repositories and services alone.
import type { DepsOf, FeatureNeeds } from '../feature-deps.js';

export const machinesNeeds = {
  ports: [
    'watches',
    'powerClaims',
    'approvals',
    'vaultEntries',
    'machineOwners',
    'budgets',
    'policies',
    'costAlerts',
    'receivedRequests',
  ],
  services: ['vault', 'audit', 'watcher', 'now', 'redrawRow'],
} as const satisfies FeatureNeeds;

export type MachinesDeps = DepsOf<typeof machinesNeeds>;

// What the home feature's listeners and operations use, declared once: features/index.ts hands them an
// object that holds these repositories and services alone.
import type { DepsOf, FeatureNeeds } from '../feature-deps.js';

export const homeNeeds = {
  ports: ['approvals', 'vaultEntries', 'machineOwners', 'policies', 'costAlerts'],
  services: ['vault', 'now'],
} as const satisfies FeatureNeeds;

export type HomeDeps = DepsOf<typeof homeNeeds>;

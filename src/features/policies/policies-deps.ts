// What the policies feature's listeners and operations use, declared once: features/index.ts hands them an
// object that holds these repositories and services alone.
import type { DepsOf, FeatureNeeds } from '../feature-deps.js';

export const policiesNeeds = {
  ports: ['policies', 'vaultEntries', 'approvals', 'machineOwners', 'rowMessages'],
  services: ['vault', 'audit', 'now'],
} as const satisfies FeatureNeeds;

export type PoliciesDeps = DepsOf<typeof policiesNeeds>;

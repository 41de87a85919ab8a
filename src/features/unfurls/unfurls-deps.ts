// What the unfurls feature's listeners and operations use, declared once: features/index.ts hands them an
// object that holds these repositories and services alone.
import type { DepsOf, FeatureNeeds } from '../feature-deps.js';

export const unfurlsNeeds = {
  ports: ['approvals', 'vaultEntries', 'machineOwners'],
  services: ['vault', 'now'],
} as const satisfies FeatureNeeds;

export type UnfurlsDeps = DepsOf<typeof unfurlsNeeds>;

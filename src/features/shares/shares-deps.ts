// What the shares feature's listeners and operations use, declared once: features/index.ts hands them an
// object that holds these repositories and services alone.
import type { DepsOf, FeatureNeeds } from '../feature-deps.js';

export const sharesNeeds = {
  ports: ['delegations'],
  services: ['vault', 'audit', 'now'],
} as const satisfies FeatureNeeds;

export type SharesDeps = DepsOf<typeof sharesNeeds>;

// What the watches feature's listeners and operations use, declared once: features/index.ts hands them an
// object that holds these repositories and services alone.
import type { DepsOf, FeatureNeeds } from '../feature-deps.js';

export const watchesNeeds = {
  ports: ['watches'],
  services: ['watcher', 'now'],
} as const satisfies FeatureNeeds;

export type WatchesDeps = DepsOf<typeof watchesNeeds>;

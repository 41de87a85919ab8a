// What the slackbot feature's listeners use, declared once: features/index.ts hands them an object that
// holds these repositories and services alone.
import type { DepsOf, FeatureNeeds } from '../feature-deps.js';

export const slackbotNeeds = {
  ports: ['slackbotProposals'],
  services: ['audit', 'now'],
} as const satisfies FeatureNeeds;

export type SlackbotDeps = DepsOf<typeof slackbotNeeds>;

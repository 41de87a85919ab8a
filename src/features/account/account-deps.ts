// What the account feature's listeners and operations use, declared once: features/index.ts hands them an
// object that holds these repositories and services alone.
import type { DepsOf, FeatureNeeds } from '../feature-deps.js';

export const accountNeeds = {
  ports: [
    'slackInstallations',
    'workspaces',
    'delegations',
    'approvals',
    'vaultEntries',
    'machineOwners',
    'policies',
    'costAlerts',
  ],
  services: ['vault', 'audit', 'now'],
} as const satisfies FeatureNeeds;

export type AccountDeps = DepsOf<typeof accountNeeds>;

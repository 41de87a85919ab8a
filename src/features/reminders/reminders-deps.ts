// What the reminders feature's listeners and operations use, declared once: features/index.ts hands them an
// object that holds these repositories and services alone.
import type { DepsOf, FeatureNeeds } from '../feature-deps.js';

export const remindersNeeds = {
  ports: [
    'rowMessages',
    'reminders',
    'snoozes',
    'approvals',
    'vaultEntries',
    'watches',
    'powerClaims',
    'budgets',
  ],
  services: ['vault', 'audit', 'watcher', 'now', 'redrawRow'],
} as const satisfies FeatureNeeds;

export type RemindersDeps = DepsOf<typeof remindersNeeds>;

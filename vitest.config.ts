import { defineConfig } from 'vitest/config';

/**
 * The bot's end-to-end tests that also run against the emulator's v1 routes (list, show, start and
 * its completion, usage, create, reminders, requests and approvals): the same files, with the test
 * bot speaking v1. Login and share differ by design (a v1 key names its person; v1 shares through
 * accessors, not a delegation), so v1's have their own files, login-v1.test.ts and share-v1.test.ts.
 */
const BOTH_DIALECTS = [
  'test/features/catalog/lists.test.ts',
  'test/features/catalog/list-calls.test.ts',
  'test/features/machines/show-usage.test.ts',
  'test/features/machines/owner-on-cards.test.ts',
  'test/features/machines/power.test.ts',
  'test/features/budgets/budgets.test.ts',
  'test/features/machines/create.test.ts',
  'test/features/approvals/create-request-words.test.ts',
  'test/features/watches/power-watch.test.ts',
  'test/features/watches/intent-recovery.test.ts',
  'test/features/approvals/approvals.test.ts',
  'test/features/approvals/approvers.test.ts',
  'test/features/reminders/reminders.test.ts',
  'test/features/reminders/stop-all.test.ts',
  'test/features/spend/spend.test.ts',
  'test/features/spend/digest.test.ts',
  'test/features/cost-alerts/cost-alerts.test.ts',
  'test/features/cost-alerts/stop-between-checks.test.ts',
  'test/features/policies/idle.test.ts',
  'test/features/policies/policies.test.ts',
  'test/features/policies/run-limit.test.ts',
  'test/features/policies/lease-cards.test.ts',
  'test/features/workflow-steps/request-step.test.ts',
  'test/features/shares/share-outsider.test.ts',
  'test/features/unfurls/unfurl-owner.test.ts',
  'test/features/unfurls/unfurl-bounds.test.ts',
  'test/features/slackbot/slackbot-reads.test.ts',
  'test/features/slackbot/slackbot-changes.test.ts',
  'test/features/slackbot/slackbot-request.test.ts',
];

export default defineConfig({
  test: {
    // Tests start real HTTP servers on port 0; a generous timeout absorbs a noisy shared machine
    // without hiding a hang (every wait inside a test has its own, shorter bound).
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    globalSetup: [
      'test/store/postgres-skip-notice.ts',
      'test/support/manifest-schema-skip-notice.ts',
      'test/support/mcp-conformance-skip-notice.ts',
    ],
    projects: [
      { extends: true, test: { name: 'contract', include: ['test/**/*.test.ts'] } },
      {
        extends: true,
        test: { name: 'v1', include: BOTH_DIALECTS, env: { TEST_PAPERSPACE_DIALECT: 'v1' } },
      },
    ],
  },
});

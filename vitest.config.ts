import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests start real HTTP servers on port 0; a generous timeout absorbs a noisy shared machine
    // without hiding a hang (every wait inside a test has its own, shorter bound).
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    globalSetup: ['test/store/postgres-skip-notice.ts', 'test/support/manifest-schema-skip-notice.ts'],
  },
});

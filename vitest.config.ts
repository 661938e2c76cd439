// Vitest: pure unit tests without services; integration tests share one PostgreSQL
// (server from TEST_DATABASE_URL, else embedded) and get a database per test file.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    pool: 'forks',
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 10_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          // Lets memory tests measure the heap after a real collection.
          execArgv: ['--expose-gc'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

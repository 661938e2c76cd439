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
      {
        // Crash, outage and shutdown scenarios with the service as child processes (docs/reliability.md):
        // short form in `npm test`, full form with RESILIENCE=full (`npm run test:resilience`). Runs after the
        // other projects, one file at a time, so its processes and timings do not compete for the CPU.
        test: {
          name: 'resilience',
          include: ['test/resilience/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          sequence: { groupOrder: 1 },
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Property-based hostile input on every JSON route, signatures and channel input (docs/reliability.md);
        // in-process, so it runs beside the integration tests. Sized by RESILIENCE=full like the scenarios.
        test: {
          name: 'hostile-input',
          include: ['test/resilience/hostile/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

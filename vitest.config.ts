// Vitest: pure unit tests without services; integration tests share one PostgreSQL
// (server from TEST_DATABASE_URL, else embedded) and get a database per test file.
import { defineConfig } from 'vitest/config';

/**
 * Unit test files that replace a module (`vi.mock`): they run isolated, since without isolation a module cached by an
 * earlier file would keep the real import (or keep the mock for later files). `test/unit/architecture/` checks the list.
 */
export const ISOLATED_UNIT_FILES = ['test/unit/engine/attempt-worker.test.ts'];

export default defineConfig({
  test: {
    pool: 'forks',
    // Vitest's default on 2 cores is one worker (cores - 1): every file one after the other, while most of an
    // integration file's time is spent waiting on PostgreSQL, sockets and child processes. Two workers keep both
    // cores busy there (docs/testing.md, "CI time"). Projects with another maxWorkers need a group of their own.
    maxWorkers: 2,
    projects: [
      {
        // Pure logic: one module graph per worker (no per-file isolation) saves most of the import time. First and
        // alone, one file at a time: its property tests and regex budgets are CPU-bound and timed.
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: ISOLATED_UNIT_FILES,
          isolate: false,
          maxWorkers: 1,
          testTimeout: 10_000,
        },
      },
      {
        test: {
          name: 'unit-isolated',
          include: ISOLATED_UNIT_FILES,
          maxWorkers: 1,
          testTimeout: 10_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // One module graph per worker, as for unit: each file used to import the service's source tree afresh
          // (138 s of import for 110 files; the project 307 s -> 210 s of wall time, docs/testing.md "CI time").
          // Every file builds its own service, database and clock; none replaces a module (a unit rule checks it).
          isolate: false,
          globalSetup: ['test/support/global-setup.ts'],
          sequence: { groupOrder: 1 },
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
          sequence: { groupOrder: 2 },
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
          sequence: { groupOrder: 1 },
          testTimeout: 300_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

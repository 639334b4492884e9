import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Integration tests start brokers, servers and child processes; keep the
    // 2-core CI machine from oversubscribing.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // `npm test` runs with --coverage: the product's code must stay covered by the in-process tests
    // (code run only inside spawned daemons is not counted, so these are lower bounds).
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      // main.ts (the version check, then process.ts) and process.ts (process signals wired to runCli)
      // run in the spawned-daemon tests.
      exclude: ['src/cli/main.ts', 'src/cli/process.ts'],
      reporter: ['text-summary'],
      thresholds: { lines: 95, branches: 88 },
    },
  },
});

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Vite would resolve graphql's ESM build for our code while Node loads its CommonJS build for Pothos and yoga;
  // two copies of graphql cannot share a schema, so everyone gets the one Node loads.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/**/*.test.ts'],
    // Each file runs in its own process with its own database (PGlite in memory, or a fresh PostgreSQL database when
    // TEST_DATABASE_URL is set), so files are independent and the process-wide database handle stays simple.
    pool: 'forks',
    // Vitest's default on two cores is one worker, which leaves a core idle while a file waits on PostgreSQL, a child
    // process or a socket; two files at a time keep both cores busy.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: 'test' },
  },
});

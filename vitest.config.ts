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
    // On PGlite each file has its own in-process database, so two files at a time keep both cores busy (Vitest's
    // default on two cores is one worker). On PostgreSQL files share one server, and the event stream reads only below
    // the server-wide snapshot horizon (src/events/stream.ts): another file's open transaction would hold its reads
    // back, so files run one at a time there.
    maxWorkers: process.env.TEST_DATABASE_URL ? 1 : Math.max(2, availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: 'test' },
  },
});

import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// These files start the server or the CLI as child processes on an embedded database of their own (the children never
// see TEST_DATABASE_URL), so the PostgreSQL pass would run exactly what the PGlite pass ran: they run once, there.
// test/ops/first-start.test.ts stays in both: it starts a server on TEST_DATABASE_URL's server too.
const embeddedProcessTests = [
  'test/ops/cli.test.ts',
  'test/ops/webhooks-cli.test.ts',
  'test/ops/server-process.test.ts',
  'test/ops/redis-startup.test.ts',
  'test/ops/graceful-stop.test.ts',
  'test/ops/redis-stall.test.ts',
  'test/ops/backup.test.ts',
  'test/ops/metrics-port.test.ts',
];

// Files that take 15 s or more start first, so that no worker runs one alone at the end. Vitest would start them late:
// on a fresh clone it has no timings and starts the largest files first, and the PGlite pass times the webhook fault
// run, which only PostgreSQL runs, as instant (on PostgreSQL it ended the pass alone: 167 s against 150 s).
const slowFiles = [
  'test/fuzz/',
  'test/ops/',
  'test/webhooks/webhook-faults.test.ts',
  'test/db/migrations.test.ts',
  'test/permissions/matrix.test.ts',
];

class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const isSlow = (file: TestSpecification) =>
      slowFiles.some((path) => relative(file.project.config.root, file.moduleId).startsWith(path));
    return [...sorted.filter(isSlow), ...sorted.filter((file) => !isSlow(file))];
  }
}

export default defineConfig({
  // Vite would resolve graphql's ESM build for our code while Node loads its CommonJS build for Pothos and yoga;
  // two copies of graphql cannot share a schema, so everyone gets the one Node loads.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    exclude: process.env.TEST_DATABASE_URL
      ? [...configDefaults.exclude, ...embeddedProcessTests]
      : configDefaults.exclude,
    // Each file opens its own database (PGlite in memory, or a PostgreSQL database when TEST_DATABASE_URL is set), a copy
    // of the one test/support/global-setup.ts migrated for the run, and closes it when done, so files are independent
    // and the process-wide database handle stays simple. A worker process runs its files one after another and keeps
    // the modules it loaded (src, Prisma, the schema) between them: loading them again for every file was half the
    // suite's time.
    pool: 'forks',
    isolate: false,
    // Two files at a time keep both cores busy (Vitest's default on two cores is one worker). On PostgreSQL the files
    // share one server, whose event stream reads stop at the server-wide snapshot horizon (src/outbox/stream.ts):
    // another file's open transaction delays every event, so a test that expects exactly which events come next waits
    // for the horizon first (test/support/stream.ts). To find one that does not, run the PostgreSQL pass while another
    // connection keeps overlapping transactions open (in a shell loop, every 0.15 s in the background:
    // psql -c "BEGIN; SELECT pg_current_xact_id(); SELECT pg_sleep(0.3); COMMIT;").
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: SlowFilesFirst },
    // Bounds for a hung test, not measures: at load average 10 a step that takes a second here takes tens. Passing
    // tests never wait for them, and the benchmarks under bench/ measure speed.
    testTimeout: 120_000,
    // A poll waits for background work (webhook delivery, the event follower).
    expect: { poll: { timeout: 30_000 } },
    hookTimeout: 120_000,
    env: { NODE_ENV: 'test' },
  },
});

/**
 * Start-up as an operator meets it: the compiled server (as `npm start` runs it) started on an empty embedded database
 * (migrations and the demo district), started again on it, and started on an empty PostgreSQL database. Prints the
 * time until /readyz answers and the resident size 3 s later, for each of `--runs` rounds.
 *
 *   npm run bench:start -- [--runs 3]
 * BENCH_DATABASE_URL names a PostgreSQL server (default postgres@127.0.0.1:5432); a fresh database is made there.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { buildServer, startServerProcess, waitUntilReady } from '../test/support/process';
import { benchDatabase, residentMiB } from './support';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });

/** Milliseconds until ready and resident MiB 3 s later; the server is stopped before it returns. */
async function measure(env: Record<string, string>) {
  const started = performance.now();
  const server = await startServerProcess({ LOG_LEVEL: 'warn', ...env });
  await waitUntilReady(server);
  const readyMs = performance.now() - started;
  await sleep(3_000);
  const resident = await residentMiB(server.child.pid!);
  server.child.kill('SIGTERM');
  await server.exited;
  return `ready in ${(readyMs / 1000).toFixed(2)} s, resident ${resident.toFixed(0)} MiB`;
}

buildServer();
for (let run = 1; run <= Number(values.runs); run++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-start-'));
  const database = benchDatabase();
  await database.create();
  try {
    console.log(`run ${run}`);
    console.log(`  embedded, first start: ${await measure({ DATA_DIR: dataDir })}`);
    console.log(`  embedded, next start:  ${await measure({ DATA_DIR: dataDir })}`);
    console.log(
      `  PostgreSQL, first start: ${await measure({ DATA_DIR: dataDir, DATABASE_URL: database.url, SECRET_KEY: randomBytes(32).toString('hex') })}`,
    );
  } finally {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

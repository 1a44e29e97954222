/**
 * The long fuzz run: the suite's fuzz targets (test/fuzz/targets.ts: every /v1 write route in JSON and XML, every
 * GraphQL mutation and query field with arguments) against an in-process app, `--runs` requests shared equally among
 * them. Prints the requests sent, the statuses seen per target, and every 5xx (or masked GraphQL error, or /v1 answer
 * outside its wire contract) with the request that caused it, shrunk by fast-check to a minimal one.
 *
 *   npm run fuzz                                  # 100,000 requests, in-memory PGlite
 *   npm run fuzz -- --runs 5000 --seed 42         # a seed repeats a run
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npm run fuzz   # a temporary database on that server
 *
 * LOG_LEVEL=error shows the server's log of each failure (its cause and stack).
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { createApp } from '../src/app';
import { loadServerKey } from '../src/auth/server-key';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { openFileStore, useFileStore } from '../src/modules/uploads/file-store';
import { schema } from '../src/graphql/schema';
import { createLogger } from '../src/http/logging';
import { restRoutes } from '../src/rest/routes';
import { Stages } from '../test/fuzz/stage';
import { type FuzzTarget, Tally, graphqlTargets, restTargets } from '../test/fuzz/targets';
import { assertWireContract } from '../test/support/contract';
import type { TestServer } from '../test/support/harness';
import { databaseUrl, withClient } from '../test/support/postgres';
import { testOrigin } from '../test/support/wire';

const { values: options } = parseArgs({
  options: { runs: { type: 'string', default: '100000' }, seed: { type: 'string' } },
});
const runs = Number(options.runs);
const seed = options.seed === undefined ? Date.now() % 2 ** 31 : Number(options.seed);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed))
  throw new Error('usage: npm run fuzz -- [--runs N] [--seed S]');

/** A fresh database on DATABASE_URL's server, dropped at the end, so a run never writes into a real one. */
async function temporaryDatabase(serverUrl: string) {
  const name = `lectern_fuzz_${randomBytes(4).toString('hex')}`;
  const admin = (sql: string) => withClient(serverUrl, (client) => client.query(sql));
  await admin(`CREATE DATABASE ${name}`);
  return { url: databaseUrl(serverUrl, name), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function startServer(databaseUrl: string | null): Promise<TestServer> {
  const config = loadConfig({
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    RATE_LIMIT: 'off',
    // Revoking its own token is fair game for a fuzzed request; the 401s that follow must not block the address.
    AUTH_FAILURES_PER_ADDRESS: 'off',
    AUTH_FAILURES_PER_CONSUMER_KEY: 'off',
    DATA_DIR: 'memory://',
    SECRET_KEY: randomBytes(32).toString('hex'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();
  const serverKey = await loadServerKey(config);
  useFileStore(await openFileStore(config));
  const app = createApp({ config, database, serverKey, logger: createLogger(config) });
  // As in the suite: every /v1 answer is held to its route's wire contract; a breach fails the request's property.
  const checkedFetch = async (request: Request) => {
    const response = await app.fetch(request);
    if (new URL(request.url).pathname.startsWith('/v1')) await assertWireContract(request, response);
    return response;
  };
  const checkedApp = new Proxy(app, {
    get: (target, key) => (key === 'fetch' ? checkedFetch : Reflect.get(target, key)),
  });
  return {
    app: checkedApp,
    database,
    config,
    serverKey,
    fetch: (path, init) => checkedFetch(new Request(new URL(path, testOrigin), init)),
  };
}

interface Failure {
  target: string;
  shrinks: number;
  report: string;
}

async function fuzz(targets: FuzzTarget[], stages: Stages, tally: Tally): Promise<Failure[]> {
  const failures: Failure[] = [];
  const runsPerTarget = Math.ceil(runs / targets.length);
  for (const [index, target] of targets.entries()) {
    const started = Date.now();
    const details = await fc.check(target.property(stages, tally), { seed: seed + index, numRuns: runsPerTarget });
    if (details.failed) {
      const error =
        details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      failures.push({
        target: target.name,
        shrinks: details.numShrinks,
        report: `${error}\nsample: ${fc.stringify(details.counterexample)}`,
      });
    }
    const outcome = details.failed ? `FAILED after ${details.numRuns} runs` : `${details.numRuns} runs`;
    console.error(
      `[${index + 1}/${targets.length}] ${target.name}: ${outcome} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  return failures;
}

function printReport(tally: Tally, failures: Failure[], seconds: number) {
  const overall = new Map<string, number>();
  console.log(
    `\nfuzz seed ${seed}: ${tally.sent} requests sent (re-sends while shrinking included) in ${seconds.toFixed(0)} s`,
  );
  console.log('\nstatuses per target:');
  for (const [target, histogram] of tally.statuses) {
    const statuses = [...histogram].sort(([a], [b]) => String(a).localeCompare(String(b)));
    for (const [status, count] of statuses) overall.set(String(status), (overall.get(String(status)) ?? 0) + count);
    console.log(`  ${target.padEnd(44)} ${statuses.map(([status, count]) => `${status}: ${count}`).join('  ')}`);
  }
  const total = [...overall].sort(([a], [b]) => a.localeCompare(b));
  console.log(`  ${'all'.padEnd(44)} ${total.map(([status, count]) => `${status}: ${count}`).join('  ')}`);
  const serverErrors = [...tally.statuses.keys()].reduce((sum, target) => sum + tally.count(target, 500, 600), 0);
  console.log(`\n5xx answers: ${serverErrors}; failing targets: ${failures.length}`);
  for (const failure of failures) {
    console.log(`\n=== ${failure.target} (shrunk in ${failure.shrinks} steps)\n${failure.report}`);
  }
}

const temporary = process.env.DATABASE_URL ? await temporaryDatabase(process.env.DATABASE_URL) : null;
const server = await startServer(temporary?.url ?? null);
const started = Date.now();
try {
  const tally = new Tally();
  const targets = [...restTargets(restRoutes, schema, server), ...graphqlTargets(schema, server)];
  const failures = await fuzz(targets, new Stages(server), tally);
  printReport(tally, failures, (Date.now() - started) / 1000);
  process.exitCode = failures.length ? 1 : 0;
} finally {
  await server.database.close();
  await temporary?.drop();
}

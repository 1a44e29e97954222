/**
 * Fault run: POST /v1/groups with Idempotency-Key keys from concurrent clients against a server process on PostgreSQL,
 * `kill -9` it while writes are in flight (several times), restart it, and let every client retry until answered.
 * Prints what was acknowledged, what the database holds, duplicates, lost writes and the statuses seen.
 *
 *   npx tsx bench/kill-restart.ts [--writes 500] [--kills 3]
 * BENCH_DATABASE_URL names a PostgreSQL server (default postgres@127.0.0.1:5432); a fresh database is made there.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import OAuth from 'oauth-1.0a';
import pg from 'pg';
import { type ServerProcess, buildServer, startServerProcess, waitUntilReady } from '../test/support/process';

const { values } = parseArgs({
  options: { writes: { type: 'string', default: '500' }, kills: { type: 'string', default: '3' } },
});
const writes = Number(values.writes);
const kills = Number(values.kills);
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

const name = `lectern_faults_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const databaseUrl = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).href;

const key = 'fault-run-key';
const secret = 'fault-run-secret';
const env = {
  DATABASE_URL: databaseUrl,
  SECRET_KEY: randomBytes(32).toString('hex'),
  BOOTSTRAP_CONSUMER_KEY: key,
  BOOTSTRAP_CONSUMER_SECRET: secret,
  RATE_LIMIT: 'off',
  LOG_LEVEL: 'error',
  SEED_DEMO: 'off',
};
buildServer();
let server: ServerProcess = await startServerProcess(env);
await waitUntilReady(server);
const port = new URL(server.base).port;

const oauth = new OAuth({
  consumer: { key, secret },
  signature_method: 'PLAINTEXT',
  hash_function: (_base, signingKey) => signingKey,
});
const statuses = new Map<string, number>();
const count = (status: string) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
const acknowledged = new Set<number>();

async function writeOnce(index: number): Promise<boolean> {
  const url = `http://127.0.0.1:${port}/v1/groups`;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        ...oauth.toHeader(oauth.authorize({ url, method: 'POST' }, { key: '', secret: '' })),
        'content-type': 'application/json',
        'idempotency-key': `write-${index}`,
      },
      body: JSON.stringify({ title: `Fault run ${index}` }),
    });
    const text = await response.text();
    // Committed before the kill but never answered: after a while the key says so, and the write is not repeated.
    const answerLost = response.status === 409 && text.includes('answer was lost');
    count(answerLost ? '409 answer lost' : String(response.status));
    if (response.status === 201) acknowledged.add(index);
    return response.status === 201 || answerLost;
  } catch {
    count('connection error');
    return false;
  }
}

async function client(indexes: number[]) {
  for (const index of indexes) {
    // Keys of writes cut off by a kill stay in flight until their lease lapses (10 s at most); then a retry takes over.
    const deadline = Date.now() + 90_000;
    while (!(await writeOnce(index)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const clients = 10;
const work = Array.from({ length: clients }, (_, c) =>
  client(Array.from({ length: writes }, (_, i) => i).filter((i) => i % clients === c)),
);
const killer = (async () => {
  for (let kill = 1; kill <= kills; kill++) {
    while (acknowledged.size < (writes * kill) / (kills + 1)) await new Promise((resolve) => setTimeout(resolve, 20));
    server.child.kill('SIGKILL');
    await server.exited;
    server = await startServerProcess({ ...env, PORT: port });
    await waitUntilReady(server);
  }
})();
await Promise.all([...work, killer]);

const rows = await new pg.Client({ connectionString: databaseUrl });
await rows.connect();
const stored = await rows.query<{ title: string; copies: string }>(
  `SELECT title, count(*) AS copies FROM groups WHERE title LIKE 'Fault run %' GROUP BY title`,
);
await rows.end();
server.child.kill('SIGTERM');
await server.exited;
await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
await admin.end();

const duplicates = stored.rows.filter((row) => Number(row.copies) > 1).length;
const lost = [...acknowledged].filter((index) => !stored.rows.some((row) => row.title === `Fault run ${index}`)).length;
console.log(`writes ${writes}, kill -9 ${kills} times while writing`);
console.log(`acknowledged ${acknowledged.size}, stored ${stored.rows.length}, duplicates ${duplicates}, lost ${lost}`);
console.log(
  `5xx answers: ${[...statuses].filter(([status]) => status.startsWith('5')).reduce((sum, [, n]) => sum + n, 0)}`,
);
console.log('answers (all attempts):', Object.fromEntries([...statuses].sort()));

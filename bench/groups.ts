/**
 * REST facade versus GraphQL, on PostgreSQL: starts the server as its own process on a fresh database with 1,000
 * groups, then loads it with autocannon for 10 s per scenario (GET /v1/groups as JSON and as XML, and the equivalent
 * GraphQL query), each request freshly signed with OAuth 1.0a as real clients do. Prints requests/s, p99 latency,
 * the REST/GraphQL throughput ratio, and SQL statements per request as PostgreSQL counted them (committed
 * transactions; every statement outside a transaction is one).
 *
 *   npm run bench                      # BENCH_DATABASE_URL defaults to postgresql://postgres@127.0.0.1:5432/postgres
 *   BENCH_SECONDS=5 BENCH_ROUNDS=1 npm run bench
 */
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import OAuth from 'oauth-1.0a';
import pg from 'pg';
import { deriveKey } from '../src/auth/secrets';
import { openDatabase } from '../src/db/database';
import { issueApiClient } from '../src/modules/access/access.service';

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const port = Number(process.env.BENCH_PORT ?? 4555);
const origin = `http://127.0.0.1:${port}`;
const secretKey = randomBytes(32).toString('hex');
const databaseName = `lectern_bench_${randomBytes(4).toString('hex')}`;
const databaseUrl = Object.assign(new URL(serverUrl), { pathname: `/${databaseName}` }).href;

async function admin<T>(work: (client: pg.Client) => Promise<T>, url = serverUrl): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function seed() {
  const database = await openDatabase({ databaseUrl, dataDir: '' });
  await database.migrate();
  const prisma = database.prisma;
  const district = await prisma.district.create({ data: { title: 'Bench District' } });
  const school = await prisma.school.create({ data: { districtId: district.id, title: 'Bench School' } });
  const user = await prisma.user.create({
    data: { schoolId: school.id, username: 'bench', nameFirst: 'Bench', nameLast: 'Admin', role: 'DISTRICT_ADMIN' },
  });
  await prisma.group.createMany({
    data: Array.from({ length: 1000 }, (_, index) => ({
      schoolId: school.id,
      title: `Group ${index + 1}`,
      description: 'A group for benchmarking & <testing>',
      accessCode: `BENCH-${String(index).padStart(5, '0')}`,
    })),
  });
  const client = await issueApiClient(deriveKey(secretKey), { userId: user.id, name: 'bench' });
  // A live database has planner statistics (autovacuum); without them a freshly bulk-loaded table gets plans that
  // evaluate every row before the LIMIT, and the benchmark would measure that instead of the server.
  await prisma.$executeRawUnsafe('ANALYZE');
  await database.close();
  return client;
}

async function startServer() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, SECRET_KEY: secretKey, PORT: String(port), RATE_LIMIT: 'off', LOG_LEVEL: 'warn', NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(`${origin}/readyz`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill();
  throw new Error('server did not become ready');
}

const committedTransactions = () =>
  admin(async (client) => {
    // Statistics are flushed lazily; ask for a fresh snapshot.
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query('SELECT xact_commit::bigint AS n FROM pg_stat_database WHERE datname = $1', [databaseName]);
    return Number(rows[0].n);
  });

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const graphqlQuery = `query { groups(start: 0, limit: 20) { total items {
  id title description pictureUrl website accessCode privacyLevel category { id } groupCode
  inviteType memberPost memberPostComment createDiscussion createFiles school { id } building { id } } } }`;

async function run(scenario: Scenario, oauth: OAuth) {
  const url = `${origin}${scenario.path}`;
  const sign = () => oauth.toHeader(oauth.authorize({ method: scenario.method, url }, { key: '', secret: '' })).Authorization;
  const options: autocannon.Options = {
    url: origin,
    connections,
    requests: [
      {
        method: scenario.method,
        path: scenario.path,
        body: scenario.body,
        setupRequest: (request) => ({ ...request, headers: { ...scenario.headers, authorization: sign() } }),
      },
    ],
  };
  await autocannon({ ...options, duration: 5 }); // warm-up: JIT, pools, caches
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const before = await committedTransactions();
  const result = await autocannon({ ...options, duration: seconds });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const statements = ((await committedTransactions()) - before - 1) / result.requests.total;
  if (result.non2xx) throw new Error(`${scenario.name}: ${result.non2xx} responses were not 2xx`);
  return { name: scenario.name, rps: result.requests.average, p99: result.latency.p99, statements };
}

const credentials = await (async () => {
  await admin((client) => client.query(`CREATE DATABASE ${databaseName}`));
  return seed();
})();
const server = await startServer();
try {
  const oauth = new OAuth({
    consumer: { key: credentials.consumerKey, secret: credentials.consumerSecret },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
  const scenarios: Scenario[] = [
    { name: 'REST GET /v1/groups (JSON)', method: 'GET', path: '/v1/groups', headers: { accept: 'application/json' } },
    { name: 'REST GET /v1/groups (XML)', method: 'GET', path: '/v1/groups', headers: { accept: 'text/xml' } },
    {
      name: 'GraphQL groups(limit: 20)',
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: graphqlQuery }),
    },
  ];
  // Two rounds, scenarios interleaved, averaged: on a small machine one run of one scenario is at the mercy of noise.
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
  const runs: Awaited<ReturnType<typeof run>>[][] = scenarios.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [index, scenario] of scenarios.entries()) runs[index].push(await run(scenario, oauth));
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const results = runs.map((scenarioRuns) => ({
    name: scenarioRuns[0].name,
    rps: mean(scenarioRuns.map((r) => r.rps)),
    p99: Math.max(...scenarioRuns.map((r) => r.p99)),
    statements: mean(scenarioRuns.map((r) => r.statements)),
  }));
  console.log(`\n${rounds} rounds of ${seconds} s per scenario, ${connections} connections, 1,000 groups, pages of 20, OAuth HMAC-SHA1 on every request\n`);
  console.log('scenario                         req/s     p99 ms   SQL statements/request   (req/s: mean of rounds; p99: worst round)');
  for (const r of results) {
    console.log(`${r.name.padEnd(32)} ${r.rps.toFixed(0).padStart(6)} ${String(r.p99).padStart(10)} ${r.statements.toFixed(2).padStart(10)}`);
  }
  const graphql = results[2].rps;
  console.log(`\nREST/GraphQL throughput: JSON ${(results[0].rps / graphql).toFixed(3)}, XML ${(results[1].rps / graphql).toFixed(3)} (target: at least 0.85)`);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`));
}

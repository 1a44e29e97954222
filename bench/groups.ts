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
import { createHmac, randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import OAuth from 'oauth-1.0a';
import { deriveKey } from '../src/auth/secrets';
import { openDatabase } from '../src/db/database';
import { issueApiClient } from '../src/modules/access/access.service';
import { benchDatabase, startServerProcess } from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const port = Number(process.env.BENCH_PORT ?? 4555);
const origin = `http://127.0.0.1:${port}`;
const secretKey = randomBytes(32).toString('hex');
const database = benchDatabase();

async function seed() {
  const seeding = await openDatabase({ databaseUrl: database.url, dataDir: '' });
  await seeding.migrate();
  const prisma = seeding.prisma;
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
  await seeding.close();
  return client;
}

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
  const before = await database.committedTransactions();
  const result = await autocannon({ ...options, duration: seconds });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const statements = ((await database.committedTransactions()) - before - 1) / result.requests.total;
  if (result.non2xx) throw new Error(`${scenario.name}: ${result.non2xx} responses were not 2xx`);
  return { name: scenario.name, rps: result.requests.average, p99: result.latency.p99, statements };
}

const credentials = await (async () => {
  await database.create();
  return seed();
})();
const server = await startServerProcess({ databaseUrl: database.url, port, env: { SECRET_KEY: secretKey } });
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
  await database.drop();
}

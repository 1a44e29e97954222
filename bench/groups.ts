/**
 * Lectern's hot path against its floor, on PostgreSQL, in one invocation: the server runs as its own process on a
 * fresh database with 1,000 groups, next to bench/floor.ts (a hand-written `node:http` + `pg` endpoint serving the
 * same answers with the same envelope), and autocannon loads each target for BENCH_SECONDS at BENCH_CONNECTIONS.
 * Every result is printed as req/s, p99 and share of the floor's req/s, with SQL statements per request as
 * PostgreSQL counted them (committed transactions: every statement outside a transaction is one), the serving process's
 * CPU per request, and how busy its main thread was: a process whose main thread is busy nearly all the time is bound
 * by its JavaScript, one whose thread waits is bound by what the machine's other processes leave it. Each target is
 * loaded unmeasured first: BENCH_WARMUP_SECONDS (10) before its first round, 5 s before each later one. With
 * BENCH_ROUNDS above 1 the p99 printed is the worst round's, and every round's follows the row.
 *
 * Beside the floor runs bench/bare-stack.ts: graphql-yoga, Pothos and Prisma with nothing of Lectern's (no
 * authentication, no permission checks, no limits), answering the same GraphQL list, single group and create. Its
 * share of the floor is what any server built on that stack can reach at best.
 *
 * Parts (BENCH_PARTS, comma-separated, all by default):
 *   lists    a page of 20 groups with the total: floor; GraphQL `groups(start, limit)` Bearer; GET /v1/groups JSON and
 *            XML, each with a Bearer token and with OAuth HMAC-SHA1 (freshly signed per request, as clients do)
 *   objects  GET /v1/groups/{id} (each request another of the groups, at random) and POST /v1/groups, each against
 *            the floor endpoint doing the same statements
 *   memory   resident size, live heap and the heap V8 holds (after a full collection, read through the server's
 *            inspector) of the server process idle and after each of three runs of BENCH_MEMORY_REQUESTS (50,000) list
 *            requests, and the growth between the second and the third; and the garbage collections during each run
 *            (young ones: how many, how long they paused the server)
 *   sizes    the list at each of BENCH_SIZES groups (1000,100000 by default; add 1000000 for the million, which takes
 *            a minute to seed; the groups the objects part created are deleted first), at start 0 and at the last
 *            page: req/s of ours and the floor's, and the database time of every statement of the page (count,
 *            ids, rows, or rows with count: captured at the driver in this process, timed with EXPLAIN ANALYZE),
 *            each and summed; the middle page's database time too; and the first page of a small district (30
 *            groups) made after the largest size, in database time
 *   compression  each answer below unencoded, in gzip and in brotli (Accept-Encoding: identity, gzip, br): req/s, p99,
 *            the server's CPU per request and the bytes sent per answer, for the GraphQL list of 20 groups, GET
 *            /v1/groups?limit=200 in JSON and in XML, and the introspection answer GraphiQL asks for
 *
 *   npm run bench                      # BENCH_DATABASE_URL defaults to postgresql://postgres@127.0.0.1:5432/postgres
 *   BENCH_SECONDS=5 BENCH_PARTS=lists npm run bench
 *   BENCH_SIZES=1000,100000,1000000 BENCH_PARTS=sizes npm run bench
 *   BENCH_CPU_PROF=/tmp/prof BENCH_PARTS=lists npm run bench   # node --cpu-prof on the server; prints its top entries
 *   BENCH_ONLY='XML, OAuth|GraphQL' BENCH_PARTS=lists npm run bench  # only targets whose names contain one of these (and the floor)
 */
import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type OAuth from 'oauth-1.0a';
import { getIntrospectionQuery } from 'graphql';
import pg from 'pg';
import { openDatabase } from '../src/db/database';
import { compress } from '../src/http/compression';
import { topLines } from './profile-top';
import {
  bareCreateMutation,
  bareGroupQuery,
  benchDatabase,
  collectionTotals,
  cpuMs,
  createGroupBody,
  createdGroupTitle,
  mainThreadCpuMs,
  graphqlGroupsQuery,
  heapMiB,
  oauthSigner,
  residentMiB,
  seedGroups,
  startBareStackProcess,
  startFloorProcess,
  startServerProcess,
  stopProcesses,
} from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
// V8 optimizes a route's code over its first few thousand requests: the create took 9-12 s to settle from a cold start
// (3.5 CPU ms per request in the first 3 s, 1.4 in the third 3, then 1.1).
const firstWarmUpSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
const parts = new Set((process.env.BENCH_PARTS ?? 'lists,objects,memory,sizes,compression').split(','));
const sizes = (process.env.BENCH_SIZES ?? '1000,100000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const memoryRequests = Number(process.env.BENCH_MEMORY_REQUESTS ?? 50_000);
const sizeSeconds = Number(process.env.BENCH_SIZE_SECONDS ?? Math.min(seconds, 5));
const profileDir = process.env.BENCH_CPU_PROF;
const only = process.env.BENCH_ONLY?.split('|');
const port = Number(process.env.BENCH_PORT ?? 4555);
const floorPort = port + 1;
// The memory part reads the server's live heap through its inspector.
const inspectorPort = port + 2;
const barePort = port + 3;
const origin = `http://127.0.0.1:${port}`;
const floorOrigin = `http://127.0.0.1:${floorPort}`;
const bareOrigin = `http://127.0.0.1:${barePort}`;
const secretKey = randomBytes(32).toString('hex');
const database = benchDatabase();
const initialGroups = 1000;

type Auth = 'none' | 'bearer' | 'oauth';
interface Target {
  name: string;
  origin: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  auth: Auth;
  /** A request of its own each time (another group), in place of `path` and `body`. */
  each?: () => { path: string; body?: string };
}
interface Result {
  name: string;
  rps: number;
  p99: number;
  statements: number;
  /** CPU time of the process serving the target (server or floor) per request, in ms. */
  cpu: number;
  /** Share of the load's wall time its main thread was running. */
  mainBusy: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let signer: OAuth;
let bearer: string;

function loadOptions(target: Target): autocannon.Options {
  const authorization =
    target.auth === 'bearer'
      ? () => `Bearer ${bearer}`
      : target.auth === 'oauth'
        ? (url: string) =>
            signer.toHeader(signer.authorize({ method: target.method, url }, { key: '', secret: '' })).Authorization
        : null;
  return {
    url: target.origin,
    connections,
    requests: [
      {
        method: target.method,
        path: target.path,
        body: target.body,
        setupRequest: (request) => {
          const { path, body } = target.each?.() ?? { path: target.path, body: target.body };
          const headers = {
            ...target.headers,
            ...(authorization ? { authorization: authorization(`${target.origin}${path}`) } : {}),
          };
          return { ...request, path, body, headers };
        },
      },
    ],
  };
}

async function load(target: Target, options: { duration?: number; amount?: number }) {
  const result = await autocannon({ ...loadOptions(target), ...options });
  if (result.non2xx || result.errors)
    throw new Error(`${target.name}: ${result.non2xx} responses were not 2xx, ${result.errors} errors`);
  return result;
}

/** A GraphQL answer is 200 even when it failed: one request first, so that a target answering errors is not timed. */
async function expectData(target: Target) {
  const headers = { ...target.headers, ...(target.auth === 'bearer' ? { authorization: `Bearer ${bearer}` } : {}) };
  const answer = (await (
    await fetch(`${target.origin}${target.path}`, { method: target.method, headers, body: target.body })
  ).json()) as {
    errors?: unknown;
  };
  if (answer.errors) throw new Error(`${target.name}: ${JSON.stringify(answer.errors)}`);
}

async function measure(target: Target, duration = seconds, warmUp = Math.min(5, duration)): Promise<Result> {
  if (target.path === '/graphql') await expectData(target);
  await load(target, { duration: warmUp }); // JIT, pools, caches
  // What the idle server commits by itself (the event log's follower, sweeps) is measured first and taken out.
  const idleStart = [await database.committedTransactions(), Date.now()] as const;
  await pause(1000);
  const before = [await database.committedTransactions(), Date.now()] as const;
  const idlePerMs = (before[0] - idleStart[0] - 1) / (before[1] - idleStart[1]);
  const pid = { [floorOrigin]: floorProcess.pid!, [bareOrigin]: bareProcess.pid! }[target.origin] ?? server.pid!;
  const [cpuBefore, mainBefore, startedAt] = [await cpuMs(pid), await mainThreadCpuMs(pid), Date.now()];
  const result = await load(target, { duration });
  const cpu = (await cpuMs(pid)) - cpuBefore;
  const mainBusy = ((await mainThreadCpuMs(pid)) - mainBefore) / (Date.now() - startedAt);
  await pause(1000);
  const after = [await database.committedTransactions(), Date.now()] as const;
  const statements = (after[0] - before[0] - 1 - idlePerMs * (after[1] - before[1])) / result.requests.total;
  return {
    name: target.name,
    rps: result.requests.average,
    p99: result.latency.p99,
    statements,
    cpu: cpu / result.requests.total,
    mainBusy,
  };
}

/** Runs the targets `rounds` times, interleaved (on a small machine one run is at the mercy of noise), and averages. */
async function compare(title: string, allTargets: Target[], duration = seconds) {
  // The floor stays: shares are read against it.
  const targets = allTargets.filter(
    (target, index) => index === 0 || !only || only.some((part) => target.name.includes(part)),
  );
  const runs: Result[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [index, target] of targets.entries()) {
      runs[index]!.push(await measure(target, duration, round === 0 ? firstWarmUpSeconds : undefined));
    }
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const results = runs.map((targetRuns) => ({
    name: targetRuns[0]!.name,
    rps: mean(targetRuns.map((r) => r.rps)),
    p99: Math.max(...targetRuns.map((r) => r.p99)),
    p99s: targetRuns.map((r) => r.p99).join('/'),
    statements: mean(targetRuns.map((r) => r.statements)),
    cpu: mean(targetRuns.map((r) => r.cpu)),
    mainBusy: mean(targetRuns.map((r) => r.mainBusy)),
  }));
  const floor = results[0]!.rps;
  console.log(`\n${title}`);
  console.log(
    `${'target'.padEnd(44)} ${'req/s'.padStart(7)} ${'p99 ms'.padStart(7)} ${'floor'.padStart(6)} ${'SQL/req'.padStart(8)} ${'CPU ms/req'.padStart(11)} ${'main busy'.padStart(10)}${rounds > 1 ? '  p99 by round' : ''}`,
  );
  for (const r of results) {
    console.log(
      `${r.name.padEnd(44)} ${r.rps.toFixed(0).padStart(7)} ${String(r.p99).padStart(7)} ${(r.rps / floor).toFixed(2).padStart(6)} ${r.statements.toFixed(2).padStart(8)} ${r.cpu.toFixed(2).padStart(11)} ${`${(r.mainBusy * 100).toFixed(0)}%`.padStart(10)}${rounds > 1 ? `  ${r.p99s}` : ''}`,
    );
  }
  return results;
}

const json = { accept: 'application/json' };
const graphqlPost = (query: string) =>
  ({
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json', ...json },
    body: JSON.stringify({ query }),
  }) as const;
const listTargets = (start: number): Target[] => [
  {
    name: 'floor: node:http + pg',
    origin: floorOrigin,
    method: 'GET',
    path: `/v1/groups?start=${start}&limit=20`,
    headers: json,
    auth: 'none',
  },
  {
    name: 'bare stack: yoga + Pothos + Prisma, no auth',
    origin: bareOrigin,
    ...graphqlPost(graphqlGroupsQuery(start)),
    auth: 'none',
  },
  { name: 'GraphQL groups(start, limit), Bearer', origin, ...graphqlPost(graphqlGroupsQuery(start)), auth: 'bearer' },
  {
    name: 'GET /v1/groups JSON, Bearer',
    origin,
    method: 'GET',
    path: `/v1/groups?start=${start}&limit=20`,
    headers: json,
    auth: 'bearer',
  },
  {
    name: 'GET /v1/groups XML, Bearer',
    origin,
    method: 'GET',
    path: `/v1/groups?start=${start}&limit=20`,
    headers: { accept: 'text/xml' },
    auth: 'bearer',
  },
  {
    name: 'GET /v1/groups JSON, OAuth HMAC-SHA1',
    origin,
    method: 'GET',
    path: `/v1/groups?start=${start}&limit=20`,
    headers: json,
    auth: 'oauth',
  },
  {
    name: 'GET /v1/groups XML, OAuth HMAC-SHA1',
    origin,
    method: 'GET',
    path: `/v1/groups?start=${start}&limit=20`,
    headers: { accept: 'text/xml' },
    auth: 'oauth',
  },
];

/**
 * One answer to `target`: the bytes it takes on the wire in the coding its Accept-Encoding asks for, and its content
 * (fetch decodes it).
 */
async function answerOf(target: Target): Promise<{ bytes: number; coding: string; content: Buffer }> {
  const headers = { ...target.headers, ...(target.auth === 'bearer' ? { authorization: `Bearer ${bearer}` } : {}) };
  const response = await fetch(`${target.origin}${target.path}`, {
    method: target.method,
    headers,
    body: target.body,
  });
  const content = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200)
    throw new Error(`${target.name}: ${response.status} ${content.toString().slice(0, 300)}`);
  const coding = response.headers.get('content-encoding') ?? 'identity';
  return { bytes: Number(response.headers.get('content-length') ?? content.length), coding, content };
}

/** The median time node:zlib takes to compress `body` as the server does, in this process (no load beside it). */
async function compressMs(body: Buffer, coding: 'gzip' | 'br'): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < 21; run++) {
    const started = performance.now();
    await compress(body, coding);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[10]!;
}

/** Tops the groups table up to `size` rows in one statement, and refreshes the planner's statistics. */
async function growTo(size: number, schoolId: number) {
  await database.sql(async (client) => {
    await client.query(
      `INSERT INTO groups ("schoolId", title, description, "accessCode")
       SELECT $1, 'Group ' || n, 'A group for benchmarking & <testing>', 'BENCH-' || lpad(n::text, 7, '0')
       FROM generate_series((SELECT count(*) FROM groups) + 1, $2) AS n`,
      [schoolId, size],
    );
    await client.query('VACUUM ANALYZE groups');
  });
}

/**
 * A district of its own with 30 groups in two schools, made after the table has grown (so its groups have the highest
 * ids), and its administrator: the first page of a small district among large ones. Made once; later calls add no groups.
 */
let smallDistrict: Promise<number> | undefined;
const smallDistrictAdmin = () =>
  (smallDistrict ??= (async () => {
    const seeding = await openDatabase({ databaseUrl: database.url, dataDir: '' });
    try {
      const district = await seeding.prisma.district.create({ data: { title: 'Small District' } });
      const schools = [
        await seeding.prisma.school.create({ data: { districtId: district.id, title: 'Small School' } }),
        await seeding.prisma.school.create({ data: { districtId: district.id, title: 'Small School 2' } }),
      ];
      await seeding.prisma.group.createMany({
        data: Array.from({ length: 30 }, (_, index) => ({
          schoolId: schools[index % 2]!.id,
          title: `Small group ${index + 1}`,
          accessCode: `SMALL-${index}`,
        })),
      });
      const admin = await seeding.prisma.user.create({
        data: {
          schoolId: schools[0]!.id,
          username: 'small-admin',
          nameFirst: 'Small',
          nameLast: 'Admin',
          role: 'DISTRICT_ADMIN',
        },
      });
      await seeding.prisma.$executeRawUnsafe('ANALYZE');
      return admin.id;
    } finally {
      await seeding.close();
    }
  })());

/** What a statement of the list does, read from its SQL, for the printed breakdown. */
function statementRole(text: string): string {
  if (/^\s*WITH windows AS/i.test(text)) return 'rows with count';
  if (/\b(COUNT|SUM)\(/i.test(text)) return 'count';
  if (/^\s*SELECT\s+"t0"\."id"\s+FROM/i.test(text)) return 'ids';
  return 'rows';
}

/**
 * The database time of one page as the server asks for it: the list request runs in this process through the app
 * (the credential cache warmed first, so only the page's statements remain), every statement it sends is captured at
 * the `pg` driver (the count, the page's ids and its rows, or the first rows with the count, whichever the request
 * sends), and each is timed with EXPLAIN ANALYZE (planning plus execution, median of 5), alone and summed.
 */
async function pageDatabaseTime(
  start: number,
  userId?: number,
): Promise<{ ms: number; statements: { role: string; ms: number }[] }> {
  const { createApp } = await import('../src/app');
  const { loadConfig } = await import('../src/config');
  const { loadServerKey } = await import('../src/auth/server-key');
  // The credential stays cached however long the warming request takes (a slow page outlasts the default second).
  const config = loadConfig({
    DATABASE_URL: database.url,
    SECRET_KEY: secretKey,
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'silent',
    DATA_DIR: 'memory://',
    CREDENTIAL_CACHE_MS: '600000',
  });
  const opened = await openDatabase({ databaseUrl: database.url, dataDir: '' });
  const captured: { text: string; values: unknown[] }[] = [];
  const originalQuery = pg.Client.prototype.query;
  try {
    const app = createApp({ config, database: opened, serverKey: await loadServerKey(config) });
    const { issueAccessToken } = await import('../src/modules/access/access.service');
    const token = userId ? (await issueAccessToken({ userId, name: 'bench' })).token : bearer;
    const request = () =>
      app.fetch(
        new Request(`${origin}/v1/groups?start=${start}&limit=20`, {
          headers: { ...json, authorization: `Bearer ${token}` },
        }),
      );
    await (await request()).text();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's overloads
    (pg.Client.prototype as any).query = function (
      this: pg.Client,
      config: unknown,
      values?: unknown,
      ...rest: unknown[]
    ) {
      if (config && typeof config === 'object' && 'text' in config) {
        captured.push({
          text: (config as { text: string }).text,
          values: ((config as { values?: unknown[] }).values ?? []) as unknown[],
        });
      } else if (typeof config === 'string') captured.push({ text: config, values: (values ?? []) as unknown[] });
      return (originalQuery as (...args: unknown[]) => unknown).call(this, config, values, ...rest);
    };
    const response = await request();
    await response.text();
    pg.Client.prototype.query = originalQuery;
    if (!response.ok) throw new Error(`list at ${start}: ${response.status}`);
    // The app's follower of the domain-event log polls by itself while the request runs; it is no part of the page.
    const statements = captured.filter(({ text }) => /^\s*(SELECT|WITH)\b/i.test(text) && !/domain_events/.test(text));
    const times = await database.sql(async (client) => {
      const runs: number[][] = [];
      for (let repeat = 0; repeat < 5; repeat++) {
        const run: number[] = [];
        for (const { text, values } of statements) {
          const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values);
          const plan = rows[0]['QUERY PLAN'][0] as { 'Planning Time': number; 'Execution Time': number };
          run.push(plan['Planning Time'] + plan['Execution Time']);
        }
        runs.push(run);
      }
      return runs;
    });
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    return {
      ms: median(times.map((run) => run.reduce((sum, ms) => sum + ms, 0))),
      statements: statements.map(({ text }, index) => ({
        role: statementRole(text),
        ms: median(times.map((run) => run[index]!)),
      })),
    };
  } finally {
    pg.Client.prototype.query = originalQuery;
    await opened.close();
  }
}

/** The main thread's profile of this run: the largest written since `since` (the loader thread writes a small one). */
function mainThreadProfile(dir: string, since: number): string | null {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => ({ file: join(dir, name), stat: statSync(join(dir, name)) }))
    .filter(({ stat }) => stat.mtimeMs >= since);
  files.sort((a, b) => b.stat.size - a.stat.size);
  return files[0]?.file ?? null;
}

const startedAt = Date.now();
await database.create();
const seeded = await seedGroups(database.url, secretKey, initialGroups);
bearer = seeded.token;
signer = oauthSigner(seeded.client);
if (profileDir) mkdirSync(profileDir, { recursive: true });
const server = await startServerProcess({
  databaseUrl: database.url,
  port,
  env: { SECRET_KEY: secretKey },
  nodeArgs: [
    ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
    ...(parts.has('memory') ? [`--inspect=127.0.0.1:${inspectorPort}`] : []),
  ],
});
const floorProcess = await startFloorProcess({
  databaseUrl: database.url,
  port: floorPort,
  districtId: seeded.districtId,
  userId: seeded.userId,
});
const bareProcess = await startBareStackProcess({
  databaseUrl: database.url,
  port: barePort,
  districtId: seeded.districtId,
  userId: seeded.userId,
});
try {
  await pause(2000);
  const idleMiB = await residentMiB(server.pid!);
  console.log(
    `${rounds} round(s) of ${seconds} s per target, ${connections} connections, pages of 20; share of floor = req/s ÷ floor's req/s`,
  );
  console.log(`server process resident size, idle after start: ${idleMiB.toFixed(1)} MiB`);

  if (parts.has('lists'))
    await compare(`List: ${initialGroups.toLocaleString('en')} groups, a page of 20 with the total`, listTargets(0));

  if (parts.has('objects')) {
    // Every request asks for a group of its own, as clients do: concurrent requests for one id would share a row.
    const anyGroup = () => 1 + randomInt(initialGroups);
    const path = `/v1/groups/${initialGroups / 2}`;
    const anyPath = () => ({ path: `/v1/groups/${anyGroup()}` });
    await compare('Single object: GET /v1/groups/{id}, a random one of the groups', [
      {
        name: 'floor: node:http + pg',
        origin: floorOrigin,
        method: 'GET',
        path,
        headers: json,
        auth: 'none',
        each: anyPath,
      },
      {
        name: 'bare stack: GraphQL group(id)',
        origin: bareOrigin,
        ...graphqlPost(bareGroupQuery(initialGroups / 2)),
        auth: 'none',
        each: () => ({ path: '/graphql', body: JSON.stringify({ query: bareGroupQuery(anyGroup()) }) }),
      },
      {
        name: 'GET /v1/groups/{id} JSON, Bearer',
        origin,
        method: 'GET',
        path,
        headers: json,
        auth: 'bearer',
        each: anyPath,
      },
      {
        name: 'GET /v1/groups/{id} JSON, OAuth HMAC-SHA1',
        origin,
        method: 'GET',
        path,
        headers: json,
        auth: 'oauth',
        each: anyPath,
      },
    ]);
    const body = createGroupBody(seeded.schoolId);
    const post = { 'content-type': 'application/json', ...json };
    await compare('Create: POST /v1/groups', [
      {
        name: 'floor: node:http + pg',
        origin: floorOrigin,
        method: 'POST',
        path: '/v1/groups',
        headers: post,
        body,
        auth: 'none',
      },
      {
        name: 'bare stack: GraphQL createGroup',
        origin: bareOrigin,
        ...graphqlPost(bareCreateMutation(seeded.schoolId)),
        auth: 'none',
      },
      {
        name: 'POST /v1/groups JSON, Bearer',
        origin,
        method: 'POST',
        path: '/v1/groups',
        headers: post,
        body,
        auth: 'bearer',
      },
    ]);
  }

  if (parts.has('memory')) {
    const target = listTargets(0)[3]!;
    // Resident size after the collection too, so that it holds no garbage the next scavenge would have freed.
    const reading = async () => {
      const heap = await heapMiB(inspectorPort);
      return { resident: await residentMiB(server.pid!), ...heap };
    };
    type Reading = Awaited<ReturnType<typeof reading>>;
    const describe = ({ resident, live, committed }: Reading) =>
      `resident ${resident.toFixed(1)} MiB, live heap ${live.toFixed(1)} MiB (V8 holds ${committed.toFixed(1)} MiB for it)`;
    const readings = [await reading()];
    console.log(
      `\nMemory: ${target.name}, ${memoryRequests.toLocaleString('en')} requests at a time (read after a full collection)`,
    );
    console.log(`  before: ${describe(readings[0]!)} (resident idle after start: ${idleMiB.toFixed(1)} MiB)`);
    for (let run = 1; run <= 3; run++) {
      const collectedBefore = await collectionTotals(inspectorPort);
      await load(target, { amount: memoryRequests });
      const collected = await collectionTotals(inspectorPort);
      await pause(1000);
      readings.push(await reading());
      console.log(`  after ${(run * memoryRequests).toLocaleString('en')}: ${describe(readings[run]!)}`);
      const young = collected.young - collectedBefore.young;
      const youngMs = collected.youngMs - collectedBefore.youngMs;
      console.log(
        `    collections during them: ${young} young (${youngMs.toFixed(0)} ms, ${(youngMs / young).toFixed(2)} ms each, ${((1000 * youngMs) / memoryRequests).toFixed(0)} µs per request), ${collected.full - collectedBefore.full} of the whole heap (${(collected.fullMs - collectedBefore.fullMs).toFixed(0)} ms)`,
      );
    }
    const [second, third] = [readings[2]!, readings[3]!];
    console.log(
      `  growth between the 2nd and the 3rd ${memoryRequests.toLocaleString('en')}: resident ${(third.resident - second.resident).toFixed(1)} MiB, live heap ${(third.live - second.live).toFixed(1)} MiB, V8's heap ${(third.committed - second.committed).toFixed(1)} MiB`,
    );
  }

  if (parts.has('compression')) {
    const answers: { name: string; target: Omit<Target, 'name'> }[] = [
      { name: 'GraphQL groups, 20', target: { origin, ...graphqlPost(graphqlGroupsQuery(0)), auth: 'bearer' } },
      ...(['JSON', 'XML'] as const).map((format) => ({
        name: `GET /v1/groups ${format}, 200`,
        target: {
          origin,
          method: 'GET' as const,
          path: '/v1/groups?start=0&limit=200',
          headers: format === 'JSON' ? json : { accept: 'text/xml' },
          auth: 'bearer' as const,
        },
      })),
      { name: 'GraphQL introspection', target: { origin, ...graphqlPost(getIntrospectionQuery()), auth: 'bearer' } },
    ];
    // `zlib ms` is the compression alone, timed here on the answer: the part of `CPU ms/req` compression adds, without
    // the noise of a loaded server.
    console.log('\nCompression: each answer unencoded, in gzip (level 6) and in brotli (quality 4)');
    console.log(
      `${'answer'.padEnd(26)} ${'coding'.padEnd(8)} ${'bytes'.padStart(8)} ${'req/s'.padStart(7)} ${'p99 ms'.padStart(7)} ${'CPU ms/req'.padStart(11)} ${'zlib ms'.padStart(8)}`,
    );
    for (const answer of answers) {
      for (const coding of ['identity', 'gzip', 'br'] as const) {
        const target: Target = {
          ...answer.target,
          name: `${answer.name}, ${coding}`,
          headers: { ...answer.target.headers, 'accept-encoding': coding },
        };
        const sent = await answerOf(target);
        if (sent.coding !== coding) throw new Error(`${target.name}: answered in ${sent.coding}`);
        const zlibMs = coding === 'identity' ? 0 : await compressMs(sent.content, coding);
        const result = await measure(target, seconds);
        console.log(
          `${answer.name.padEnd(26)} ${coding.padEnd(8)} ${String(sent.bytes).padStart(8)} ${result.rps.toFixed(0).padStart(7)} ${String(result.p99).padStart(7)} ${result.cpu.toFixed(2).padStart(11)} ${zlibMs.toFixed(2).padStart(8)}`,
        );
      }
    }
  }

  if (parts.has('sizes')) {
    // The creates of the objects part added tens of thousands of groups: the sizes start again from the seeded ones.
    await database.sql((client) => client.query('DELETE FROM groups WHERE title = $1', [createdGroupTitle]));
    console.log('\nCost as data grows: GET /v1/groups JSON, Bearer, a page of 20 with the total');
    console.log(
      `${'groups'.padStart(9)} ${'start'.padStart(9)} ${'req/s'.padStart(7)} ${'p99 ms'.padStart(7)} ${'floor'.padStart(7)} ${'share'.padStart(6)} ${'DB ms/page'.padStart(11)}  each statement (ms)`,
    );
    for (const size of sizes) {
      await growTo(size, seeded.schoolId);
      const middle = Math.floor(size / 2);
      // The middle page, the farthest from both ends, is timed in the database only: it is what the first and the last
      // page are not, and loading it would take the floor's minutes at a million.
      for (const start of [0, middle, size - 20]) {
        const time = await pageDatabaseTime(start);
        const statements = time.statements.map(({ role, ms }) => `${role} ${ms.toFixed(2)}`).join(', ');
        if (start === middle) {
          console.log(
            `${size.toLocaleString('en').padStart(9)} ${start.toLocaleString('en').padStart(9)} ${'-'.padStart(7)} ${'-'.padStart(7)} ${'-'.padStart(7)} ${'-'.padStart(6)} ${time.ms.toFixed(2).padStart(11)}  ${statements}`,
          );
          continue;
        }
        const [floorResult, ours] = [
          await measure(listTargets(start)[0]!, sizeSeconds),
          await measure(listTargets(start)[3]!, sizeSeconds),
        ];
        console.log(
          `${size.toLocaleString('en').padStart(9)} ${start.toLocaleString('en').padStart(9)} ${ours.rps.toFixed(0).padStart(7)} ${String(ours.p99).padStart(7)} ${floorResult.rps.toFixed(0).padStart(7)} ${(ours.rps / floorResult.rps).toFixed(2).padStart(6)} ${time.ms.toFixed(2).padStart(11)}  ${statements}`,
        );
      }
    }
    // Made after the largest size: its 30 groups come after every other group of the table.
    const small = await pageDatabaseTime(0, await smallDistrictAdmin());
    console.log(
      `${'30'.padStart(9)} ${'0'.padStart(9)} ${'-'.padStart(7)} ${'-'.padStart(7)} ${'-'.padStart(7)} ${'-'.padStart(6)} ${small.ms.toFixed(2).padStart(11)}  ${small.statements.map(({ role, ms }) => `${role} ${ms.toFixed(2)}`).join(', ')}  (a district of its own, after the ${sizes.at(-1)!.toLocaleString('en')} others)`,
    );
  }
} finally {
  await stopProcesses([server, floorProcess, bareProcess]);
  await database.drop();
}
if (profileDir) {
  const file = mainThreadProfile(profileDir, startedAt);
  if (file) console.log(`\nServer CPU profile ${file}, top self time:\n${topLines(file, 20).join('\n')}`);
}

/**
 * What the benchmarks that run a server process share: a temporary database on the PostgreSQL server
 * (`BENCH_DATABASE_URL`), the server started on it as its own process, and PostgreSQL's count of committed transactions
 * (every statement outside a transaction is one), from which statements per request are read.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import OAuth from 'oauth-1.0a';
import type pg from 'pg';
import { deriveKey } from '../src/auth/secrets';
import { openDatabase } from '../src/db/database';
import { issueAccessToken, issueApiClient } from '../src/modules/access/access.service';
import { databaseUrl, withClient } from '../test/support/postgres';
import { buildServer, compiledServer, projectRoot } from '../test/support/process';

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** Runs `work` with a client of the PostgreSQL server itself (not the temporary database). */
export const admin = <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => withClient(serverUrl, work);

/** A temporary database: `create` it, seed it through `url`, `drop` it at the end. */
export function benchDatabase() {
  const name = `lectern_bench_${randomBytes(4).toString('hex')}`;
  const url = databaseUrl(serverUrl, name);
  return {
    name,
    url,
    create: () => admin((client) => client.query(`CREATE DATABASE ${name}`)),
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
    /** Runs `work` with a client of the temporary database. */
    sql: <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => withClient(url, work),
    committedTransactions: () =>
      admin(async (client) => {
        // Statistics are flushed lazily; ask for a fresh snapshot.
        await client.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await client.query(
          'SELECT xact_commit::bigint AS n FROM pg_stat_database WHERE datname = $1',
          [name],
        );
        return Number(rows[0].n);
      }),
  };
}

/** The server's command line after node in a checkout: compiled, or through tsx in one from before the build step. */
export function serverCommand(cwd = projectRoot): string[] {
  if (!existsSync(join(cwd, 'scripts/build.mjs'))) return ['--import', 'tsx', 'src/main.ts'];
  buildServer(cwd);
  return compiledServer;
}

/**
 * Starts the server of `cwd` (or this checkout) as `npm start` runs it, compiled first, or through tsx in a checkout
 * from before the build step, as its own process on `databaseUrl` at `port` (rate limits off, production mode) and
 * waits until it is ready; `env` adds to its environment, `nodeArgs` to its command line (`--cpu-prof`).
 */
export async function startServerProcess(options: {
  databaseUrl: string;
  port: number;
  env: Record<string, string>;
  nodeArgs?: string[];
  /** The checkout to run (another version's worktree); this one by default. */
  cwd?: string;
  /** The Node binary that runs it; the one running the bench by default. */
  node?: string;
}) {
  const child = spawn(options.node ?? process.execPath, [...(options.nodeArgs ?? []), ...serverCommand(options.cwd)], {
    cwd: options.cwd,
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      PORT: String(options.port),
      RATE_LIMIT: 'off',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ...options.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(`http://127.0.0.1:${options.port}/readyz`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill();
  throw new Error('server did not become ready');
}

/** Waits until `url` answers (any status), for at most 20 s. */
async function waitForAnswer(url: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await fetch(url);
      return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer`);
}

/** Starts a script of bench/ as its own process with `env` added, and waits until `readyUrl` answers. */
async function startBenchScript(script: string, env: Record<string, string>, readyUrl: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitForAnswer(readyUrl);
  } catch (error) {
    child.kill();
    throw error;
  }
  return child;
}

interface ComparedProcessOptions {
  databaseUrl: string;
  port: number;
  districtId: number;
  userId: number;
}

/**
 * Starts bench/floor.ts (the hand-written `node:http` + `pg` endpoint the benchmarks compare with) as its own process
 * on `databaseUrl` at `port`, serving the groups of `districtId` as created by `userId`.
 */
export const startFloorProcess = (options: ComparedProcessOptions) =>
  startBenchScript(
    'bench/floor.ts',
    {
      FLOOR_DATABASE_URL: options.databaseUrl,
      FLOOR_PORT: String(options.port),
      FLOOR_DISTRICT_ID: String(options.districtId),
      FLOOR_USER_ID: String(options.userId),
    },
    `http://127.0.0.1:${options.port}/`,
  );

/**
 * Starts bench/bare-stack.ts (yoga, Pothos and Prisma with nothing of Lectern's) as its own process in production
 * mode, as the server runs, on `databaseUrl` at `port`, serving the groups of `districtId` as created by `userId`.
 */
export const startBareStackProcess = (options: ComparedProcessOptions) =>
  startBenchScript(
    'bench/bare-stack.ts',
    {
      NODE_ENV: 'production',
      BARE_DATABASE_URL: options.databaseUrl,
      BARE_PORT: String(options.port),
      BARE_DISTRICT_ID: String(options.districtId),
      BARE_USER_ID: String(options.userId),
    },
    `http://127.0.0.1:${options.port}/graphql`,
  );

/** Resident set size of a process of this machine, in MiB (Linux /proc). */
export async function residentMiB(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  return kib / 1024;
}

/**
 * CPU time a process of this machine has used so far (user plus system), in ms (Linux /proc, 10 ms ticks). Divided by
 * the requests served, it is what a request costs the process itself: on a loaded machine far steadier than req/s,
 * which also moves with what the other processes take.
 */
export async function cpuMs(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (in parentheses, which may hold spaces): state is the 3rd, utime the 14th, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * CPU time the main thread of a process of this machine has used so far, in ms (Linux /proc, 10 ms ticks): the thread
 * that runs JavaScript. Over a load's wall time, how busy it was; at 95-100% the process is bound by its JavaScript,
 * whatever CPU the machine has left.
 */
export async function mainThreadCpuMs(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const stat = await readFile(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * The JavaScript heap of a process started with `--inspect=127.0.0.1:<inspectorPort>`, in MiB, after a full garbage
 * collection (Chrome DevTools protocol: HeapProfiler.collectGarbage, then Runtime.getHeapUsage): `live`, what the
 * process still references, and `committed`, what V8 holds for the heap. Resident size also holds heap V8 has grown
 * and not yet returned, so it moves with `committed` while `live` stays flat.
 */
export function heapMiB(inspectorPort: number): Promise<{ live: number; committed: number }> {
  return withInspector(inspectorPort, async (call) => {
    await call('HeapProfiler.collectGarbage');
    const { usedSize, totalSize } = (await call('Runtime.getHeapUsage')) as { usedSize: number; totalSize: number };
    return { live: usedSize / 2 ** 20, committed: totalSize / 2 ** 20 };
  });
}

/** Garbage collections of a process since `collectionTotals` first asked it, counted by the process itself. */
export interface CollectionTotals {
  /** Young-generation collections (scavenges) and the milliseconds they paused the process, in all. */
  young: number;
  youngMs: number;
  /** Collections of the whole heap (and their incremental steps' finalization). */
  full: number;
  fullMs: number;
}

/**
 * The garbage collections of a process started with `--inspect=127.0.0.1:<inspectorPort>`: the first call installs a
 * `gc` PerformanceObserver in it (Runtime.evaluate), every call answers its totals so far; differences between two
 * calls are the collections between them.
 */
export function collectionTotals(inspectorPort: number): Promise<CollectionTotals> {
  const expression = `(() => {
    const { PerformanceObserver, constants } = process.getBuiltinModule('node:perf_hooks');
    globalThis.__benchCollections ??= (() => {
      const totals = { young: 0, youngMs: 0, full: 0, fullMs: 0 };
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          const young = entry.detail.kind === constants.NODE_PERFORMANCE_GC_MINOR;
          totals[young ? 'young' : 'full']++;
          totals[young ? 'youngMs' : 'fullMs'] += entry.duration;
        }
      }).observe({ entryTypes: ['gc'] });
      return totals;
    })();
    return JSON.stringify(globalThis.__benchCollections);
  })()`;
  return withInspector(inspectorPort, async (call) => {
    const { result } = (await call('Runtime.evaluate', { expression })) as { result: { value: string } };
    return JSON.parse(result.value) as CollectionTotals;
  });
}

/** Runs `work` with a Chrome DevTools protocol session to the process at `inspectorPort`. */
async function withInspector<T>(
  inspectorPort: number,
  work: (call: (method: string, params?: object) => Promise<unknown>) => Promise<T>,
): Promise<T> {
  const { default: WebSocket } = await import('ws');
  const [target] = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const socket = new WebSocket(target!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let nextId = 0;
  const call = (method: string, params?: object) =>
    new Promise<unknown>((resolve) => {
      const id = ++nextId;
      socket.on('message', function answer(data) {
        const message = JSON.parse(String(data)) as { id?: number; result: unknown };
        if (message.id !== id) return;
        socket.off('message', answer);
        resolve(message.result);
      });
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    return await work(call);
  } finally {
    socket.close();
  }
}

/**
 * Migrates the database at `databaseUrl` and seeds what the group benchmarks read: one district and school, a district
 * administrator with an API client and a bearer token (under `secretKey`), and `groups` groups of that school.
 */
export async function seedGroups(databaseUrl: string, secretKey: string, groups: number) {
  const seeding = await openDatabase({ databaseUrl, dataDir: '' });
  await seeding.migrate();
  const prisma = seeding.prisma;
  const district = await prisma.district.create({ data: { title: 'Bench District' } });
  const school = await prisma.school.create({ data: { districtId: district.id, title: 'Bench School' } });
  const user = await prisma.user.create({
    data: { schoolId: school.id, username: 'bench', nameFirst: 'Bench', nameLast: 'Admin', role: 'DISTRICT_ADMIN' },
  });
  await prisma.group.createMany({
    data: Array.from({ length: groups }, (_, index) => ({
      schoolId: school.id,
      title: `Group ${index + 1}`,
      description: 'A group for benchmarking & <testing>',
      accessCode: `BENCH-${String(index).padStart(7, '0')}`,
    })),
  });
  // A teacher of the school, member of every tenth group: their reads of a group check their memberships.
  const teacher = await prisma.user.create({
    data: { schoolId: school.id, username: 'bench-teacher', nameFirst: 'Bench', nameLast: 'Teacher', role: 'TEACHER' },
  });
  const seededGroups = await prisma.group.findMany({
    where: { schoolId: school.id },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  await prisma.groupMembership.createMany({
    data: seededGroups.filter((_, index) => index % 10 === 0).map(({ id }) => ({ groupId: id, userId: teacher.id })),
  });
  const client = await issueApiClient(deriveKey(secretKey), { userId: user.id, name: 'bench' });
  const token = await issueAccessToken({ userId: user.id, name: 'bench' });
  const teacherToken = await issueAccessToken({ userId: teacher.id, name: 'bench' });
  // A live database has planner statistics (autovacuum); without them a freshly bulk-loaded table gets plans that
  // evaluate every row before the LIMIT, and the benchmark would measure that instead of the server.
  await prisma.$executeRawUnsafe('ANALYZE');
  await seeding.close();
  return {
    client,
    token: token.token,
    teacherToken: teacherToken.token,
    districtId: district.id,
    schoolId: school.id,
    userId: user.id,
  };
}

/** The fields of a group that `GET /v1/groups` answers with. */
const groupFields = `id title description pictureUrl website accessCode privacyLevel category { id } groupCode
  inviteType memberPost memberPostComment createDiscussion createFiles school { id } building { id }`;

/** The group list the benchmarks ask GraphQL for: the fields `GET /v1/groups` answers with, for a page of 20. */
export const graphqlGroupsQuery = (start: number) =>
  `query { groups(start: ${start}, limit: 20) { total items { ${groupFields} } } }`;

/** One group by its database id, as bench/bare-stack.ts takes it (Lectern's `group` takes a global id). */
export const bareGroupQuery = (id: number) => `query { group(id: ${id}) { ${groupFields} } }`;

/** The title of every group the benchmarks' creates make, by which they are told from the seeded ones. */
export const createdGroupTitle = 'Bench group';

/** The body of the benchmarks' `POST /v1/groups`, in the seeded school. */
export const createGroupBody = (schoolId: number) =>
  JSON.stringify({ title: createdGroupTitle, description: 'Created by the benchmark', school_id: String(schoolId) });

/** The create of bench/bare-stack.ts, answered with the fields `POST /v1/groups` answers with. */
export const bareCreateMutation = (schoolId: number) =>
  `mutation { createGroup(title: "${createdGroupTitle}", description: "Created by the benchmark", schoolId: ${schoolId}) { ${groupFields} } }`;

/** Signs requests as a seeded API client with OAuth 1.0a HMAC-SHA1, as the platform's client libraries do. */
export const oauthSigner = (client: { consumerKey: string; consumerSecret: string }) =>
  new OAuth({
    consumer: { key: client.consumerKey, secret: client.consumerSecret },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });

/** Ends benchmark processes (SIGTERM) and waits until they have exited. */
export async function stopProcesses(children: ChildProcess[]) {
  // A process that has already exited (a crash) will not emit `exit` again.
  const ended = (child: ChildProcess) =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise((resolve) => child.once('exit', resolve));
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map(ended));
}

/**
 * A migrated bench database with one district, one school and its administrator, for the roster benches to seed
 * the rest into; the caller closes `seeding` when done.
 */
export async function seedBenchSchool(databaseUrl: string, adminRole: 'SCHOOL_ADMIN' | 'DISTRICT_ADMIN') {
  const seeding = await openDatabase({ databaseUrl, dataDir: '' });
  await seeding.migrate();
  const prisma = seeding.prisma;
  const district = await prisma.district.create({ data: { title: 'Bench District' } });
  const school = await prisma.school.create({ data: { districtId: district.id, title: 'Bench School' } });
  const admin = await prisma.user.create({
    data: { schoolId: school.id, username: 'admin', nameFirst: 'A', nameLast: 'Dmin', role: adminRole },
  });
  return { seeding, prisma, district, school, admin };
}

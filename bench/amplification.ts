/**
 * Issue 37's response amplification: ten blog posts of 950 KB, and requests that ask for their bodies many times over,
 * against a server process on a temporary PostgreSQL database (`BENCH_DATABASE_URL`, default the local server). For
 * each request: its status and answer size, the server's CPU time and the wall time it took, the server's peak resident
 * size while it ran against its size before, and the longest a /healthz probe (one every 100 ms) waited meanwhile.
 *
 *   npm run bench:amplification                  # this checkout
 *   npm run bench:amplification -- <git ref>     # another version, from a temporary worktree (as bench:versus)
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openDatabase } from '../src/db/database';
import { issueAccessToken } from '../src/modules/access/access.service';
import { benchDatabase, cpuMs, residentMiB, startServerProcess, stopProcesses } from './support';

const ref = process.argv[2];
const port = Number(process.env.BENCH_PORT ?? 4565);
const here = resolve(import.meta.dirname, '..');
const git = (...args: string[]) => execFileSync('git', args, { cwd: here, encoding: 'utf8' }).trim();

/** The other version's checkout, with this checkout's node_modules and its own generated Prisma client. */
function checkout(gitRef: string): string {
  if (git('diff', '--name-only', gitRef, '--', 'prisma/migrations'))
    throw new Error(`${gitRef} has other migrations than this checkout`);
  const worktree = mkdtempSync(join(tmpdir(), 'lectern-amplification-'));
  git('worktree', 'add', '--detach', worktree, gitRef);
  symlinkSync(join(here, 'node_modules'), join(worktree, 'node_modules'));
  execFileSync(process.execPath, [join(here, 'node_modules/prisma/build/index.js'), 'generate'], {
    cwd: worktree,
    stdio: 'ignore',
  });
  return worktree;
}

/** Peak resident size since the last reset, in MiB; the reset writes 5 to clear_refs (Linux 4.0 and later). */
async function peakMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1]) / 1024;
}
const resetPeak = (pid: number) => writeFile(`/proc/${pid}/clear_refs`, '5');

const postBytes = 950 * 1024;
const posts = 10;

const database = benchDatabase();
const worktree = ref ? checkout(ref) : null;
const secretKey = randomBytes(32).toString('hex');
const servers: Awaited<ReturnType<typeof startServerProcess>>[] = [];
try {
  await database.create();
  const seeding = await openDatabase({ databaseUrl: database.url, dataDir: '' });
  await seeding.migrate();
  const district = await seeding.prisma.district.create({ data: { title: 'Amplification' } });
  const school = await seeding.prisma.school.create({
    data: { districtId: district.id, title: 'Amplification School' },
  });
  const admin = await seeding.prisma.user.create({
    data: { schoolId: school.id, username: 'bench', nameFirst: 'Bench', nameLast: 'Admin', role: 'DISTRICT_ADMIN' },
  });
  const paragraph =
    '<p>The quick brown fox jumps over the lazy dog, again and again, in every post of the district.</p>\n';
  const body = paragraph.repeat(Math.ceil(postBytes / paragraph.length)).slice(0, postBytes);
  await seeding.prisma.blogPost.createMany({
    data: Array.from({ length: posts }, (_, index) => ({
      realmType: 'DISTRICT' as const,
      realmId: district.id,
      title: `Post ${index}`,
      body,
    })),
  });
  const { token } = await issueAccessToken({ userId: admin.id, name: 'bench' });
  await seeding.close();

  const server = await startServerProcess({
    databaseUrl: database.url,
    port,
    env: { SECRET_KEY: secretKey },
    cwd: worktree ?? undefined,
  });
  servers.push(server);
  const origin = `http://127.0.0.1:${port}`;
  const page = (alias: string, limit: number) =>
    `${alias}: blogPosts(realm: { type: DISTRICT, id: "${district.id}" }, limit: ${limit}) { items { body } }`;
  const aliased = (count: number, limit: number) =>
    `{ ${Array.from({ length: count }, (_, index) => page(`a${index}`, limit)).join(' ')} }`;
  const cases: [string, string][] = [
    ['one page of the ten posts (9.5 MB)', aliased(1, 200)],
    ["the issue's: 30 aliases of blogPosts(limit: 200) { items { body } }", aliased(30, 200)],
    ['the same ten posts 30 times, with limit: 10', aliased(30, 10)],
  ];

  const post = (query: string) =>
    fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query }),
    });
  // Warm-up: JIT, the pool, the credential.
  for (let round = 0; round < 3; round++) await (await post(aliased(1, 1))).arrayBuffer();

  console.log(`${posts} posts of ${postBytes / 1024} KB on PostgreSQL; the server is ${ref ?? 'this checkout'}\n`);
  console.log('status  answer MB  CPU ms  wall ms  RSS before MiB  peak MiB  /healthz max ms  request');
  for (const [name, query] of cases) {
    const pid = server.pid!;
    const rssBefore = await residentMiB(pid);
    await resetPeak(pid);
    const cpuBefore = await cpuMs(pid);
    const started = performance.now();
    let answered = false;
    const probes: Promise<number>[] = [];
    const probing = (async () => {
      while (!answered) {
        const sent = performance.now();
        probes.push(
          fetch(`${origin}/healthz`).then(async (response) => {
            await response.arrayBuffer();
            return performance.now() - sent;
          }),
        );
        await new Promise((wait) => setTimeout(wait, 100));
      }
    })();
    const response = await post(query);
    const size = (await response.arrayBuffer()).byteLength;
    const wall = performance.now() - started;
    answered = true;
    await probing;
    const healthMs = Math.max(...(await Promise.all(probes)));
    const cpu = (await cpuMs(pid)) - cpuBefore;
    const peak = await peakMiB(pid);
    console.log(
      `${String(response.status).padEnd(6)}  ${(size / 2 ** 20).toFixed(1).padStart(9)}  ${cpu.toFixed(0).padStart(6)}  ${wall.toFixed(0).padStart(7)}  ` +
        `${rssBefore.toFixed(0).padStart(14)}  ${peak.toFixed(0).padStart(8)}  ${healthMs.toFixed(0).padStart(15)}  ${name}`,
    );
  }
} finally {
  await stopProcesses(servers);
  await database.drop();
  if (worktree) {
    git('worktree', 'remove', '--force', worktree);
    rmSync(worktree, { recursive: true, force: true });
  }
}

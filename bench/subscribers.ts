/**
 * Many realmEvents subscribers on one instance: N graphql-ws subscribers (each its own user and bearer token, all
 * members of one group) on a server started as `npm start` runs it, on PostgreSQL. One event is written; prints the
 * time until the first and the last subscriber has it, and the server's memory per subscriber (RSS delta / N).
 *
 *   npm run bench:subscribers -- [--subscribers 10000] [--rounds 3]
 *
 * The server and this process each hold N sockets: both need a file-descriptor limit above N (the npm script raises
 * the soft limit to the hard one; the script stops early, saying so, when the limit is too low). BENCH_DATABASE_URL
 * names the PostgreSQL server (default postgresql://postgres@127.0.0.1:5432/postgres); a temporary database is
 * created on it and dropped.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import { createClient } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { hashToken, randomToken } from '../src/auth/secrets';
import { openDatabase } from '../src/db/database';
import { serverCommand } from './support';

const { values } = parseArgs({
  options: { subscribers: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '3' } },
});
const subscribers = Number(values.subscribers);
const rounds = Number(values.rounds);

const descriptors = Number(readFileSync('/proc/self/limits', 'utf8').match(/Max open files\s+(\d+)/)?.[1] ?? Infinity);
if (descriptors < subscribers + 256) {
  console.error(
    `${subscribers} sockets need a file-descriptor limit above ${subscribers + 256}; this one is ${descriptors} (raise it: ulimit -n)`,
  );
  process.exit(1);
}

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const name = `lectern_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;

const rssKiB = (pid: number) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)![1]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const database = await openDatabase({ databaseUrl: url.href, dataDir: 'memory://' });
let server: ReturnType<typeof spawn> | null = null;
try {
  await database.migrate();
  const prisma = database.prisma;
  const district = await prisma.district.create({ data: { title: 'Bench district' } });
  const school = await prisma.school.create({ data: { districtId: district.id, title: 'Bench school' } });
  const group = await prisma.group.create({
    data: { schoolId: school.id, title: 'Bench group', accessCode: 'BENCH-SUBS1', privacyLevel: 'GROUP' },
  });
  const teacher = await prisma.user.create({
    data: {
      schoolId: school.id,
      role: 'TEACHER',
      username: 'bench-teacher',
      nameFirst: 'Bench',
      nameLast: 'Teacher',
      email: 'teacher@bench.test',
    },
  });
  await prisma.groupMembership.create({ data: { groupId: group.id, userId: teacher.id, admin: true } });
  const writerToken = randomToken(32);
  await prisma.accessToken.create({ data: { userId: teacher.id, name: 'bench', tokenHash: hashToken(writerToken) } });
  const tokens: string[] = [];
  for (let done = 0; done < subscribers; done += 1000) {
    const count = Math.min(1000, subscribers - done);
    const users = await prisma.user.createManyAndReturn({
      data: Array.from({ length: count }, (_, index) => ({
        schoolId: school.id,
        role: 'STUDENT' as const,
        username: `bench-student-${done + index}`,
        nameFirst: 'Bench',
        nameLast: `Student ${done + index}`,
        email: `student${done + index}@bench.test`,
      })),
      select: { id: true },
    });
    await prisma.groupMembership.createMany({
      data: users.map(({ id }) => ({ groupId: group.id, userId: id, admin: false })),
    });
    const batch = users.map(({ id }) => ({ userId: id, token: randomToken(32) }));
    await prisma.accessToken.createMany({
      data: batch.map(({ userId, token }) => ({ userId, name: 'bench', tokenHash: hashToken(token) })),
    });
    tokens.push(...batch.map(({ token }) => token));
  }

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, serverCommand(), {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: url.href,
      SECRET_KEY: randomBytes(32).toString('hex'),
      SEED_DEMO: 'off',
      LOG_LEVEL: 'error',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let attempt = 0; ; attempt++) {
    if (attempt > 150) throw new Error('the server did not get ready');
    if (
      await fetch(`${base}/readyz`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    await sleep(200);
  }
  let round = 0;
  const write = async () => {
    const response = await fetch(`${base}/v1/groups/${group.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${writerToken}` },
      body: JSON.stringify({ description: `round ${++round}` }),
    });
    if (response.status !== 204) throw new Error(`the write answered ${response.status}`);
  };
  // Warm the server (code paths, connections) before its memory is taken as the baseline.
  await write();
  await sleep(1000);
  const before = rssKiB(server.pid!);

  const arrivals: number[] = [];
  let received = 0;
  let notify = () => {};
  const query = `subscription ($id: ID!) { realmEvents(realm: { type: GROUP, id: $id }) { cursor type } }`;
  const connectStarted = performance.now();
  const clients = [];
  for (let done = 0; done < subscribers; done += 250) {
    const opened = tokens.slice(done, done + 250).map(
      (token) =>
        new Promise<ReturnType<typeof createClient>>((resolve, reject) => {
          const client = createClient({
            url: `ws://127.0.0.1:${port}/graphql`,
            webSocketImpl: WebSocket,
            lazy: false,
            retryAttempts: 0,
            connectionParams: { Authorization: `Bearer ${token}` },
          });
          client.on('connected', () => resolve(client));
          client.on('error', reject);
          client.subscribe(
            { query, variables: { id: String(group.id) } },
            {
              next: (result) => {
                if (result.errors) throw new Error(JSON.stringify(result.errors));
                arrivals.push(performance.now());
                received++;
                notify();
              },
              error: (error) => console.error('subscription error', error),
              complete: () => {},
            },
          );
        }),
    );
    clients.push(...(await Promise.all(opened)));
  }
  const connectSeconds = (performance.now() - connectStarted) / 1000;

  /** Writes one event and waits until every subscriber has it; the times from the write until the first and last arrival. */
  const oneEvent = async () => {
    arrivals.length = 0;
    received = 0;
    const everyone = new Promise<void>((resolve) => (notify = () => received >= subscribers && resolve()));
    const started = performance.now();
    await write();
    const deadline = sleep(120_000).then(() => {
      throw new Error(`only ${received} of ${subscribers} subscribers had the event after 120 s`);
    });
    await Promise.race([everyone, deadline]);
    const sorted = arrivals.map((at) => at - started).sort((a, b) => a - b);
    return { first: sorted[0]!, p50: sorted[Math.floor(sorted.length / 2)]!, last: sorted.at(-1)! };
  };
  // Subscriptions check access before they listen: the first event to reach all of them shows that they all do.
  const ready = await oneEvent();
  await sleep(2000);
  const after = rssKiB(server.pid!);
  console.log(
    `${subscribers} graphql-ws subscribers connected in ${connectSeconds.toFixed(1)} s; first event after that reached the last one in ${ready.last.toFixed(0)} ms`,
  );
  console.log(
    `server RSS ${(before / 1024).toFixed(0)} MiB before, ${(after / 1024).toFixed(0)} MiB with the subscribers: ${((after - before) / subscribers).toFixed(1)} KiB per subscriber`,
  );
  for (let index = 0; index < rounds; index++) {
    await sleep(500);
    const { first, p50, last } = await oneEvent();
    console.log(
      `round ${index + 1}: one event written; first subscriber had it after ${first.toFixed(0)} ms, half after ${p50.toFixed(0)} ms, the last after ${last.toFixed(0)} ms`,
    );
  }
  await Promise.all(clients.map((client) => client.dispose()));
} finally {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server!.once('exit', resolve));
  }
  await database.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}

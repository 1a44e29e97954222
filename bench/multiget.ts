/**
 * A multiget against the same GETs sent one by one, on PostgreSQL: starts the server as its own process on a fresh
 * database with a school of 50 students, then, BENCH_ROUNDS times each, sends `POST /v1/multiget` naming the 50
 * students' `/v1/users/{id}` and the same 50 GETs in a row, every request freshly signed with OAuth 1.0a HMAC-SHA1 over
 * a real socket. Prints the p50 and p99 of a round's wall time for each, and SQL statements per path as PostgreSQL
 * counted them (committed transactions; every statement outside a transaction is one).
 *
 *   npx tsx bench/multiget.ts        # BENCH_DATABASE_URL defaults to postgresql://postgres@127.0.0.1:5432/postgres
 *   BENCH_ROUNDS=50 npx tsx bench/multiget.ts
 */
import { randomBytes } from 'node:crypto';
import { deriveKey } from '../src/auth/secrets';
import { issueApiClient } from '../src/modules/access/access.service';
import { benchDatabase, oauthSigner, seedBenchSchool, startServerProcess, stopProcesses } from './support';

const rounds = Number(process.env.BENCH_ROUNDS ?? 20);
const port = Number(process.env.BENCH_PORT ?? 4561);
const origin = `http://127.0.0.1:${port}`;
const secretKey = randomBytes(32).toString('hex');
const database = benchDatabase();
const paths = 50;

async function seed() {
  const { seeding, prisma, school, admin } = await seedBenchSchool(database.url, 'SCHOOL_ADMIN');
  await prisma.user.createMany({
    data: Array.from({ length: paths }, (_, at) => ({
      schoolId: school.id,
      username: `student${at}`,
      nameFirst: 'S',
      nameLast: `${at}`,
      role: 'STUDENT' as const,
    })),
  });
  const students = await prisma.user.findMany({ where: { role: 'STUDENT' }, select: { id: true } });
  const client = await issueApiClient(deriveKey(secretKey), { userId: admin.id, name: 'bench' });
  await prisma.$executeRawUnsafe('ANALYZE');
  await seeding.close();
  return { client, studentIds: students.map((student) => student.id) };
}

const percentile = (values: number[], share: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))]!;

await database.create();
const { client, studentIds } = await seed();
const server = await startServerProcess({ databaseUrl: database.url, port, env: { SECRET_KEY: secretKey } });
try {
  const oauth = oauthSigner(client);
  const signed = async (method: string, path: string, body?: string) => {
    const url = `${origin}${path}`;
    const authorization = oauth.toHeader(oauth.authorize({ method, url }, { key: '', secret: '' })).Authorization;
    const headers = { authorization, accept: 'application/json', 'content-type': 'application/json' };
    const response = await fetch(url, { method, headers, body });
    await response.arrayBuffer();
    return response.status;
  };
  const userPaths = studentIds.map((id) => `/v1/users/${id}`);
  const multiget = async () => {
    const status = await signed('POST', '/v1/multiget', JSON.stringify({ request: userPaths }));
    if (status !== 207) throw new Error(`multiget answered ${status}`);
  };
  const oneByOne = async () => {
    for (const path of userPaths) {
      const status = await signed('GET', path);
      if (status !== 200) throw new Error(`${path} answered ${status}`);
    }
  };

  const measure = async (name: string, round: () => Promise<void>) => {
    for (let warm = 0; warm < 3; warm++) await round();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = await database.committedTransactions();
    const times: number[] = [];
    for (let at = 0; at < rounds; at++) {
      const started = performance.now();
      await round();
      times.push(performance.now() - started);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const statements = ((await database.committedTransactions()) - before - 1) / (rounds * paths);
    return { name, p50: percentile(times, 0.5), p99: percentile(times, 0.99), statements };
  };

  const results = [
    await measure(`one multiget of ${paths} paths`, multiget),
    await measure(`${paths} GETs in a row`, oneByOne),
  ];
  console.log(`\n${rounds} rounds each, ${paths} × GET /v1/users/{id}, OAuth HMAC-SHA1, rate limit off\n`);
  console.log('scenario                          p50 ms   p99 ms   SQL statements/path');
  for (const r of results) {
    console.log(
      `${r.name.padEnd(32)} ${r.p50.toFixed(1).padStart(7)} ${r.p99.toFixed(1).padStart(8)} ${r.statements.toFixed(2).padStart(12)}`,
    );
  }
} finally {
  await stopProcesses([server]);
  await database.drop();
}

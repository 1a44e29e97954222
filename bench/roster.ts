/**
 * A nightly roster sync's enrollments, on PostgreSQL: starts the server as its own process on a fresh database with a
 * school of `BENCH_STUDENTS` students (each with a school uid) and `BENCH_SECTIONS` sections, then enrolls every student
 * in every section by `school_uid` in bulk calls of 50 (`POST /v1/sections/{id}/enrollments`), one call at a time as a
 * sync sends them, and sends the same calls again (the idempotent rerun). Prints the total, p50, p99 and slowest call,
 * and PostgreSQL's committed transactions per item (each item's write is one; every statement outside a transaction is
 * one more).
 *
 *   npm run bench:roster               # BENCH_DATABASE_URL defaults to postgresql://postgres@127.0.0.1:5432/postgres
 *   BENCH_SECTIONS=300 BENCH_STUDENTS=100 npm run bench:roster
 */
import { randomBytes } from 'node:crypto';
import { deriveKey } from '../src/auth/secrets';
import { issueApiClient } from '../src/modules/access/access.service';
import { benchDatabase, oauthSigner, seedBenchSchool, startServerProcess, stopProcesses } from './support';

const sections = Number(process.env.BENCH_SECTIONS ?? 20);
const students = Number(process.env.BENCH_STUDENTS ?? 100);
const port = Number(process.env.BENCH_PORT ?? 4558);
const origin = `http://127.0.0.1:${port}`;
const secretKey = randomBytes(32).toString('hex');
const database = benchDatabase();
const batch = 50;

async function seed() {
  const { seeding, prisma, school, admin } = await seedBenchSchool(database.url, 'SCHOOL_ADMIN');
  await prisma.user.createMany({
    data: Array.from({ length: students }, (_, at) => ({
      schoolId: school.id,
      username: `student${at}`,
      schoolUid: `sis-${at}`,
      nameFirst: 'S',
      nameLast: `${at}`,
      role: 'STUDENT' as const,
    })),
  });
  const course = await prisma.course.create({ data: { schoolId: school.id, title: 'Biology', courseCode: 'BIO' } });
  await prisma.section.createMany({
    data: Array.from({ length: sections }, (_, at) => ({ courseId: course.id, title: `Biology ${at + 1}` })),
  });
  const ids = (await prisma.section.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map(({ id }) => id);
  const client = await issueApiClient(deriveKey(secretKey), { userId: admin.id, name: 'bench' });
  await prisma.$executeRawUnsafe('ANALYZE');
  await seeding.close();
  return { client, sectionIds: ids };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]!;

/** Sends every call once, one after another; answers each call's milliseconds. */
async function sync(sectionIds: number[], sign: (url: string) => string) {
  const times: number[] = [];
  for (const sectionId of sectionIds) {
    for (let first = 0; first < students; first += batch) {
      const url = `${origin}/v1/sections/${sectionId}/enrollments`;
      const enrollment = Array.from({ length: Math.min(batch, students - first) }, (_, at) => ({
        school_uid: `sis-${first + at}`,
        admin: 0,
        status: 1,
      }));
      const started = performance.now();
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization: sign(url), 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ enrollments: { enrollment } }),
      });
      await response.text();
      times.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    }
  }
  return times;
}

await database.create();
const { client, sectionIds } = await seed();
const server = await startServerProcess({ databaseUrl: database.url, port, env: { SECRET_KEY: secretKey } });
try {
  const oauth = oauthSigner(client);
  const sign = (url: string) =>
    oauth.toHeader(oauth.authorize({ method: 'POST', url }, { key: '', secret: '' })).Authorization;
  const items = sections * students;
  console.log(`\n${sections} sections × ${students} students: ${items} enrollments in calls of ${batch}\n`);
  console.log('run              total s   p50 ms   p99 ms   max ms   transactions/item');
  for (const name of ['first sync', 'identical rerun']) {
    const before = await database.committedTransactions();
    const started = performance.now();
    const times = await sync(sectionIds, sign);
    const total = (performance.now() - started) / 1000;
    const transactions = ((await database.committedTransactions()) - before) / items;
    const sorted = [...times].sort((a, b) => a - b);
    console.log(
      `${name.padEnd(16)} ${total.toFixed(1).padStart(7)} ${percentile(sorted, 0.5).toFixed(0).padStart(8)} ${percentile(sorted, 0.99).toFixed(0).padStart(8)} ${sorted.at(-1)!.toFixed(0).padStart(8)} ${transactions.toFixed(2).padStart(12)}`,
    );
  }
} finally {
  await stopProcesses([server]);
  await database.drop();
}

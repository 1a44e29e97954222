/**
 * The gradebook read, on PostgreSQL: starts the server as its own process on a fresh database with a section of 30
 * students and 60 graded items (1,800 grades, four weighted categories, two periods), then loads
 * `GET /v1/sections/{id}/grades` (JSON, pages of 20 and of 200) and `GET /v1/users/{id}/grades?section_id=` with
 * autocannon, each request freshly signed with OAuth 1.0a. Prints requests/s, p50 and p99 latency, and SQL statements
 * per request as PostgreSQL counted them (committed transactions; every statement outside a transaction is one).
 *
 *   npm run bench:grades               # BENCH_DATABASE_URL defaults to postgresql://postgres@127.0.0.1:5432/postgres
 *   BENCH_SECONDS=5 npm run bench:grades
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
const port = Number(process.env.BENCH_PORT ?? 4557);
const origin = `http://127.0.0.1:${port}`;
const secretKey = randomBytes(32).toString('hex');
const database = benchDatabase();
const students = 30;
const items = 60;

async function seed() {
  const seeding = await openDatabase({ databaseUrl: database.url, dataDir: '' });
  await seeding.migrate();
  const prisma = seeding.prisma;
  const district = await prisma.district.create({ data: { title: 'Bench District' } });
  const school = await prisma.school.create({ data: { districtId: district.id, title: 'Bench School' } });
  const teacher = await prisma.user.create({
    data: { schoolId: school.id, username: 'teacher', nameFirst: 'T', nameLast: 'Eacher', role: 'TEACHER' },
  });
  const learners = await Promise.all(
    Array.from({ length: students }, (_, at) =>
      prisma.user.create({
        data: { schoolId: school.id, username: `student${at}`, nameFirst: 'S', nameLast: `${at}`, role: 'STUDENT' },
      }),
    ),
  );
  const course = await prisma.course.create({ data: { schoolId: school.id, title: 'Biology', courseCode: 'BIO' } });
  const section = await prisma.section.create({
    data: {
      courseId: course.id,
      title: 'Biology 1',
      enrollments: { create: [{ userId: teacher.id, admin: true }, ...learners.map((user) => ({ userId: user.id }))] },
    },
  });
  const periods = await Promise.all(
    [
      ['Fall', '2026-08-24', '2026-12-18'],
      ['Spring', '2027-01-05', '2027-05-28'],
    ].map(([title, startsOn, endsOn]) =>
      prisma.gradingPeriod.create({
        data: { schoolId: school.id, title: title!, startsOn: new Date(startsOn!), endsOn: new Date(endsOn!) },
      }),
    ),
  );
  const categories = await Promise.all(
    [
      ['Homework', 20, 2],
      ['Labs', 20, 0],
      ['Quizzes', 20, 1],
      ['Tests', 40, 0],
    ].map(([title, weight, dropLowest]) =>
      prisma.gradingCategory.create({
        data: {
          sectionId: section.id,
          title: title as string,
          weight: weight as number,
          dropLowest: dropLowest as number,
        },
      }),
    ),
  );
  await prisma.assignment.createMany({
    data: Array.from({ length: items }, (_, at) => ({
      sectionId: section.id,
      title: `Item ${at + 1}`,
      maxPoints: 10 + (at % 5) * 10,
      categoryId: categories[at % categories.length]!.id,
      periodId: periods[at % 2]!.id,
    })),
  });
  const assignments = await prisma.assignment.findMany({ where: { sectionId: section.id } });
  const enrollments = await prisma.enrollment.findMany({ where: { sectionId: section.id, admin: false } });
  await prisma.grade.createMany({
    data: enrollments.flatMap((enrollment, student) =>
      assignments.map((assignment, at) => ({
        enrollmentId: enrollment.id,
        assignmentId: assignment.id,
        sectionId: section.id,
        grade: Math.round(assignment.maxPoints * (0.6 + ((student * 7 + at * 3) % 40) / 100)),
        exception: (student + at) % 29 === 0 ? ('EXCUSED' as const) : null,
      })),
    ),
  });
  const client = await issueApiClient(deriveKey(secretKey), { userId: teacher.id, name: 'bench' });
  await prisma.$executeRawUnsafe('ANALYZE');
  await seeding.close();
  return { client, sectionId: section.id, studentId: learners[0]!.id };
}

async function run(name: string, path: string, oauth: OAuth) {
  const url = `${origin}${path.split('?')[0]}`;
  const query = Object.fromEntries(new URLSearchParams(path.split('?')[1] ?? ''));
  const sign = () =>
    oauth.toHeader(oauth.authorize({ method: 'GET', url, data: query }, { key: '', secret: '' })).Authorization;
  const options: autocannon.Options = {
    url: origin,
    connections,
    requests: [
      {
        method: 'GET',
        path,
        setupRequest: (request) => ({ ...request, headers: { accept: 'application/json', authorization: sign() } }),
      },
    ],
  };
  await autocannon({ ...options, duration: 3 }); // warm-up: JIT, pools, caches
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const before = await database.committedTransactions();
  const result = await autocannon({ ...options, duration: seconds });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const statements = ((await database.committedTransactions()) - before - 1) / result.requests.total;
  if (result.non2xx) throw new Error(`${name}: ${result.non2xx} responses were not 2xx`);
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, statements };
}

await database.create();
const { client, sectionId, studentId } = await seed();
const server = await startServerProcess({
  databaseUrl: database.url,
  port,
  env: { SECRET_KEY: secretKey },
  nodeArgs: process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [],
});
try {
  const oauth = new OAuth({
    consumer: { key: client.consumerKey, secret: client.consumerSecret },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
  const results = [
    await run('section grades, page of 20', `/v1/sections/${sectionId}/grades`, oauth),
    await run('section grades, page of 200', `/v1/sections/${sectionId}/grades?start=0&limit=200`, oauth),
    await run("one student's grades", `/v1/users/${studentId}/grades?section_id=${sectionId}`, oauth),
  ];
  console.log(
    `\n${seconds} s per scenario, ${connections} connections, ${students} students × ${items} items, OAuth HMAC-SHA1 on every request\n`,
  );
  console.log('scenario                          req/s   p50 ms   p99 ms   SQL statements/request');
  for (const r of results) {
    console.log(
      `${r.name.padEnd(32)} ${r.rps.toFixed(0).padStart(6)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${r.statements.toFixed(2).padStart(12)}`,
    );
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await database.drop();
}

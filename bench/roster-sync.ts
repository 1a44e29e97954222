/**
 * A whole nightly roster sync on PostgreSQL, over /v1: starts the server as its own process (production mode,
 * RATE_LIMIT=off so that 700 calls in a row are not throttled) on a fresh database seeded directly with a district, a
 * school, a district administrator and `BENCH_COURSES` courses; then, one call at a time as a student information
 * system sends them, creates `BENCH_SECTIONS` sections (`POST /v1/courses/{id}/sections`, bulks of up to 50 per
 * course) and `BENCH_USERS` users (`POST /v1/users`, bulks of 50) and enrolls `BENCH_PER_SECTION` of them by
 * `school_uid` in every section (`POST /v1/sections/{id}/enrollments`, bulks of 50). Then it sends the identical sync
 * again, sections and users with `update_existing=1`, and checks that it changed nothing (no new event, the same
 * sections, users and enrollments). Prints, per phase and in all, the total, p50/p99 of one call, and
 * PostgreSQL's committed transactions per item (every statement outside a transaction is one more).
 *
 *   npm run bench:roster-sync      # BENCH_DATABASE_URL defaults to postgresql://postgres@127.0.0.1:5432/postgres
 *   BENCH_USERS=1000 BENCH_SECTIONS=60 npm run bench:roster-sync
 *   BENCH_CPU_PROF=/tmp/prof npm run bench:roster-sync   # writes the server's CPU profile (bench/profile-top.ts)
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { deriveKey } from '../src/auth/secrets';
import { issueApiClient } from '../src/modules/access/access.service';
import { benchDatabase, oauthSigner, seedBenchSchool, startServerProcess, stopProcesses } from './support';

const users = Number(process.env.BENCH_USERS ?? 5000);
const courses = Number(process.env.BENCH_COURSES ?? 6);
const sections = Number(process.env.BENCH_SECTIONS ?? 300);
const perSection = Number(process.env.BENCH_PER_SECTION ?? 100);
const port = Number(process.env.BENCH_PORT ?? 4561);
const origin = `http://127.0.0.1:${port}`;
const secretKey = randomBytes(32).toString('hex');
const database = benchDatabase();
const perCall = 50;

// Course writes are not part of this sync: they are seeded, as a sync that created them earlier left them.
async function seed() {
  const { seeding, prisma, school, admin } = await seedBenchSchool(database.url, 'DISTRICT_ADMIN');
  const courseIds: number[] = [];
  for (let at = 0; at < courses; at++)
    courseIds.push(
      (await prisma.course.create({ data: { schoolId: school.id, title: `Course ${at}`, courseCode: `C${at}` } })).id,
    );
  const client = await issueApiClient(deriveKey(secretKey), { userId: admin.id, name: 'bench' });
  await prisma.$executeRawUnsafe('ANALYZE');
  await seeding.close();
  return { client, courseIds, schoolId: school.id };
}

const roster = Array.from({ length: users }, (_, at) => ({
  school_uid: `SIS-${at}`,
  name_first: `First${at}`,
  name_last: `Last${at}`,
  primary_email: `student${at}@bench.test`,
  role_id: 1214,
  grad_year: 2027 + (at % 4),
}));

interface Call {
  url: string;
  body: unknown;
  items: number;
}

/** Section n (from 0) belongs to course n mod `courses`; each course's sections go in calls of up to 50. */
function sectionCalls(courseIds: number[], query: string): Call[] {
  const calls: Call[] = [];
  courseIds.forEach((courseId, c) => {
    const numbers = Array.from({ length: sections }, (_, at) => at).filter((at) => at % courses === c);
    for (let first = 0; first < numbers.length; first += perCall) {
      const section = numbers.slice(first, first + perCall).map((at) => ({
        title: `Section ${at + 1}`,
        section_code: `S${at + 1}`,
        section_school_code: `SEC-${at + 1}`,
        location: `Room ${(at % 40) + 1}`,
        meeting_days: [1, 3, 5],
        active: 1,
      }));
      calls.push({
        url: `${origin}/v1/courses/${courseId}/sections${query}`,
        body: { sections: { section } },
        items: section.length,
      });
    }
  });
  return calls;
}

function userCalls(query: string): Call[] {
  const calls: Call[] = [];
  for (let at = 0; at < roster.length; at += perCall) {
    const user = roster.slice(at, at + perCall);
    calls.push({ url: `${origin}/v1/users${query}`, body: { users: { user } }, items: user.length });
  }
  return calls;
}

/** Section n enrolls the `perSection` users from n × perSection on (wrapping), so every user is in a few sections. */
function enrollmentCalls(sectionIds: number[]): Call[] {
  const calls: Call[] = [];
  sectionIds.forEach((sectionId, n) => {
    for (let first = 0; first < perSection; first += perCall) {
      const enrollment = Array.from({ length: Math.min(perCall, perSection - first) }, (_, at) => ({
        school_uid: `SIS-${(n * perSection + first + at) % users}`,
        admin: 0,
        status: 1,
      }));
      calls.push({
        url: `${origin}/v1/sections/${sectionId}/enrollments`,
        body: { enrollments: { enrollment } },
        items: enrollment.length,
      });
    }
  });
  return calls;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]!;

type Sign = (url: string) => string;

/** Sends the calls one after another; every item must answer 200. Answers each call's milliseconds and answer. */
async function send(calls: Call[], sign: Sign) {
  const times: number[] = [];
  const answers: unknown[] = [];
  for (const call of calls) {
    const started = performance.now();
    const response = await fetch(call.url, {
      method: 'POST',
      headers: { authorization: sign(call.url), 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(call.body),
    });
    const answer = await response.text();
    times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`${call.url}: ${response.status} ${answer.slice(0, 500)}`);
    answers.push(JSON.parse(answer));
  }
  return { times, answers };
}

interface Figures {
  name: string;
  seconds: number;
  times: number[];
  transactionsPerItem: number;
  answers: unknown[];
}

async function phase(name: string, calls: Call[], sign: Sign): Promise<Figures> {
  const before = await database.committedTransactions();
  const started = performance.now();
  const { times, answers } = await send(calls, sign);
  const seconds = (performance.now() - started) / 1000;
  const items = calls.reduce((sum, call) => sum + call.items, 0);
  // The statistics query itself is one committed transaction.
  const transactionsPerItem = ((await database.committedTransactions()) - before - 1) / items;
  return { name, seconds, times, transactionsPerItem, answers };
}

function print(figures: Figures) {
  const sorted = [...figures.times].sort((a, b) => a - b);
  console.log(
    `${figures.name.padEnd(34)} ${String(figures.times.length).padStart(5)} ${figures.seconds.toFixed(1).padStart(8)} ${percentile(sorted, 0.5).toFixed(0).padStart(7)} ${percentile(sorted, 0.99).toFixed(0).padStart(7)} ${figures.transactionsPerItem.toFixed(2).padStart(19)}`,
  );
}

const counts = () =>
  database.sql(async (client) => {
    const { rows } = await client.query(
      `SELECT (SELECT count(*) FROM sections)::int AS sections, (SELECT count(*) FROM users)::int AS users,
        (SELECT count(*) FROM enrollments)::int AS enrollments, (SELECT count(*) FROM domain_events)::int AS events`,
    );
    return rows[0] as { sections: number; users: number; enrollments: number; events: number };
  });

await database.create();
const { client, courseIds } = await seed();
const server = await startServerProcess({
  databaseUrl: database.url,
  port,
  env: { SECRET_KEY: secretKey },
  nodeArgs: process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [],
});
try {
  const oauth = oauthSigner(client);
  const sign = (url: string) => {
    const { search } = new URL(url);
    const data = Object.fromEntries(new URLSearchParams(search));
    return oauth.toHeader(oauth.authorize({ method: 'POST', url, data }, { key: '', secret: '' })).Authorization;
  };
  console.log(
    `\nroster sync: ${courses} courses (seeded), ${sections} sections, ${users} users, ${sections * perSection} enrollments, calls of ${perCall}, one at a time`,
  );
  console.log(
    `server: its own process, PostgreSQL, RATE_LIMIT=off; load average before: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}\n`,
  );
  console.log('run                                calls  total s  p50 ms  p99 ms  transactions/item');
  for (const [run, query] of [
    ['first sync', ''],
    ['rerun', '?update_existing=1'],
  ] as const) {
    const before = await counts();
    const sectionFigures = await phase(`${run}: sections`, sectionCalls(courseIds, query), sign);
    const sectionIds = sectionFigures.answers
      .flatMap((answer) => (answer as { section: { id: string }[] }).section)
      .map((section) => Number(section.id));
    const userFigures = await phase(`${run}: users`, userCalls(query), sign);
    const enrollmentFigures = await phase(`${run}: enrollments`, enrollmentCalls(sectionIds), sign);
    const phases = [
      { figures: sectionFigures, items: sections },
      { figures: userFigures, items: users },
      { figures: enrollmentFigures, items: sections * perSection },
    ];
    const items = phases.reduce((sum, { items }) => sum + items, 0);
    const whole: Figures = {
      name: `${run}: whole`,
      seconds: phases.reduce((sum, { figures }) => sum + figures.seconds, 0),
      times: phases.flatMap(({ figures }) => figures.times),
      transactionsPerItem:
        phases.reduce((sum, { figures, items }) => sum + figures.transactionsPerItem * items, 0) / items,
      answers: [],
    };
    for (const figures of [sectionFigures, userFigures, enrollmentFigures, whole]) print(figures);
    const after = await counts();
    if (run === 'rerun' && JSON.stringify(after) !== JSON.stringify(before))
      throw new Error(`the rerun changed something: ${JSON.stringify(before)} → ${JSON.stringify(after)}`);
    console.log(
      `  rows after: ${after.sections} sections, ${after.users} users, ${after.enrollments} enrollments, ${after.events} events`,
    );
  }
  console.log(
    `\nload average after: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await stopProcesses([server]);
  await database.drop();
}

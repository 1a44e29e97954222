/**
 * Signing in on the sign-in page (docs/sign-in.md) with the argon2id parameters of src/signin/password.ts: starts the
 * server as its own process on a fresh PostgreSQL database with `BENCH_PEOPLE` (50) teachers who have passwords, then
 * signs them in `BENCH_CONCURRENT` (10) at a time for `BENCH_ROUNDS` (20) rounds, each sign-in as a browser does it
 * (GET the form for its CSRF cookie and token, POST it), and times the POST. Then it times refused sign-ins one at a
 * time: a wrong password and a name that is nobody's, which must cost about the same (one argon2 verify each).
 *
 *   npm run bench:sign-in           # BENCH_DATABASE_URL defaults to postgresql://postgres@127.0.0.1:5432/postgres
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { hashPassword, passwordHashing } from '../src/signin/password';
import { benchDatabase, seedBenchSchool, startServerProcess, stopProcesses } from './support';

const people = Number(process.env.BENCH_PEOPLE ?? 50);
const concurrent = Number(process.env.BENCH_CONCURRENT ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 20);
const refusals = Number(process.env.BENCH_REFUSALS ?? 30);
const port = Number(process.env.BENCH_PORT ?? 4562);
const origin = `http://127.0.0.1:${port}`;
const password = 'seven quiet harbours glow';
const database = benchDatabase();

async function seed(): Promise<string[]> {
  const { seeding, prisma, school } = await seedBenchSchool(database.url, 'SCHOOL_ADMIN');
  // One hash for everyone: verifying costs the same whichever hash it is.
  const passwordHash = await hashPassword(password);
  const usernames = Array.from({ length: people }, (_, at) => `teacher${at}`);
  await prisma.user.createMany({
    data: usernames.map((username) => ({
      schoolId: school.id,
      username,
      nameFirst: 'Bench',
      nameLast: username,
      role: 'TEACHER' as const,
      passwordHash,
    })),
  });
  await seeding.close();
  return usernames;
}

/** Signs in as a browser does; answers the POST's status and how long it took (ms). */
async function signIn(identifier: string, secret: string): Promise<{ status: number; ms: number }> {
  const form = await fetch(`${origin}/sign-in`);
  const body = await form.text();
  const csrf = /name="csrf" value="([^"]*)"/.exec(body)?.[1] ?? '';
  const cookie = form.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ');
  const started = performance.now();
  const answer = await fetch(`${origin}/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ csrf, identifier, password: secret, return_to: '/' }),
    redirect: 'manual',
  });
  await answer.arrayBuffer();
  return { status: answer.status, ms: performance.now() - started };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 0.5).toFixed(0)} ms, p99 ${percentile(sorted, 0.99).toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`;
};

await database.create();
const server = await (async () => {
  const usernames = await seed();
  const child = await startServerProcess({
    databaseUrl: database.url,
    port,
    // Refusals are measured, not limited.
    env: {
      SECRET_KEY: randomBytes(32).toString('hex'),
      AUTH_FAILURES_PER_ADDRESS: 'off',
      SIGN_IN_FAILURES_PER_ACCOUNT: 'off',
    },
  });
  return { child, usernames };
})();
try {
  const { memoryCost, timeCost, parallelism } = passwordHashing;
  console.log(
    `\nsign-in: argon2id m=${memoryCost} KiB t=${timeCost} p=${parallelism}; ${people} people, ${concurrent} at a time, ${rounds} rounds`,
  );
  console.log(
    `server: its own process, PostgreSQL; load average before: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  // One round first, unmeasured: the first requests compile and connect.
  await Promise.all(server.usernames.slice(0, concurrent).map((username) => signIn(username, password)));

  const times: number[] = [];
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    const batch = Array.from({ length: concurrent }, (_, at) => server.usernames[(round * concurrent + at) % people]!);
    for (const { status, ms } of await Promise.all(batch.map((username) => signIn(username, password)))) {
      if (status !== 303) throw new Error(`a sign-in answered ${status}`);
      times.push(ms);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `signed in: ${times.length} in ${seconds.toFixed(1)} s (${(times.length / seconds).toFixed(1)}/s); ${summary(times)}`,
  );

  const refused = async (identifier: string, secret: string) => {
    const spent: number[] = [];
    for (let at = 0; at < refusals; at++) {
      const { status, ms } = await signIn(identifier, secret);
      if (status !== 400) throw new Error(`a refused sign-in answered ${status}`);
      spent.push(ms);
    }
    return summary(spent);
  };
  console.log(`wrong password, one at a time:  ${await refused(server.usernames[0]!, 'not the password at all')}`);
  console.log(`unknown name, one at a time:    ${await refused('nobody-by-this-name', 'not the password at all')}`);
  console.log(
    `load average after: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}\n`,
  );
} finally {
  await stopProcesses([server.child]);
  await database.drop();
}

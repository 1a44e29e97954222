/**
 * A roster sync of users on PostgreSQL, in-process: on a fresh database with one district, school and district
 * administrator, sends `POST /v1/users` with bulks of 50 new users (`USERS` in all, 5,000 by default), each request
 * signed with OAuth 1.0a, one after another as a student information system's nightly sync does; then the same bulks
 * again with `update_existing=1`, which must change nothing. Prints the total, p50 and p99 of one bulk call, and the SQL
 * statements per item as the server's database counted them (authentication and the event follower's reads included).
 *
 *   npx tsx bench/users.ts                 # BENCH_DATABASE_URL defaults to postgresql://postgres@127.0.0.1:5432/postgres
 *   USERS=1000 npx tsx bench/users.ts
 */
import { createHmac, randomBytes } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import { createApp } from '../src/app';
import { deriveKey } from '../src/auth/secrets';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { createLogger } from '../src/http/logging';
import { issueApiClient } from '../src/modules/access/access.service';
import { loadServerKey } from '../src/auth/server-key';
import { benchDatabase } from './support';

const users = Number(process.env.USERS ?? 5000);
const perCall = 50;
const origin = 'http://bench.test';
const secretKey = randomBytes(32).toString('hex');
const database = benchDatabase();

await database.create();
const config = loadConfig({
  LOG_LEVEL: 'silent',
  RATE_LIMIT: 'off',
  ALLOWED_HOSTS: new URL(origin).host,
  DATA_DIR: 'memory://',
  DATABASE_URL: database.url,
  SECRET_KEY: secretKey,
});
const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await db.migrate();
  const district = await db.prisma.district.create({ data: { title: 'Bench District' } });
  const school = await db.prisma.school.create({ data: { districtId: district.id, title: 'Bench School' } });
  const admin = await db.prisma.user.create({
    data: { schoolId: school.id, username: 'admin', nameFirst: 'A', nameLast: 'Dmin', role: 'DISTRICT_ADMIN' },
  });
  const client = await issueApiClient(deriveKey(secretKey), { userId: admin.id, name: 'bench' });
  const app = createApp({ config, database: db, serverKey: await loadServerKey(config), logger: createLogger(config) });
  const oauth = new OAuth({
    consumer: { key: client.consumerKey, secret: client.consumerSecret },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });

  const roster = Array.from({ length: users }, (_, at) => ({
    school_uid: `SIS-${at}`,
    name_first: `First${at}`,
    name_last: `Last${at}`,
    primary_email: `student${at}@bench.test`,
    role_id: at % 20 === 0 ? 1213 : 1214,
    grad_year: 2027 + (at % 4),
  }));

  async function sync(query: string) {
    const times: number[] = [];
    const before = db.statementCount;
    const started = performance.now();
    for (let at = 0; at < roster.length; at += perCall) {
      const url = `${origin}/v1/users${query}`;
      const data = Object.fromEntries(new URLSearchParams(query.slice(1)));
      const authorization = oauth.toHeader(oauth.authorize({ method: 'POST', url, data }, { key: '', secret: '' }));
      const body = JSON.stringify({ users: { user: roster.slice(at, at + perCall) } });
      const sent = performance.now();
      const response = await app.fetch(
        new Request(url, {
          method: 'POST',
          headers: { ...authorization, 'content-type': 'application/json', accept: 'application/json' },
          body,
        }),
      );
      const answer = (await response.json()) as { user?: { response_code: number }[] };
      times.push(performance.now() - sent);
      const failed = answer.user?.filter((item) => item.response_code !== 200) ?? [];
      if (response.status !== 200 || failed.length)
        throw new Error(`bulk at ${at}: ${response.status} ${JSON.stringify(answer).slice(0, 500)}`);
    }
    const total = performance.now() - started;
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(times.length * q))]!;
    return { total, p50: at(0.5), p99: at(0.99), statements: (db.statementCount - before) / roster.length };
  }

  const results = [
    ['create', await sync('')],
    ['again, update_existing=1', await sync('?update_existing=1')],
  ] as const;
  const count = await db.prisma.user.count({ where: { schoolId: school.id } });
  const events = await db.prisma.domainEvent.count({ where: { type: { startsWith: 'user.' } } });
  console.log(`\n${users} users in bulks of ${perCall}, one call at a time, PostgreSQL (in-process app)\n`);
  console.log('sync                          total s   p50 ms/call   p99 ms/call   SQL statements/item');
  for (const [name, r] of results) {
    console.log(
      `${name.padEnd(28)} ${(r.total / 1000).toFixed(1).padStart(8)} ${r.p50.toFixed(0).padStart(13)} ${r.p99.toFixed(0).padStart(13)} ${r.statements.toFixed(2).padStart(21)}`,
    );
  }
  console.log(`\nusers in the school: ${count}; user events recorded: ${events}`);
} finally {
  await db.close();
  await database.drop();
}

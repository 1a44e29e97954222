/**
 * The CPU time one request can take: the worst-case documents of issue 6 against an in-process app (embedded database
 * in memory, or BENCH_DATABASE_URL) holding 200 groups of 100 members each, sent as a district administrator. Prints
 * each request's status, CPU time of this process (the server, since the app runs in it), wall time, and how long
 * /healthz waited behind it.
 *
 *   npm run bench:limits
 */
import { randomBytes } from 'node:crypto';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { createLogger } from '../src/http/logging';
import { issueAccessToken } from '../src/modules/access/access.service';

const groups = 200;
const membersPerGroup = 100;

const config = loadConfig({
  LOG_LEVEL: 'silent',
  RATE_LIMIT: 'off',
  DATA_DIR: 'memory://',
  SECRET_KEY: randomBytes(32).toString('hex'),
});
const database = await openDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL ?? null, dataDir: config.dataDir });
await database.migrate();
const prisma = database.prisma;
const district = await prisma.district.create({ data: { title: 'Worst-case district' } });
const school = await prisma.school.create({ data: { districtId: district.id, title: 'Worst-case school' } });
const admin = await prisma.user.create({
  data: {
    schoolId: school.id,
    username: `admin-${randomBytes(4).toString('hex')}`,
    nameFirst: 'A',
    nameLast: 'Admin',
    role: 'DISTRICT_ADMIN',
  },
});
await prisma.user.createMany({
  data: Array.from({ length: membersPerGroup }, (_, index) => ({
    schoolId: school.id,
    username: `member-${index}-${randomBytes(4).toString('hex')}`,
    nameFirst: 'M',
    nameLast: String(index),
    role: 'STUDENT' as const,
  })),
});
const members = await prisma.user.findMany({ where: { schoolId: school.id, role: 'STUDENT' }, select: { id: true } });
for (let index = 0; index < groups; index++) {
  await prisma.group.create({
    data: {
      schoolId: school.id,
      title: `Group ${index}`,
      accessCode: `WORST-${index}-${randomBytes(3).toString('hex')}`,
      privacyLevel: 'EVERYONE',
      memberships: { createMany: { data: members.map(({ id }) => ({ userId: id })) } },
    },
  });
}
const { token } = await issueAccessToken({ userId: admin.id, name: 'bench' });
const app = createApp({ config, database, serverKey: randomBytes(32), logger: createLogger(config) });

const heavyGroups = (limit: number) =>
  `groups(limit: ${limit}) { items { id title members { user { id username role school { id title } } } } }`;
const cases: [string, string][] = [
  [
    '1,000 aliases of groups(limit: 200) { members { user { school } } } (the issue, 106 KB)',
    `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: ${heavyGroups(200)}`).join(' ')} }`,
  ],
  [
    '30 aliases of the same (within the alias limit)',
    `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: ${heavyGroups(200)}`).join(' ')} }`,
  ],
  [
    '300 aliased createGroupCategory mutations',
    `mutation { ${Array.from({ length: 300 }, (_, i) => `c${i}: createGroupCategory(input: { title: "c${i}" }) { userErrors { code } }`).join(' ')} }`,
  ],
  ['64 nested parent levels', `{ school(id: ${school.id}) { ${'parent { '.repeat(64)}id${' }'.repeat(64)} } }`],
  ['a selection nested 4,000 deep', `{ ${'school(id: 1) { '.repeat(4000)}id${' }'.repeat(4000)} }`],
  ['a list literal nested 5,000 deep', `{ groups(schoolId: ${'['.repeat(5000)}${']'.repeat(5000)}) { total } }`],
  ['the costliest query allowed: groups(limit: 33) with 100 members each (cost 9,934)', `{ ${heavyGroups(33)} }`],
];

console.log(`${groups} groups × ${membersPerGroup} members on ${database.kind}\n`);
console.log('status  CPU ms  wall ms  /healthz ms  request');
for (const [name, query] of cases) {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const answered = Promise.resolve(
    app.fetch('http://bench.local/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query }),
    }),
  );
  // A health probe sent right behind it: how long the event loop was held.
  const health = Promise.resolve(app.fetch('http://bench.local/healthz')).then(() => performance.now() - started);
  const response = await answered;
  await response.text();
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const healthMs = await health;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  console.log(
    `${String(response.status).padEnd(6)}  ${cpuMs.toFixed(0).padStart(6)}  ${wall.toFixed(0).padStart(7)}  ${healthMs.toFixed(0).padStart(11)}  ${name}`,
  );
}
await database.close();

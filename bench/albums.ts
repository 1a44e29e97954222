/**
 * Albums and uploads, on PostgreSQL, against the server started as its own process (as an operator runs it):
 *
 * - a page of 20 albums with `withcontent=1` (10 items each), REST (JSON and XML) and the equivalent GraphQL query,
 *   loaded with autocannon: requests/s and p99 latency; and SQL statements per request for pages of 5 and of 20
 *   albums, counted by an in-process app (the same: the list loads in a fixed number of statements, as
 *   test/rest/album-content.test.ts asserts);
 * - one 50 MB upload streamed with `PUT /v1/upload/{id}`: throughput, and the server's resident memory while it
 *   streams, sampled from /proc every 10 ms, against its idle size (the target: under 100 MB above idle).
 *
 *   npm run bench:albums          # BENCH_DATABASE_URL defaults to postgresql://postgres@127.0.0.1:5432/postgres
 *   BENCH_SECONDS=3 npm run bench:albums
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { createLogger } from '../src/http/logging';
import { issueAccessToken } from '../src/modules/access/access.service';
import { openFileStore, useFileStore } from '../src/modules/uploads/file-store';
import { createFolderFileStore } from '../src/modules/uploads/folder-file-store';
import { benchDatabase, startServerProcess } from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const port = Number(process.env.BENCH_PORT ?? 4556);
const origin = `http://127.0.0.1:${port}`;
const benchData = benchDatabase();
const databaseUrl = benchData.url;
const uploadBytes = 50 * 1024 * 1024;

/** A group with 20 albums of 10 stored images each (small files: listing reads rows, not bytes). */
async function seed(dataDir: string) {
  const database = await openDatabase({ databaseUrl, dataDir: '' });
  await database.migrate();
  const prisma = database.prisma;
  const files = await createFolderFileStore(join(dataDir, 'files'));
  const district = await prisma.district.create({ data: { title: 'Bench District' } });
  const school = await prisma.school.create({ data: { districtId: district.id, title: 'Bench School' } });
  const user = await prisma.user.create({
    data: { schoolId: school.id, username: 'bench', nameFirst: 'Bench', nameLast: 'Admin', role: 'DISTRICT_ADMIN' },
  });
  const group = await prisma.group.create({
    data: { schoolId: school.id, title: 'Bench group', accessCode: 'BENCH-1' },
  });
  for (let album = 0; album < 20; album++) {
    const { id: albumId } = await prisma.album.create({
      data: { realmType: 'GROUP', realmId: group.id, title: `Album ${album + 1}`, creatorId: user.id },
    });
    for (let item = 0; item < 10; item++) {
      const bytes = randomBytes(2048);
      const storageKey = `f-${randomBytes(16).toString('hex')}`;
      await files.write(storageKey, [bytes]);
      const upload = await prisma.upload.create({
        data: {
          ownerId: user.id,
          filename: `photo-${item}.jpg`,
          filesize: bytes.length,
          md5Checksum: createHash('md5').update(bytes).digest('hex'),
          storageKey,
          status: 'STORED',
          kind: 'IMAGE',
          mimeType: 'image/jpeg',
          width: 1600,
          height: 1200,
          storedAt: new Date(),
          attachedAt: new Date(),
        },
      });
      await prisma.albumContent.create({
        data: {
          albumId,
          uploadId: upload.id,
          creatorId: user.id,
          caption: `Item ${item}`,
          displayOrder: item,
          albumCover: item === 0,
        },
      });
    }
  }
  const { token } = await issueAccessToken({ userId: user.id, name: 'bench' });
  // Vacuumed and analysed now, so that autovacuum does not run (and count transactions) while statements are measured.
  await prisma.$executeRawUnsafe('VACUUM ANALYZE');
  await database.close();
  return { token, groupId: group.id };
}

/**
 * SQL statements per request for pages of 5 and of 20 albums, counted exactly by an in-process app on the same
 * database (PostgreSQL's own counters also count background work, such as autovacuum).
 */
async function statementsPerPage(dataDir: string, token: string, groupId: number) {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    RATE_LIMIT: 'off',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SECRET_KEY: randomBytes(32).toString('hex'),
  });
  const database = await openDatabase({ databaseUrl, dataDir });
  useFileStore(await openFileStore(config));
  const app = createApp({ config, database, serverKey: randomBytes(32), logger: createLogger(config) });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const requests = {
    'REST withcontent=1': (limit: number) =>
      new Request(`http://127.0.0.1/v1/groups/${groupId}/albums?withcontent=1&limit=${limit}`, { headers }),
    'GraphQL albums { contents }': (limit: number) =>
      new Request('http://127.0.0.1/graphql', { method: 'POST', headers, body: graphqlQuery(groupId, limit) }),
  };
  const count = async (request: Request) => {
    const before = database.statementCount;
    if (!(await app.fetch(request)).ok) throw new Error('request failed');
    return database.statementCount - before;
  };
  console.log('\nSQL statements per request (pages of 5 and of 20 albums, 10 items each; authentication included)');
  for (const [name, request] of Object.entries(requests)) {
    await count(request(1));
    console.log(`  ${name.padEnd(30)} 5: ${await count(request(5))}   20: ${await count(request(20))}`);
  }
  await database.close();
}

const graphqlQuery = (groupId: number, limit: number) =>
  JSON.stringify({
    query: `query { albums(realm: { type: GROUP, id: "${groupId}" }, limit: ${limit}) { total items {
      id title description settingComments settingMemberPost published photoCount videoCount audioCount coverImageUrl createdAt
      contents { id albumId kind caption displayOrder createdAt albumCover contentUrl filesize md5Checksum thumbnailUrl thumbnailDimensions contentDimensions } } } }`,
  });

const residentBytes = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const dataDir = await mkdtemp(join(tmpdir(), 'lectern-bench-albums-'));
await benchData.create();
const { token, groupId } = await seed(dataDir);
await statementsPerPage(dataDir, token, groupId);
const server = await startServerProcess({
  databaseUrl,
  port,
  env: { SECRET_KEY: randomBytes(32).toString('hex'), DATA_DIR: dataDir },
});
try {
  const auth = { authorization: `Bearer ${token}` };
  const scenarios = [
    {
      name: 'REST albums?withcontent=1 (JSON)',
      method: 'GET' as const,
      path: `/v1/groups/${groupId}/albums?withcontent=1`,
      headers: { ...auth, accept: 'application/json' },
    },
    {
      name: 'REST albums?withcontent=1 (XML)',
      method: 'GET' as const,
      path: `/v1/groups/${groupId}/albums?withcontent=1`,
      headers: { ...auth, accept: 'text/xml' },
    },
    {
      name: 'GraphQL albums(limit: 20)',
      method: 'POST' as const,
      path: '/graphql',
      headers: { ...auth, 'content-type': 'application/json' },
      body: graphqlQuery(groupId, 20),
    },
  ];
  console.log(`\n${seconds} s per scenario, ${connections} connections, a page of 20 albums with 10 items each\n`);
  console.log('scenario                             req/s     p99 ms');
  for (const scenario of scenarios) {
    const options = {
      url: origin,
      connections,
      requests: [{ method: scenario.method, path: scenario.path, headers: scenario.headers, body: scenario.body }],
    };
    await autocannon({ ...options, duration: 2 });
    const result = await autocannon({ ...options, duration: seconds });
    if (result.non2xx) throw new Error(`${scenario.name}: ${result.non2xx} responses were not 2xx`);
    console.log(
      `${scenario.name.padEnd(36)} ${result.requests.average.toFixed(0).padStart(6)} ${String(result.latency.p99).padStart(10)}`,
    );
  }

  // One 50 MB file: the same 1 MB block fifty times, streamed as it is produced.
  const block = randomBytes(1024 * 1024);
  const md5 = createHash('md5');
  for (let i = 0; i < 50; i++) md5.update(block);
  const announced = await fetch(`${origin}/v1/upload`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ filename: 'lecture.bin', filesize: uploadBytes, md5_checksum: md5.digest('hex') }),
  });
  const { upload_location: location } = (await announced.json()) as { upload_location: string };
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const idle = residentBytes(server.pid!);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(server.pid!))), 10);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === 50) return controller.close();
      sent++;
      controller.enqueue(new Uint8Array(block));
    },
  });
  const started = performance.now();
  const stored = await fetch(location, {
    method: 'PUT',
    headers: { ...auth, 'content-type': 'application/octet-stream' },
    body,
    duplex: 'half',
  } as RequestInit);
  const elapsed = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (stored.status !== 200) throw new Error(`upload answered ${stored.status}: ${await stored.text()}`);
  const above = peak - idle;
  console.log(`\nUpload of 50 MB: ${elapsed.toFixed(2)} s, ${(50 / elapsed).toFixed(1)} MB/s`);
  console.log(
    `Server memory: idle ${megabytes(idle)}, peak while streaming ${megabytes(peak)}, ${megabytes(above)} above idle (target: under 100 MB) ${above < 100 * 1024 * 1024 ? 'OK' : 'OVER'}`,
  );
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await benchData.drop();
  await rm(dataDir, { recursive: true, force: true });
}

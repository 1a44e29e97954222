import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../src/db/database';
import { leaseMs } from '../../src/rest/idempotency';
import {
  migratedDataDir,
  processTestTimeoutMs,
  type ServerProcess,
  startServerProcess,
  waitUntilReady,
} from '../support/process';

// Server processes on an embedded database (or TEST_DATABASE_URL's server), killed and started again: tens of seconds
// when another test file shares the machine's two cores.
vi.setConfig({ testTimeout: processTestTimeoutMs });

// A bulk write with an Idempotency-Key, its server killed (SIGKILL) in the middle of it: after a restart the keyed
// retry finishes it. The kill comes at a random point of the write, as a crash would: a fifth to two thirds into the
// time a write of the same size took (reads wait for a bulk write on the embedded database, so its progress cannot be
// watched). The other waits are on the server's answers and on what it has written, and for the Retry-After it asks.

const serverUrl = process.env.TEST_DATABASE_URL;
const consumer = { key: 'bulk-kill-key', secret: 'bulk-kill-secret' };
const folder = mkdtempSync(join(tmpdir(), 'lectern-bulk-kill-'));
const databaseName = `lectern_test_${randomBytes(6).toString('hex')}`;
const databaseUrl = serverUrl ? Object.assign(new URL(serverUrl), { pathname: `/${databaseName}` }).href : null;
const env: Record<string, string> = {
  ...(databaseUrl
    ? { DATABASE_URL: databaseUrl, SECRET_KEY: randomBytes(32).toString('hex') }
    : { DATA_DIR: migratedDataDir(folder) }),
  BOOTSTRAP_CONSUMER_KEY: consumer.key,
  BOOTSTRAP_CONSUMER_SECRET: consumer.secret,
  RATE_LIMIT: 'off',
  SEED_DEMO: 'off',
  LOG_LEVEL: 'error',
  // A write of twenty slow items (below) runs past the default execution deadline, which is also a lease long.
  QUERY_TIMEOUT: '60s',
};

async function sql<Row>(url: string, text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as Row[];
  } finally {
    await client.end();
  }
}

const authorization = () =>
  `OAuth realm="Schoology API", oauth_consumer_key="${consumer.key}", oauth_token="", oauth_nonce="${randomUUID()}", ` +
  `oauth_timestamp="${Math.floor(Date.now() / 1000)}", oauth_signature_method="PLAINTEXT", oauth_version="1.0", ` +
  `oauth_signature="${consumer.secret}%26"`;

interface Answer {
  status: number;
  headers: Headers;
  json: any;
}

async function call(
  server: ServerProcess,
  method: string,
  path: string,
  options: { body?: unknown; key?: string } = {},
): Promise<Answer> {
  const response = await fetch(`${server.base}/v1${path}`, {
    method,
    redirect: 'manual',
    headers: {
      authorization: authorization(),
      accept: 'application/json',
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.key ? { 'idempotency-key': options.key } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined };
}

const bulkBody = (titles: string[]) => ({
  grading_categories: { grading_category: titles.map((title) => ({ title })) },
});
type CategoryList = { grading_category: { id: number; title: string }[]; total: number };
const categoriesOf = async (server: ServerProcess, sectionId: number) =>
  (await call(server, 'GET', `/sections/${sectionId}/grading_categories?limit=200`)).json as CategoryList;

async function start(extra: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await startServerProcess({ ...env, ...extra });
  await waitUntilReady(server);
  return server;
}

async function stop(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  expect(await server.exited, server.output()).toBe(0);
}

async function kill(server: ServerProcess): Promise<void> {
  server.child.kill('SIGKILL');
  await server.exited;
}

/** Polls until `done` holds, each poll after the previous answer. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** What the retries of each cut bulk write met, for the closing note (printed once the file is done). */
const tally = {
  runs: 0,
  kills: 0,
  writtenAtKill: [] as number[],
  requests: 0,
  inUse: 0,
  lostAnswers: 0,
  serverErrors: 0,
  duplicates: 0,
};

/**
 * Retries a keyed bulk write until it is answered, waiting what each 409 IDEMPOTENCY_KEY_IN_USE asks for (never more
 * than a lease). A connection error (a kept-alive socket of the killed process) is retried after a moment.
 */
async function retryUntilAnswered(server: ServerProcess, path: string, body: unknown, key: string): Promise<Answer> {
  for (;;) {
    tally.requests++;
    const answer = await call(server, 'POST', path, { body, key }).catch(() => null);
    if (!answer) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    if (answer.status >= 500) tally.serverErrors++;
    if (answer.status !== 409) return answer;
    expect(answer.json.error).toMatch(/still running/);
    tally.inUse++;
    const wait = Number(answer.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(leaseMs / 1000);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}

/** Sections made straight in the database (no /v1 route makes one), in the bootstrap administrator's school. */
async function seedSections(count: number): Promise<number[]> {
  const database = await openDatabase({ databaseUrl, dataDir: folder });
  try {
    const { schoolId } = await database.prisma.user.findFirstOrThrow({ where: { username: 'bootstrap-admin' } });
    const course = await database.prisma.course.create({
      data: { schoolId: schoolId!, title: 'Faults', courseCode: 'F-1' },
    });
    const sections = [];
    for (let index = 0; index < count; index++) {
      sections.push(await database.prisma.section.create({ data: { courseId: course.id, title: `Faults ${index}` } }));
    }
    return sections.map((section) => section.id);
  } finally {
    await database.close();
  }
}

let sections: number[] = [];
const rounds = 2;
// A section per attempt at a cut (one answered before its kill takes another), one to time a write, two for the
// PostgreSQL instances.
const attemptsPerRound = 3;
const itemCount = 100;

beforeAll(async () => {
  if (databaseUrl) await sql(serverUrl!, `CREATE DATABASE ${databaseName}`);
  // The first start makes the bootstrap credential and its school; the embedded database is written while stopped.
  await stop(await start());
  sections = await seedSections(rounds * attemptsPerRound + 3);
}, processTestTimeoutMs);

afterAll(async () => {
  console.log(`bulk kill runs (${databaseUrl ? 'PostgreSQL' : 'embedded'}): ${JSON.stringify(tally)}`);
  if (databaseUrl) await sql(serverUrl!, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  rmSync(folder, { recursive: true, force: true });
});

describe('a bulk write killed in the middle (SIGKILL), retried with its Idempotency-Key after a restart', () => {
  it('is finished by the retry: the items written are answered as they were, the rest written, none twice', async () => {
    let server = await start();
    const { port } = new URL(server.base);
    const spare = [...sections];
    try {
      const timed = Date.now();
      const titled = (name: string) => Array.from({ length: itemCount }, (_, index) => `${name} item ${index}`);
      const timedWrite = await call(server, 'POST', `/sections/${spare.shift()}/grading_categories`, {
        body: bulkBody(titled('Timed')),
      });
      expect(timedWrite.status).toBe(200);
      const writeMs = Date.now() - timed;

      for (let round = 0; round < rounds; round++) {
        let sectionId = 0;
        let path = '';
        let titles: string[] = [];
        let key = '';
        for (let attempt = 0; ; attempt++) {
          expect(attempt, 'every attempt was answered before its kill').toBeLessThan(attemptsPerRound);
          sectionId = spare.shift()!;
          path = `/sections/${sectionId}/grading_categories`;
          titles = titled(`Round ${round} attempt ${attempt}`);
          key = randomUUID();
          tally.requests++;
          let answered = false;
          const first = call(server, 'POST', path, { body: bulkBody(titles), key }).then(
            () => (answered = true),
            () => {},
          );
          await new Promise((resolve) => setTimeout(resolve, writeMs * (0.2 + Math.random() * 0.47)));
          await kill(server);
          tally.kills++;
          await first;
          server = await start({ PORT: port! });
          if (!answered) break;
        }
        tally.runs++;
        const before = await categoriesOf(server, sectionId);
        // Any number of items may have been written, all of them too (the answer lost on its way out).
        tally.writtenAtKill.push(before.total);

        const answer = await retryUntilAnswered(server, path, bulkBody(titles), key);
        expect(answer.status).toBe(200);
        const answers: { id: string; response_code: number; title: string }[] = answer.json.grading_category;
        if (answers.length !== titles.length || answers.some((item) => item.response_code !== 200)) tally.lostAnswers++;
        expect(answers.map((item) => [item.response_code, item.title])).toEqual(titles.map((title) => [200, title]));
        // The items written before the kill keep their ids in the answer.
        const written = new Map(before.grading_category.map((category) => [category.title, category.id]));
        for (const item of answers.filter((item) => written.has(item.title)))
          expect(Number(item.id)).toBe(written.get(item.title));

        const after = await categoriesOf(server, sectionId);
        tally.duplicates += after.total - new Set(after.grading_category.map((category) => category.title)).size;
        expect(after.total).toBe(titles.length);
        const ascending = (ids: number[]) => ids.sort((a, b) => a - b);
        expect(ascending(after.grading_category.map((category) => category.id))).toEqual(
          ascending(answers.map((item) => Number(item.id))),
        );

        const replay = await call(server, 'POST', path, { body: bulkBody(titles), key });
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(replay.json).toEqual(answer.json);
      }
    } finally {
      await stop(server);
    }
  });
});

describe.skipIf(!databaseUrl)('two instances on one PostgreSQL', () => {
  const written = async (sectionId: number) =>
    Number(
      (
        await sql<{ count: string }>(
          databaseUrl!,
          `SELECT count(*) FROM grading_categories WHERE "sectionId" = ${sectionId}`,
        )
      )[0]!.count,
    );
  const claimOf = async (key: string) =>
    (
      await sql<{ createdAt: Date; leaseUntil: Date }>(
        databaseUrl!,
        `SELECT "createdAt", "leaseUntil" FROM idempotency_keys WHERE key = '${key}'`,
      )
    ).at(0);

  beforeAll(async () => {
    // Each item titled "Slow ..." takes most of a second to write, each in a transaction well within its deadline: a
    // write of twenty runs past the length of a lease.
    await sql(
      databaseUrl!,
      `
      CREATE FUNCTION slow_down() RETURNS trigger AS $$
      BEGIN IF NEW.title LIKE 'Slow %' THEN PERFORM pg_sleep(0.8); END IF; RETURN NEW; END; $$ LANGUAGE plpgsql`,
    );
    await sql(
      databaseUrl!,
      'CREATE TRIGGER slow_down BEFORE INSERT ON grading_categories FOR EACH ROW EXECUTE FUNCTION slow_down()',
    );
  });

  const slowTitles = (name: string) => Array.from({ length: 20 }, (_, index) => `Slow ${name} item ${index}`);

  it('does not let one take over the key of the other while its holder lives, past the length of a lease', async () => {
    const [one, other] = await Promise.all([start(), start()]);
    try {
      const sectionId = sections.at(-2)!;
      const path = `/sections/${sectionId}/grading_categories`;
      const titles = slowTitles('alive');
      const key = randomUUID();
      const first = call(one, 'POST', path, { body: bulkBody(titles), key }).catch(() => null);
      const { createdAt } = (await until(
        () => claimOf(key),
        (claim) => claim !== undefined,
      ))!;
      // Past the first lease: only its renewals keep the claim.
      await new Promise((resolve) => setTimeout(resolve, createdAt.getTime() + leaseMs + 1000 - Date.now()));
      expect((await claimOf(key))!.leaseUntil.getTime()).toBeGreaterThan(createdAt.getTime() + leaseMs);
      expect(await written(sectionId)).toBeLessThan(titles.length);

      const meanwhile = await call(other, 'POST', path, { body: bulkBody(titles), key });
      expect(meanwhile.status).toBe(409);
      expect(meanwhile.json.error).toMatch(/still running/);
      expect(Number(meanwhile.headers.get('retry-after'))).toBeLessThanOrEqual(leaseMs / 1000);

      const answer = await first;
      expect(answer?.status).toBe(200);
      expect(answer!.json.grading_category.map((item: { title: string }) => item.title)).toEqual(titles);
      const replay = await call(other, 'POST', path, { body: bulkBody(titles), key });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.json).toEqual(answer!.json);
      expect(await written(sectionId)).toBe(titles.length);
    } finally {
      await Promise.all([stop(one), stop(other)]);
    }
  });

  it('lets the other finish the write once the holder is killed, after the rest of its lease', async () => {
    const [one, other] = await Promise.all([start(), start()]);
    try {
      const sectionId = sections.at(-1)!;
      const path = `/sections/${sectionId}/grading_categories`;
      const titles = slowTitles('killed');
      const key = randomUUID();
      tally.requests++;
      const first = call(one, 'POST', path, { body: bulkBody(titles), key }).catch(() => null);
      await until(
        () => written(sectionId),
        (count) => count >= 5,
      );
      await kill(one);
      tally.kills++;
      tally.runs++;
      expect(await first).toBeNull();
      const before = await categoriesOf(other, sectionId);
      tally.writtenAtKill.push(before.total);
      expect(before.total).toBeLessThan(titles.length);

      const inUse = tally.inUse;
      const answer = await retryUntilAnswered(other, path, bulkBody(titles), key);
      expect(tally.inUse, "the killed holder's lease was waited for").toBeGreaterThan(inUse);
      expect(answer.status).toBe(200);
      const answers: { id: string; title: string; response_code: number }[] = answer.json.grading_category;
      if (answers.length !== titles.length || answers.some((item) => item.response_code !== 200)) tally.lostAnswers++;
      expect(answers.map((item) => [item.response_code, item.title])).toEqual(titles.map((title) => [200, title]));
      expect(answers.slice(0, before.total).map((item) => Number(item.id))).toEqual(
        before.grading_category.map((category) => category.id),
      );
      expect(await written(sectionId)).toBe(titles.length);
    } finally {
      await stop(other);
    }
  });
});

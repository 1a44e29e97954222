import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { readCommittedEvents } from '../../src/outbox/stream';
import { type RestClient, restClientFor } from '../support/client';
import { createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';
import { settledEndOfStream } from '../support/stream';

const server = useTestServer();
let teacher: RestClient;

beforeAll(async () => {
  teacher = await restClientFor(server, (await createWorld()).teacher);
});

/** Reads the whole stream from a cursor, page by page. */
async function readAll(cursor: string | null, pageSize: number) {
  const types: string[] = [];
  for (;;) {
    const page = await readCommittedEvents(cursor, pageSize);
    if (page.events.length === 0) return { types, cursor };
    types.push(...page.events.map((event) => `${event.type}#${event.objectId}`));
    cursor = page.cursor;
  }
}

describe('the domain event stream', () => {
  it('is read in order, page by page, from a cursor that only moves forward', async () => {
    const start = await settledEndOfStream();
    const created = await teacher.post('/groups', { title: 'Streamed' });
    await teacher.put(`/groups/${created.json.id}`, { description: 'changed' });
    await teacher.post(`/groups/${created.json.id}/posts`, { title: 'Hello' });
    const typesRead = async () => (await readAll(start, 2)).types.map((type) => type.split('#')[0]);
    await expect.poll(typesRead).toEqual(['group.create', 'group.update', 'blog_post.create']);
    const { cursor } = await readAll(start, 2);
    expect((await readCommittedEvents(cursor)).events).toEqual([]);
  });

  it('reads the events of one transaction in numeric id order, in pages smaller than the transaction', async () => {
    const start = await settledEndOfStream();
    // Ids either side of a million, in one transaction: compared as text (1000000 < 999997) a page's cursor would
    // skip 999997 to 999999.
    const ids = [999_997, 999_998, 999_999, 1_000_000, 1_000_001, 1_000_002];
    await db().$transaction(async (tx) => {
      for (const id of ids) {
        await tx.$executeRaw`INSERT INTO domain_events (id, type, "realmType", "realmId", "objectId") VALUES (${id}, 'test.page', 'DISTRICT', 1, ${id})`;
      }
    });
    await expect.poll(async () => (await readAll(start, 2)).types).toEqual(ids.map((id) => `test.page#${id}`));
    // The end of the stream is the last of them too: ordered by the selected text (`id::text`), 999999 would be.
    expect(await settledEndOfStream()).toBe((await readAll(start, 2)).cursor);
  });

  const serverUrl = process.env.TEST_DATABASE_URL;
  it.skipIf(!serverUrl)('never skips an event whose transaction commits after a later one', async () => {
    const start = await settledEndOfStream();
    const url = server.config.databaseUrl!;
    const slow = new pg.Client({ connectionString: url });
    const fast = new pg.Client({ connectionString: url });
    await Promise.all([slow.connect(), fast.connect()]);
    const insert = (client: pg.Client, type: string) =>
      client.query(
        `INSERT INTO domain_events (type, "realmType", "realmId", "objectId") VALUES ($1, 'DISTRICT', 1, 1)`,
        [type],
      );
    try {
      await slow.query('BEGIN');
      await insert(slow, 'slow.first'); // takes the smaller id and transaction id, commits last
      await insert(fast, 'fast.second');
      // Reading by id alone would return fast.second now, and skip slow.first once it commits.
      expect((await readAll(start, 10)).types).toEqual([]);
      await slow.query('COMMIT');
      await expect.poll(async () => (await readAll(start, 10)).types).toEqual(['slow.first#1', 'fast.second#1']);
    } finally {
      await Promise.all([slow.end(), fast.end()]);
    }
  });
});

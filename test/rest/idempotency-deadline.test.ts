import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { type RestClient, clientsFor } from '../support/client';
import { createSection, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

const slowTitles = (name: string) => Array.from({ length: 20 }, (_, index) => `Slow ${name} ${index}`);
const json = (titles: string[]) => ({ grading_categories: { grading_category: titles.map((title) => ({ title })) } });
const xml = (titles: string[]) =>
  `<body><grading_categories>${titles.map((title) => `<grading_category><title>${title}</title></grading_category>`).join('')}</grading_categories></body>`;

// On PostgreSQL only: the embedded database's calls complete without giving way to timers, so a bulk write on it
// finishes before its deadline can fire.
describe.skipIf(!process.env.TEST_DATABASE_URL)('a bulk write cut by the execution deadline (QUERY_TIMEOUT)', () => {
  // A deadline far shorter than a bulk write of slow items: every attempt at one is cut by it.
  const server = useTestServer({ QUERY_TIMEOUT: '250ms' });
  const clients = clientsFor(server);
  let teacher: RestClient;
  let section: { id: number };
  const path = () => `/sections/${section.id}/grading_categories`;
  const categoriesTitled = (titles: string[]) =>
    db().gradingCategory.findMany({ where: { title: { in: titles } }, orderBy: { id: 'asc' } });

  beforeAll(async () => {
    const world = await createWorld();
    teacher = await clients.rest(world.teacher);
    section = await createSection(world.school.id, [{ userId: world.teacher.id, admin: true }]);
    // Each category titled "Slow ..." takes 50 ms to write: twenty take four deadlines.
    await db().$executeRawUnsafe(`
      CREATE FUNCTION slow_down() RETURNS trigger AS $$
      BEGIN IF NEW.title LIKE 'Slow %' THEN PERFORM pg_sleep(0.05); END IF; RETURN NEW; END; $$ LANGUAGE plpgsql`);
    await db().$executeRawUnsafe(
      'CREATE TRIGGER slow_down BEFORE INSERT ON grading_categories FOR EACH ROW EXECUTE FUNCTION slow_down()',
    );
  });

  it('answers 503 with Retry-After, in JSON and XML', async () => {
    const titles = slowTitles(randomUUID());
    const cut = await teacher.post(path(), json(titles));
    expect([cut.status, cut.headers.get('retry-after')]).toEqual([503, '1']);
    expect(cut.json).toEqual({ error: 'The request took longer than 250 ms and was stopped; try again later' });
    // Without a key nothing stops the write: it goes on after its answer.
    await expect.poll(async () => (await categoriesTitled(titles)).length).toBe(titles.length);

    const more = slowTitles(randomUUID());
    const inXml = await teacher.post(path(), xml(more), { accept: 'xml' });
    expect([inXml.status, inXml.headers.get('retry-after')]).toEqual([503, '1']);
    expect(inXml.text).toContain('<error>The request took longer than 250 ms and was stopped; try again later</error>');
    await expect.poll(async () => (await categoriesTitled(more)).length).toBe(more.length);
  });

  it('with an Idempotency-Key, stops at its answer, and each retry goes on from the items written until it is finished', async () => {
    const key = randomUUID();
    const titles = slowTitles(key);
    const statuses: number[] = [];
    let answer;
    for (let attempt = 0; attempt < 40 && answer?.status !== 200; attempt++) {
      // The same request in either notation.
      answer = await teacher.post(path(), attempt % 2 ? xml(titles) : json(titles), {
        headers: { 'idempotency-key': key },
      });
      statuses.push(answer.status);
      if (answer.status === 503) expect(answer.headers.get('retry-after')).toBe('1');
    }
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.slice(0, -1).length).toBeGreaterThan(0);
    expect(new Set(statuses.slice(0, -1))).toEqual(new Set([503]));
    const stored = await categoriesTitled(titles);
    expect(stored.map((category) => category.title)).toEqual(titles);
    expect(
      answer!.json.grading_category.map((item: { id: string; title: string }) => [Number(item.id), item.title]),
    ).toEqual(stored.map((category) => [category.id, category.title]));
  });
});

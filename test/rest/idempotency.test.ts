import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { Prisma } from '../../src/generated/prisma/client';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { pruneIdempotencyKeys } from '../../src/rest/idempotency';
import { type RestClient, clientsFor } from '../support/client';
import { type World, createSection, createWorld, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();
const clients = clientsFor(server);
let world: World;
let teacher: RestClient;
let schoolAdmin: RestClient;

beforeAll(async () => {
  world = await createWorld();
  teacher = await clients.rest(world.teacher);
  schoolAdmin = await clients.rest(world.schoolAdmin);
});

const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });
const secondsFromNow = (seconds: number) => new Date(Date.now() + seconds * 1000);
const groupsTitled = (title: string) => db().group.count({ where: { title } });

/** POST /graphql with a bearer token and an Idempotency-Key. */
async function graphqlWithKey(
  user: { id: number },
  key: string,
  query: string,
  variables: Record<string, unknown> = {},
) {
  const { token } = await issueAccessToken({ userId: user.id, name: 'idempotency' });
  return async (overrides: { key?: string; variables?: Record<string, unknown> } = {}) => {
    const response = await server.fetch('/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'idempotency-key': overrides.key ?? key,
      },
      body: JSON.stringify({ query, variables: overrides.variables ?? variables }),
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  };
}

describe('Idempotency-Key on /v1 writes', () => {
  it('replays the first answer to a retry with the same key and body, without writing again', async () => {
    const key = randomUUID();
    const title = `Retried ${key}`;
    const first = await teacher.post('/groups', { title }, withKey(key));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const retry = await teacher.post('/groups', { title }, withKey(key));
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    expect(retry.json).toEqual(first.json);
    expect(await groupsTitled(title)).toBe(1);

    // The same members in XML are the same request.
    const asXml = await teacher.post('/groups', `<body><title>${title}</title></body>`, withKey(key));
    expect(asXml.status).toBe(201);
    expect(asXml.headers.get('idempotent-replayed')).toBe('true');
    expect(await groupsTitled(title)).toBe(1);
  });

  it('refuses the same key with another body (422), and keeps the first answer', async () => {
    const key = randomUUID();
    const title = `First ${key}`;
    expect((await teacher.post('/groups', { title }, withKey(key))).status).toBe(201);
    const other = await teacher.post('/groups', { title: `Second ${key}` }, withKey(key));
    expect(other.status).toBe(422);
    expect(other.json.error).toMatch(/Idempotency-Key/);
    expect(await groupsTitled(`Second ${key}`)).toBe(0);
    expect((await teacher.post('/groups', { title }, withKey(key))).headers.get('idempotent-replayed')).toBe('true');
  });

  it('keeps keys per user: another user with the same key runs their own request', async () => {
    const key = randomUUID();
    const title = `Shared key ${key}`;
    expect((await teacher.post('/groups', { title }, withKey(key))).status).toBe(201);
    const theirs = await schoolAdmin.post('/groups', { title }, withKey(key));
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(await groupsTitled(title)).toBe(2);
  });

  it('stores refusals (4xx) too, and replays them', async () => {
    const key = randomUUID();
    const first = await teacher.post('/groups', { title: '' }, withKey(key));
    expect(first.status).toBe(400);
    const retry = await teacher.post('/groups', { title: '' }, withKey(key));
    expect(retry.status).toBe(400);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.json).toEqual(first.json);
  });

  it('answers 409 while the first request with the key is still running, with Retry-After for the rest of its lease', async () => {
    const key = randomUUID();
    const title = `In flight ${key}`;
    expect((await teacher.post('/groups', { title }, withKey(key))).status).toBe(201);
    // As it was before its result was stored: claimed, in flight, its holder renewing the lease.
    await db().idempotencyKey.updateMany({
      where: { key },
      data: { status: 'IN_FLIGHT', leaseUntil: secondsFromNow(6) },
    });
    const meanwhile = await teacher.post('/groups', { title }, withKey(key));
    expect(meanwhile.status).toBe(409);
    expect(Number(meanwhile.headers.get('retry-after'))).toBeOneOf([1, 2, 3, 4, 5, 6]);
    expect(await groupsTitled(title)).toBe(1);
  });

  it('takes over a claim whose lease lapsed before its write committed, and never runs a committed one again', async () => {
    const abandoned = randomUUID();
    const title = `Abandoned ${abandoned}`;
    expect((await teacher.post('/groups', { title }, withKey(abandoned))).status).toBe(201);
    // As a process that stopped before the commit leaves it (the group it made aside): its lease lapsed.
    const ago = secondsFromNow(-1);
    await db().idempotencyKey.updateMany({
      where: { key: abandoned },
      data: { status: 'IN_FLIGHT', response: Prisma.DbNull, leaseUntil: ago },
    });
    const takenOver = await teacher.post('/groups', { title }, withKey(abandoned));
    expect(takenOver.status).toBe(201);
    expect(takenOver.headers.get('idempotent-replayed')).toBeNull();

    const committed = randomUUID();
    const kept = `Committed ${committed}`;
    expect((await teacher.post('/groups', { title: kept }, withKey(committed))).status).toBe(201);
    // As a write that committed and then lost its answer leaves it: refused while its lease runs, then for good.
    const running = secondsFromNow(6);
    await db().idempotencyKey.updateMany({
      where: { key: committed },
      data: { status: 'COMMITTED', response: Prisma.DbNull, leaseUntil: running },
    });
    expect((await teacher.post('/groups', { title: kept }, withKey(committed))).json.error).toMatch(/still running/);
    await db().idempotencyKey.updateMany({ where: { key: committed }, data: { leaseUntil: secondsFromNow(-1) } });
    const lost = await teacher.post('/groups', { title: kept }, withKey(committed));
    expect(lost.status).toBe(409);
    expect(lost.json.error).toMatch(/carried out/);
    expect(await groupsTitled(kept)).toBe(1);
  });

  it('refuses another request with the key of an abandoned claim (422) rather than running it', async () => {
    const key = randomUUID();
    expect((await teacher.post('/groups', { title: `Abandoned ${key}` }, withKey(key))).status).toBe(201);
    const lapsed = { status: 'IN_FLIGHT', response: Prisma.DbNull, leaseUntil: secondsFromNow(-1) } as const;
    await db().idempotencyKey.updateMany({ where: { key }, data: lapsed });
    expect((await teacher.post('/groups', { title: `Other ${key}` }, withKey(key))).status).toBe(422);
    expect(await groupsTitled(`Other ${key}`)).toBe(0);
  });

  it('runs concurrent copies of one request once', async () => {
    const key = randomUUID();
    const title = `Concurrent ${key}`;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => teacher.post('/groups', { title }, withKey(key))),
    );
    expect(answers.every((answer) => answer.status === 201 || answer.status === 409)).toBe(true);
    expect(await groupsTitled(title)).toBe(1);
  });

  it('refuses a key longer than 255 characters (400) and ignores keys on reads', async () => {
    const tooLong = await teacher.post('/groups', { title: 'Long key' }, withKey('k'.repeat(256)));
    expect(tooLong.status).toBe(400);
    expect(await groupsTitled('Long key')).toBe(0);
    const key = randomUUID();
    expect((await teacher.get('/groups', withKey(key))).status).toBe(200);
    expect(await db().idempotencyKey.count({ where: { key } })).toBe(0);
  });

  it('forgets keys after 24 hours: the key runs afresh, and pruning deletes them', async () => {
    const key = randomUUID();
    expect((await teacher.post('/groups', { title: `Old ${key}` }, withKey(key))).status).toBe(201);
    await db().idempotencyKey.updateMany({
      where: { key },
      data: { createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) },
    });
    const again = await teacher.post('/groups', { title: `New ${key}` }, withKey(key));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();

    await db().idempotencyKey.updateMany({
      where: { key },
      data: { createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) },
    });
    expect(await pruneIdempotencyKeys()).toBeGreaterThanOrEqual(1);
    expect(await db().idempotencyKey.count({ where: { key } })).toBe(0);
  });
});

/**
 * Fails every write of a grading category titled `title`, as a fault in the middle of a bulk write would (a database
 * error: 500 for the whole request), until the returned function mends it.
 */
async function faultOn(title: string): Promise<() => Promise<unknown>> {
  await db().$executeRawUnsafe(`
    CREATE OR REPLACE FUNCTION refuse_category() RETURNS trigger AS $$
    BEGIN IF NEW.title = '${title}' THEN RAISE EXCEPTION 'disk failure'; END IF; RETURN NEW; END; $$ LANGUAGE plpgsql`);
  await db().$executeRawUnsafe(
    'CREATE TRIGGER refuse_category BEFORE INSERT OR UPDATE ON grading_categories FOR EACH ROW EXECUTE FUNCTION refuse_category()',
  );
  return () => db().$executeRawUnsafe('DROP TRIGGER refuse_category ON grading_categories');
}

describe('Idempotency-Key on bulk writes whose items commit one by one', () => {
  let section: { id: number };
  const path = () => `/sections/${section.id}/grading_categories`;
  const categoriesTitled = (titles: string[]) =>
    db().gradingCategory.findMany({ where: { title: { in: titles } }, orderBy: { id: 'asc' } });
  const eventsOf = async (events: () => Promise<unknown[][]>) =>
    (await events()).map(([type, , , objectId]) => [type, objectId]);

  beforeAll(async () => {
    section = await createSection(world.school.id, [{ userId: world.teacher.id, admin: true }]);
  });

  it('finishes a bulk create cut short by a fault: items written are answered as they were, the rest written, none twice', async () => {
    const key = randomUUID();
    const titles = Array.from({ length: 8 }, (_, index) => `Cut ${index} ${key}`);
    const xmlItems = titles.map(
      (title, index) => `<grading_category><title>${title}</title><weight>${index}</weight></grading_category>`,
    );
    const xml = `<body><grading_categories>${xmlItems.join('')}</grading_categories></body>`;
    const json = { grading_categories: { grading_category: titles.map((title, index) => ({ title, weight: index })) } };
    const events = await watchDomainEvents();
    const mend = await faultOn(titles[5]!);
    const cut = await teacher.post(path(), xml, withKey(key));
    await mend();
    expect(cut.status).toBe(500);
    const written = await categoriesTitled(titles);
    expect(written.map((category) => category.title)).toEqual(titles.slice(0, 5));

    // The same members in JSON are the same request: its retry finishes the write at once (a 500 ends the lease).
    const retry = await teacher.post(path(), json, withKey(key));
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const answers: { id: string; response_code: number; title: string; weight: number }[] = retry.json.grading_category;
    expect(answers.map((answer) => [answer.response_code, answer.title, answer.weight])).toEqual(
      titles.map((title, index) => [200, title, index]),
    );
    expect(answers.slice(0, 5).map((answer) => Number(answer.id))).toEqual(written.map((category) => category.id));
    const stored = await categoriesTitled(titles);
    expect(stored.map((category) => category.id)).toEqual(answers.map((answer) => Number(answer.id)));
    expect(await eventsOf(events)).toEqual(stored.map((category) => ['grading_category.create', category.id]));

    // From now on the stored answer, in either notation; the items' records have served.
    const replay = await teacher.post(path(), xml, { ...withKey(key), accept: 'xml' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect([...replay.text.matchAll(/<id>(\d+)<\/id>/g)].map(([, id]) => Number(id))).toEqual(
      stored.map((category) => category.id),
    );
    expect(await db().idempotencyItem.count({ where: { key } })).toBe(0);
    expect(await categoriesTitled(titles)).toHaveLength(8);
  });

  it("finishes a bulk update cut short by a crash once its stopped holder's lease lapses, with 409 and the wait until then", async () => {
    const key = randomUUID();
    const categories = [];
    for (let index = 0; index < 6; index++) {
      categories.push(
        await db().gradingCategory.create({ data: { sectionId: section.id, title: `Old ${index} ${key}` } }),
      );
    }
    const renamed = categories.map((_, index) => `Renamed ${index} ${key}`);
    const body = {
      grading_categories: {
        grading_category: categories.map((category, index) => ({ id: category.id, title: renamed[index] })),
      },
    };
    const events = await watchDomainEvents();
    const mend = await faultOn(renamed[3]!);
    expect((await teacher.put(path(), body, withKey(key))).status).toBe(500);
    await mend();
    expect((await categoriesTitled(renamed)).map((category) => category.id)).toEqual(
      categories.slice(0, 3).map((category) => category.id),
    );
    // As a process killed in the middle of the write leaves its claim: the lease it renewed still running.
    await db().idempotencyKey.updateMany({ where: { key }, data: { leaseUntil: secondsFromNow(5) } });

    const early = await teacher.put(path(), body, withKey(key));
    expect(early.status).toBe(409);
    expect(Number(early.headers.get('retry-after'))).toBeOneOf([1, 2, 3, 4, 5]);
    expect(await categoriesTitled(renamed)).toHaveLength(3);

    await db().idempotencyKey.updateMany({ where: { key }, data: { leaseUntil: secondsFromNow(-1) } });
    const retry = await teacher.put(path(), body, withKey(key));
    expect(retry.status).toBe(200);
    const answers: { id: number; response_code: number; title: string }[] = retry.json.grading_category;
    expect(answers.map((answer) => [answer.id, answer.response_code, answer.title])).toEqual(
      categories.map((category, index) => [category.id, 204, renamed[index]]),
    );
    expect(await categoriesTitled(renamed)).toHaveLength(6);
    expect(await eventsOf(events)).toEqual(categories.map((category) => ['grading_category.update', category.id]));
  });

  it('refuses another request with the key of a bulk write cut short (422), writing nothing', async () => {
    const key = randomUUID();
    const titles = [`First ${key}`, `Second ${key}`];
    const mend = await faultOn(titles[1]!);
    expect(
      (await teacher.post(path(), { grading_categories: titles.map((title) => ({ title })) }, withKey(key))).status,
    ).toBe(500);
    await mend();
    const other = await teacher.post(path(), { grading_categories: [{ title: `Other ${key}` }] }, withKey(key));
    expect(other.status).toBe(422);
    expect(await categoriesTitled([...titles, `Other ${key}`])).toHaveLength(1);
  });

  it('finishes a cut-short GraphQL mutation of one bulk field; one of several fields is refused rather than run twice', async () => {
    const results = 'results { code category { databaseId title } }';
    const one = `mutation($sectionId: ID!, $items: [CreateGradingCategoryInput!]!) {
      createGradingCategories(input: { sectionId: $sectionId, items: $items }) { ${results} } }`;
    const key = randomUUID();
    const titles = [`G0 ${key}`, `G1 ${key}`, `G2 ${key}`];
    const send = await graphqlWithKey(world.teacher, key, one, {
      sectionId: String(section.id),
      items: titles.map((title) => ({ title })),
    });
    let mend = await faultOn(titles[2]!);
    expect((await send()).body.errors[0].message).toBe('Unexpected error.');
    await mend();
    const [first, second] = await categoriesTitled(titles);
    const finished = await send();
    expect(finished.status).toBe(200);
    expect(finished.body.data.createGradingCategories.results).toEqual([
      { code: 'CREATED', category: { databaseId: String(first!.id), title: titles[0] } },
      { code: 'CREATED', category: { databaseId: String(second!.id), title: titles[1] } },
      { code: 'CREATED', category: { databaseId: expect.any(String), title: titles[2] } },
    ]);
    expect(await categoriesTitled(titles)).toHaveLength(3);

    // Items of two fields cannot be told apart on a retry: such a write is marked committed and never runs again.
    const two = `mutation($sectionId: ID!, $a: [CreateGradingCategoryInput!]!, $b: [CreateGradingCategoryInput!]!) {
      a: createGradingCategories(input: { sectionId: $sectionId, items: $a }) { ${results} }
      b: createGradingCategories(input: { sectionId: $sectionId, items: $b }) { ${results} } }`;
    const twoKey = randomUUID();
    const [a, b] = [`A ${twoKey}`, `B ${twoKey}`];
    const sendTwo = await graphqlWithKey(world.teacher, twoKey, two, {
      sectionId: String(section.id),
      a: [{ title: a }],
      b: [{ title: b }],
    });
    mend = await faultOn(b);
    expect((await sendTwo()).body.errors[0].message).toBe('Unexpected error.');
    await mend();
    const refused = await sendTwo();
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'IDEMPOTENCY_KEY_ANSWER_LOST' });
    expect((await categoriesTitled([a, b])).map((category) => category.title)).toEqual([a]);
  });
});

describe('Idempotency-Key on GraphQL mutations', () => {
  const createGroup = `mutation($input: CreateGroupInput!) { createGroup(input: $input) { group { id: databaseId title accessCode } } }`;

  it('replays a mutation, and refuses another with the same key as IDEMPOTENCY_KEY_REUSED (422)', async () => {
    const key = randomUUID();
    const title = `GraphQL ${key}`;
    const send = await graphqlWithKey(world.teacher, key, createGroup, { input: { title } });
    const first = await send();
    expect(first.status).toBe(200);
    expect(first.body.data.createGroup.group.accessCode).toMatch(/^[A-Z\d]{5}-[A-Z\d]{5}$/);
    const retry = await send();
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await groupsTitled(title)).toBe(1);

    const reused = await send({ variables: { input: { title: `${title} again` } } });
    expect(reused.status).toBe(422);
    expect(reused.body.errors[0].extensions).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await groupsTitled(`${title} again`)).toBe(0);
  });

  it('shares keys between the two APIs of one user: a key used on /v1 is taken on /graphql', async () => {
    const key = randomUUID();
    expect((await teacher.post('/groups', { title: `Both ${key}` }, withKey(key))).status).toBe(201);
    const send = await graphqlWithKey(world.teacher, key, createGroup, { input: { title: `Both ${key}` } });
    expect((await send()).status).toBe(422);
    expect(await groupsTitled(`Both ${key}`)).toBe(1);
  });

  it('ignores keys on queries', async () => {
    const key = randomUUID();
    const send = await graphqlWithKey(world.teacher, key, '{ groups { total } }');
    expect((await send()).status).toBe(200);
    expect(await db().idempotencyKey.count({ where: { key } })).toBe(0);
  });
});

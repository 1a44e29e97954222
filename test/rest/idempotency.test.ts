import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { Prisma } from '../../src/generated/prisma/client';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { pruneIdempotencyKeys } from '../../src/rest/idempotency';
import { type RestClient, clientsFor } from '../support/client';
import { type World, createWorld } from '../support/factories';
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
async function graphqlWithKey(user: { id: number }, key: string, query: string, variables: Record<string, unknown> = {}) {
  const { token } = await issueAccessToken({ userId: user.id, name: 'idempotency' });
  return async (overrides: { key?: string; variables?: Record<string, unknown> } = {}) => {
    const response = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': overrides.key ?? key },
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
    await db().idempotencyKey.updateMany({ where: { key }, data: { status: 'IN_FLIGHT', leaseUntil: secondsFromNow(6) } });
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
    await db().idempotencyKey.updateMany({ where: { key: abandoned }, data: { status: 'IN_FLIGHT', response: Prisma.DbNull, leaseUntil: ago } });
    const takenOver = await teacher.post('/groups', { title }, withKey(abandoned));
    expect(takenOver.status).toBe(201);
    expect(takenOver.headers.get('idempotent-replayed')).toBeNull();

    const committed = randomUUID();
    const kept = `Committed ${committed}`;
    expect((await teacher.post('/groups', { title: kept }, withKey(committed))).status).toBe(201);
    // As a write that committed and then lost its answer leaves it: refused while its lease runs, then for good.
    const running = secondsFromNow(6);
    await db().idempotencyKey.updateMany({ where: { key: committed }, data: { status: 'COMMITTED', response: Prisma.DbNull, leaseUntil: running } });
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
    const answers = await Promise.all(Array.from({ length: 5 }, () => teacher.post('/groups', { title }, withKey(key))));
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
    await db().idempotencyKey.updateMany({ where: { key }, data: { createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) } });
    const again = await teacher.post('/groups', { title: `New ${key}` }, withKey(key));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();

    await db().idempotencyKey.updateMany({ where: { key }, data: { createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) } });
    expect(await pruneIdempotencyKeys()).toBeGreaterThanOrEqual(1);
    expect(await db().idempotencyKey.count({ where: { key } })).toBe(0);
  });
});

describe('Idempotency-Key on GraphQL mutations', () => {
  const createGroup = `mutation($input: CreateGroupInput!) { createGroup(input: $input) { ... on Group { id: databaseId title accessCode } } }`;

  it('replays a mutation, and refuses another with the same key as IDEMPOTENCY_KEY_REUSED (422)', async () => {
    const key = randomUUID();
    const title = `GraphQL ${key}`;
    const send = await graphqlWithKey(world.teacher, key, createGroup, { input: { title } });
    const first = await send();
    expect(first.status).toBe(200);
    expect(first.body.data.createGroup.accessCode).toMatch(/^[A-Z\d]{5}-[A-Z\d]{5}$/);
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

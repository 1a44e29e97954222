import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { type RestClient, restClientFor } from '../support/client';
import { type World, createGroup, createWorld } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';

const server = useTestServer();
let world: World;
let groupId: number;
let teacher: RestClient;
let token: string;
let origin: string;
let close: () => Promise<void>;

beforeAll(async () => {
  world = await createWorld();
  groupId = (await createGroup(world.school.id, { admins: [world.teacher.id], members: [world.student.id] })).id;
  teacher = await restClientFor(server, world.teacher);
  ({ token } = await issueAccessToken({ userId: world.teacher.id }));
  const listening = await listenOnLoopback(server);
  origin = `http://127.0.0.1:${listening.port}`;
  close = listening.close;
});
afterAll(() => close());

/** A GET with the teacher's bearer token, revalidating `etag` when given. */
const read = (path: string, etag?: string) =>
  fetch(`${origin}${path}`, {
    headers: { authorization: `Bearer ${token}`, ...(etag ? { 'if-none-match': etag } : {}) },
  });

async function expectRevalidation(path: string, change: () => Promise<void>) {
  const first = await read(path);
  expect(first.status).toBe(200);
  expect(first.headers.get('cache-control')).toBe('private, no-cache');
  const etag = first.headers.get('etag')!;
  expect(etag).toMatch(/^"[\w-]{43}"$/);
  const body = await first.text();

  const unchanged = await read(path, etag);
  expect(unchanged.status).toBe(304);
  expect(unchanged.headers.get('etag')).toBe(etag);
  expect(unchanged.headers.get('cache-control')).toBe('private, no-cache');
  expect(await unchanged.text()).toBe('');
  // A list of tags, weak ones included, matches too; another tag does not.
  expect((await read(path, `"other", W/${etag}`)).status).toBe(304);
  expect((await read(path, '"other"')).status).toBe(200);

  await change();
  const changed = await read(path, etag);
  expect(changed.status).toBe(200);
  const newEtag = changed.headers.get('etag');
  expect(newEtag).not.toBe(etag);
  expect(await changed.text()).not.toBe(body);
  expect((await read(path, newEtag!)).status).toBe(304);
}

describe('ETag and 304 Not Modified', () => {
  it('on GraphQL GET queries', async () => {
    const query = encodeURIComponent(`{ group(id: "${groupId}") { title } }`);
    await expectRevalidation(`/graphql?query=${query}`, async () => {
      expect((await teacher.put(`/groups/${groupId}`, { title: 'Renamed for GraphQL' })).status).toBe(204);
    });
  });

  it('on /v1 GETs', async () => {
    await expectRevalidation(`/v1/groups/${groupId}`, async () => {
      expect((await teacher.put(`/groups/${groupId}`, { title: 'Renamed for REST' })).status).toBe(204);
    });
  });

  it('declares 304 on /v1 GETs in the API document, and the wire contract holds a 304 to it', async () => {
    const document = await (await server.fetch('/v1/openapi.json')).json();
    expect(document.paths['/groups/{id}'].get.responses['304']).toEqual({ $ref: '#/components/responses/NotModified' });
    expect(document.paths['/groups/{id}'].put.responses['304']).toBeUndefined();
    // server.fetch checks every /v1 exchange against its contract (test/support/contract.ts).
    const headers = { authorization: `Bearer ${token}` };
    const first = await server.fetch(`/v1/groups/${groupId}`, { headers });
    const again = await server.fetch(`/v1/groups/${groupId}`, {
      headers: { ...headers, 'if-none-match': first.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('not on POST, which is never cached', async () => {
    const response = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ group(id: "${groupId}") { title } }` }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBeNull();
  });
});

import { createHash } from 'node:crypto';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { createPersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { Client, fetchExchange } from '@urql/core';
import { persistedExchange } from '@urql/exchange-persisted';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryQueryStore, redisQueryStore } from '../../src/http/persisted-queries';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { type World, createWorld } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';

const server = useTestServer();
let world: World;
let token: string;
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  world = await createWorld();
  ({ token } = await issueAccessToken({ userId: world.student.id }));
  const listening = await listenOnLoopback(server);
  url = `http://127.0.0.1:${listening.port}/graphql`;
  close = listening.close;
});
afterAll(() => close());

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface Sent {
  method: string;
  /** Whether the document's text travelled with the request. */
  withQuery: boolean;
  hash: string | undefined;
}

/** A fetch that records what each request carried, for a client under test. */
function recordingFetch(sent: Sent[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const target = new URL(request.url);
    const params =
      request.method === 'GET'
        ? {
            query: target.searchParams.get('query'),
            extensions: JSON.parse(target.searchParams.get('extensions') ?? 'null'),
          }
        : await request.clone().json();
    sent.push({
      method: request.method,
      withQuery: Boolean(params.query),
      hash: params.extensions?.persistedQuery?.sha256Hash,
    });
    return fetch(request);
  };
}

const post = (body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
const get = (params: Record<string, unknown>) => {
  const target = new URL(url);
  for (const [name, value] of Object.entries(params))
    target.searchParams.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  return fetch(target, { headers: { authorization: `Bearer ${token}` } });
};

describe('automatic persisted queries', () => {
  it('answer an unknown hash with PersistedQueryNotFound, register a query with its checked hash, then run it by hash', async () => {
    const query = '{ viewer { id: databaseId apqPost: databaseId } }';
    const hash = sha256(query);
    const persistedQuery = { version: 1, sha256Hash: hash };
    const unknown = await post({ extensions: { persistedQuery } });
    expect(unknown.status).toBe(200);
    expect((await unknown.json()).errors).toEqual([
      expect.objectContaining({ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }),
    ]);

    const mismatch = await post({
      query,
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ viewer { name } }') } },
    });
    expect(mismatch.status).toBe(400);
    expect((await mismatch.json()).errors[0]).toMatchObject({
      message: 'provided sha does not match query',
      extensions: { code: 'PERSISTED_QUERY_HASH_MISMATCH', http: { status: 400 } },
    });
    expect((await (await post({ extensions: { persistedQuery } })).json()).errors[0].message).toBe(
      'PersistedQueryNotFound',
    );

    const viewer = { viewer: { id: String(world.student.id), apqPost: String(world.student.id) } };
    expect(await (await post({ query, extensions: { persistedQuery } })).json()).toEqual({ data: viewer });
    expect(await (await post({ extensions: { persistedQuery } })).json()).toEqual({ data: viewer });
    expect(await (await get({ extensions: { persistedQuery } })).json()).toEqual({ data: viewer });
  });

  it('work over GET too, registering on the fallback request', async () => {
    const query = '{ viewer { apqGet: databaseId } }';
    const persistedQuery = { version: 1, sha256Hash: sha256(query) };
    expect((await (await get({ extensions: { persistedQuery } })).json()).errors[0].extensions.code).toBe(
      'PERSISTED_QUERY_NOT_FOUND',
    );
    expect((await (await get({ query, extensions: { persistedQuery } })).json()).data).toEqual({
      viewer: { apqGet: String(world.student.id) },
    });
    expect((await (await get({ extensions: { persistedQuery } })).json()).data).toEqual({
      viewer: { apqGet: String(world.student.id) },
    });
  });

  it("work with Apollo Client's persisted-query link: the hash alone once the server knows the query", async () => {
    const sent: Sent[] = [];
    const client = () =>
      new ApolloClient({
        cache: new InMemoryCache(),
        link: createPersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(
          new HttpLink({ uri: url, headers: { authorization: `Bearer ${token}` }, fetch: recordingFetch(sent) }),
        ),
      });
    const query = gql`
      query ApolloViewer {
        viewer {
          id: databaseId
          username
        }
      }
    `;
    const first = await client().query({ query });
    expect(first.data).toMatchObject({ viewer: { id: String(world.student.id), username: world.student.username } });
    // Unknown hash, then the fallback with the query (which Apollo posts).
    expect(sent).toEqual([
      { method: 'GET', withQuery: false, hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
      { method: 'POST', withQuery: true, hash: sent[0].hash },
    ]);
    const second = await client().query({ query });
    expect(second.data).toEqual(first.data);
    expect(sent.slice(2)).toEqual([{ method: 'GET', withQuery: false, hash: sent[0].hash }]);
  });

  it("work with urql's persisted exchange, by POST", async () => {
    const sent: Sent[] = [];
    const client = () =>
      new Client({
        url,
        fetch: recordingFetch(sent),
        fetchOptions: { headers: { authorization: `Bearer ${token}` } },
        preferGetMethod: false,
        exchanges: [persistedExchange({ preferGetForPersistedQueries: false }), fetchExchange],
      });
    const query = 'query UrqlViewer { viewer { id: databaseId role } }';
    const first = await client().query(query, {}).toPromise();
    expect(first.error).toBeUndefined();
    expect(first.data).toMatchObject({ viewer: { id: String(world.student.id), role: 'STUDENT' } });
    expect(sent).toEqual([
      { method: 'POST', withQuery: false, hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
      { method: 'POST', withQuery: true, hash: sent[0].hash },
    ]);
    const second = await client().query(query, {}).toPromise();
    expect(second.data).toEqual(first.data);
    expect(sent.slice(2)).toEqual([{ method: 'POST', withQuery: false, hash: sent[0].hash }]);
  });
});

describe('registered queries', () => {
  it('are kept in the process up to a byte budget, the least recently used dropped first', async () => {
    const store = memoryQueryStore(30);
    await store.set('a', '{ a0123456789 }');
    await store.set('b', '{ b0123456789 }');
    expect(await store.get('a')).toBe('{ a0123456789 }');
    await store.set('c', '{ c0123456789 }');
    expect([await store.get('a'), await store.get('b'), await store.get('c')]).toEqual([
      '{ a0123456789 }',
      undefined,
      '{ c0123456789 }',
    ]);
  });

  it('are shared through Redis, for a week', async () => {
    // Connected first, as the server connects before it serves: a store whose connection is not ready finds nothing.
    const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
    await redis.connect();
    try {
      const store = redisQueryStore(redis);
      const hash = sha256(`{ viewer { id: databaseId } } # ${Math.random()}`);
      expect(await store.get(hash)).toBeUndefined();
      await store.set(hash, '{ viewer { id: databaseId } }');
      expect(await redisQueryStore(redis).get(hash)).toBe('{ viewer { id: databaseId } }');
      expect(await redis.ttl(`lectern:apq:${hash}`)).toBeGreaterThan(6 * 24 * 3600);
      await redis.del(`lectern:apq:${hash}`);
    } finally {
      redis.disconnect();
    }
  });
});

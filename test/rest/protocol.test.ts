import { Writable } from 'node:stream';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { db } from '../../src/db/database';
import { type RestClient, restClientFor } from '../support/client';
import { type World, createGroup, createUser, createWorld } from '../support/factories';
import { testOrigin, useTestServer } from '../support/harness';
import { v1, xmlHead } from '../support/wire';

// The HTTP protocol of /v1 (and the parts /graphql shares): rate limits, negotiation, status codes, limits, health.

const server = useTestServer({ RATE_LIMIT: '3/5s', BODY_LIMIT: '1kb' });
let world: World;
let group: Awaited<ReturnType<typeof createGroup>>;

beforeAll(async () => {
  world = await createWorld();
  group = await createGroup(world.school.id, { title: 'Protocol <&> Group' });
});

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A new teacher's client: the rate-limit budget is per user, so each test starts with a fresh count. */
const freshClient = async () => restClientFor(server, await createUser(world.school.id, 'TEACHER'));

/** A signed request with exactly the given headers and body (no Accept unless given). */
async function signed(method: string, path: string, init: { headers?: Record<string, string>; body?: BodyInit } = {}) {
  const client = await freshClient();
  const url = new URL(path, testOrigin).href;
  const headers = { authorization: client.authorization(method, url), ...init.headers };
  return server.app.fetch(
    new Request(url, {
      method,
      headers,
      body: init.body,
      ...(init.body instanceof ReadableStream ? { duplex: 'half' } : {}),
    }),
  );
}

const graphqlAs = (client: RestClient, query = '{ viewer { id: databaseId } }') =>
  server.app.fetch(
    new Request(`${testOrigin}/graphql`, {
      method: 'POST',
      headers: {
        authorization: client.authorization('POST', `${testOrigin}/graphql`),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ query }),
    }),
  );

async function expectJsonError(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(await response.json()).toEqual({ error });
}

function streamOf(text: string, chunkSize = 256): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, (offset += chunkSize)));
    },
  });
}

describe('rate limiting (3 per 5s)', () => {
  it('answers the 4th request of a key with 429 and Retry-After', async () => {
    const client = await freshClient();
    for (let i = 0; i < 3; i++) expect((await client.get(`/groups/${group.id}`)).status).toBe(200);
    const limited = await client.get(`/groups/${group.id}`);
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({ error: 'Too many requests: the limit is 3 points per 5s and this request costs 1' });
    const retryAfter = limited.headers.get('retry-after')!;
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(5);
    const xml = await client.get(`/groups/${group.id}`, { accept: 'xml' });
    expect([xml.status, xml.text]).toEqual([
      429,
      `${xmlHead}<result><error>Too many requests: the limit is 3 points per 5s and this request costs 1</error></result>`,
    ]);
  });

  it('counts /v1 and /graphql together for one user, across their keys, and not for another user', async () => {
    const client = await freshClient();
    const user = await db().apiClient.findUniqueOrThrow({
      where: { consumerKey: client.consumerKey },
      select: { userId: true },
    });
    const secondKey = await restClientFor(server, { id: user.userId });
    expect((await client.get('/groups')).status).toBe(200);
    expect((await client.get(`/groups/${group.id}`)).status).toBe(200);
    const third = await graphqlAs(secondKey);
    expect(await third.json()).toEqual({ data: { viewer: { id: String(user.userId) } } });
    const fourth = await graphqlAs(client);
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await fourth.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors).toEqual([
      {
        message: 'Too many requests: the limit is 3 points per 5s and this request costs 1',
        extensions: { code: 'RATE_LIMITED', http: { status: 429 } },
      },
    ]);
    expect((await client.get('/groups')).status).toBe(429);

    const other = await freshClient();
    expect((await other.get('/groups')).status).toBe(200);
    expect((await graphqlAs(other)).status).toBe(200);
  });
});

describe('content negotiation', () => {
  it.each([
    ['no Accept', undefined],
    ['*/*', '*/*'],
    ['application/json', 'application/json'],
    ['an unknown type', 'image/png'],
    ['XML refused with q=0', 'application/json, text/xml;q=0'],
  ])('answers JSON for %s', async (_label, accept) => {
    const response = await signed('GET', `/v1/groups/${group.id}`, { headers: accept ? { accept } : {} });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(((await response.json()) as { title: string }).title).toBe('Protocol <&> Group');
  });

  it.each([
    ['text/xml;q=1.0,application/json;q=0.0'],
    ['application/xml'],
    ['text/xml'],
    ['application/json;q=0.5, text/xml'],
  ])('answers XML for %s', async (accept) => {
    const response = await signed('GET', `/v1/groups/${group.id}`, { headers: { accept } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    expect(await response.text()).toMatch(
      new RegExp(
        `^<\\?xml version="1.0" encoding="utf-8" \\?><result><id>${group.id}</id><title>Protocol &lt;&amp;&gt; Group</title>.*</result>$`,
      ),
    );
  });

  it('builds canonical self links, without a trailing slash the client sent', async () => {
    const response = await signed('GET', '/v1/groups/?limit=1');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { links: { self: string } }).links.self).toBe(`${v1}/groups?limit=1&start=0`);
  });

  it("refuses a start beyond GraphQL's 32-bit Int with 400, not 500", async () => {
    const response = await signed('GET', '/v1/groups?start=2147483648');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'start must be at most 2147483647',
      issues: [{ field: 'start', message: 'invalid' }],
    });
    expect((await signed('GET', '/v1/groups?start=2147483647')).status).toBe(200);
  });

  it('answers errors in the negotiated format', async () => {
    await expectJsonError(await signed('GET', '/v1/groups/999999'), 404, 'Not found');
    const xml = await signed('GET', '/v1/groups/999999', { headers: { accept: 'text/xml' } });
    expect([xml.status, xml.headers.get('content-type'), await xml.text()]).toEqual([
      404,
      'text/xml; charset=utf-8',
      `${xmlHead}<result><error>Not found</error></result>`,
    ]);
    const missing = await signed('POST', '/v1/groups', {
      headers: { accept: 'application/xml', 'content-type': 'text/xml' },
      body: '<body><description>no title</description></body>',
    });
    expect([missing.status, await missing.text()]).toEqual([
      400,
      `${xmlHead}<result><error>title: is required</error><issues><field>title</field><message>is required</message></issues></result>`,
    ]);
  });
});

describe('status codes', () => {
  it('answers 404 for unknown paths, with a message in the negotiated format', async () => {
    await expectJsonError(await signed('GET', '/v1/nothing/here'), 404, 'No endpoint at /v1/nothing/here');
    await expectJsonError(await signed('GET', '/v1/groups/abc'), 404, 'No endpoint at /v1/groups/abc');
    const xml = await server.fetch('/v1/nothing', { headers: { accept: 'text/xml' } });
    expect([xml.status, await xml.text()]).toEqual([
      404,
      `${xmlHead}<result><error>No endpoint at /v1/nothing</error></result>`,
    ]);
    expect((await server.fetch('/nothing')).status).toBe(404);
  });

  it('answers 405 with Allow for a method the path does not have', async () => {
    for (const method of ['PATCH', 'DELETE', 'PUT']) {
      const response = await signed(method, '/v1/groups');
      expect(response.headers.get('allow')).toBe('GET, POST, OPTIONS');
      await expectJsonError(response, 405, `${method} is not allowed here`);
    }
    const item = await signed('POST', `/v1/groups/${group.id}`);
    expect([item.status, item.headers.get('allow')]).toEqual([405, 'GET, PUT, DELETE, OPTIONS']);
  });

  it('answers OPTIONS with the methods of the path, CORS preflight included', async () => {
    const plain = await server.fetch(`/v1/groups/${group.id}`, { method: 'OPTIONS' });
    expect([plain.status, plain.headers.get('allow'), await plain.text()]).toEqual([
      204,
      'GET, PUT, DELETE, OPTIONS',
      '',
    ]);
    expect((await server.fetch('/v1/groups', { method: 'OPTIONS' })).headers.get('allow')).toBe('GET, POST, OPTIONS');
    expect(
      (await server.fetch(`/v1/schools/${world.school.id}/posts`, { method: 'OPTIONS' })).headers.get('allow'),
    ).toBe('GET, POST, OPTIONS');

    const preflight = await server.fetch(`/v1/groups/${group.id}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.org', 'access-control-request-method': 'PUT' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('allow')).toBe('GET, PUT, DELETE, OPTIONS');
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('PUT');

    await expectJsonError(await server.fetch('/v1/nothing', { method: 'OPTIONS' }), 404, 'No endpoint at /v1/nothing');
  });

  it('answers 415 for form-encoded and other unsupported bodies', async () => {
    for (const contentType of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain']) {
      const response = await signed('POST', '/v1/groups', {
        headers: { 'content-type': contentType },
        body: 'title=Form',
      });
      await expectJsonError(response, 415, 'Request bodies must be application/json or text/xml');
    }
    expect(await db().group.count({ where: { title: 'Form' } })).toBe(0);
  });

  it('answers 400 for malformed JSON and for JSON that is not an object', async () => {
    const text = '{"title": "Broken",';
    let parseMessage = '';
    try {
      JSON.parse(text);
    } catch (error) {
      parseMessage = (error as Error).message;
    }
    const json = { 'content-type': 'application/json' };
    await expectJsonError(
      await signed('POST', '/v1/groups', { headers: json, body: text }),
      400,
      `Malformed JSON body: ${parseMessage}`,
    );
    for (const body of ['[{"title": "In an array"}]', 'null', '"title"', '42']) {
      await expectJsonError(
        await signed('POST', '/v1/groups', { headers: json, body }),
        400,
        'The JSON body must be an object',
      );
    }
  });

  it('answers 400 for malformed XML and for a DOCTYPE with an external entity, writing nothing', async () => {
    const xml = { 'content-type': 'text/xml' };
    const before = await db().group.count();
    const malformed = await signed('POST', '/v1/groups', { headers: xml, body: '<body><title>Unclosed</body>' });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: string }).error).toMatch(
      /^Malformed XML body: The XML request body is malformed at line 1/,
    );
    const entity = `<?xml version="1.0"?><!DOCTYPE body [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><body><title>&xxe;</title></body>`;
    await expectJsonError(
      await signed('POST', '/v1/groups', { headers: xml, body: entity }),
      400,
      'Malformed XML body: DOCTYPE is not allowed in an XML request body.',
    );
    expect(await db().group.count()).toBe(before);
  });

  it('answers 500 with the request id and no internals, and logs the cause', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write: (chunk, _encoding, done) => {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const app = createApp({
      config: server.config,
      database: server.database,
      serverKey: server.serverKey,
      logger: pino({ level: 'info' }, sink),
    });
    const client = await freshClient();
    const delegate = db().group as unknown as { count: unknown };
    const original = delegate.count;
    delegate.count = async () => {
      throw new Error('connection string postgres://secret@db');
    };
    try {
      const url = `${v1}/groups`;
      const request = (accept: string, requestId: string) =>
        app.fetch(
          new Request(url, {
            headers: { authorization: client.authorization('GET', url), accept, 'x-request-id': requestId },
          }),
        );
      const json = await request('application/json', 'req-500.json');
      expect(json.headers.get('x-request-id')).toBe('req-500.json');
      await expectJsonError(json, 500, 'Internal server error (request id req-500.json)');
      const xml = await request('text/xml', 'req-500.xml');
      expect([xml.status, await xml.text()]).toEqual([
        500,
        `${xmlHead}<result><error>Internal server error (request id req-500.xml)</error></result>`,
      ]);
    } finally {
      delegate.count = original;
    }
    for (const requestId of ['req-500.json', 'req-500.xml']) {
      const logged = lines.filter((line) => line.requestId === requestId && line.level === 50);
      expect(logged.map((line) => [line.msg, (line.err as { message: string }).message])).toEqual([
        ['unexpected error', 'connection string postgres://secret@db'],
      ]);
    }
    // Yoga's own report of the errors it masked is a readable line too, not an array dumped as {"0": ...}.
    for (const line of lines) expect([typeof line.msg, '0' in line]).toEqual(['string', false]);
    expect(lines).toContainEqual(
      expect.objectContaining({
        requestId: 'req-500.json',
        method: 'GET',
        path: '/v1/groups',
        status: 500,
        msg: 'request',
      }),
    );
    expect((await client.get('/groups')).status).toBe(200);
  });

  it('puts x-request-id on every response, keeping a well-formed one the client sent', async () => {
    const responses = [
      await server.fetch('/healthz'),
      await server.fetch('/nothing'),
      await server.fetch('/v1/groups'),
      await server.fetch('/v1/groups', { method: 'PATCH' }),
      await server.fetch('/v1/groups', { method: 'OPTIONS' }),
      await server.fetch('/graphql', { headers: { accept: 'text/html' } }),
      await server.fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query":"{ viewer { id } }"}',
      }),
      await signed('GET', `/v1/groups/${group.id}`),
    ];
    for (const response of responses) expect(response.headers.get('x-request-id')).toMatch(uuid);
    expect(
      (await server.fetch('/v1/groups', { headers: { 'x-request-id': 'proxy-id.42' } })).headers.get('x-request-id'),
    ).toBe('proxy-id.42');
    expect(
      (await server.fetch('/v1/groups', { headers: { 'x-request-id': 'bad id <script>' } })).headers.get(
        'x-request-id',
      ),
    ).toMatch(uuid);
    expect(
      (await server.fetch('/v1/groups', { headers: { 'x-request-id': 'x'.repeat(129) } })).headers.get('x-request-id'),
    ).toMatch(uuid);
  });
});

describe('body limit (1kb)', () => {
  const groupJson = (title: string, size: number) => {
    const shell = JSON.stringify({ title, description: '' });
    return JSON.stringify({ title, description: 'd'.repeat(size - shell.length) });
  };

  it('accepts a body of exactly the limit', async () => {
    const body = groupJson('Exactly at the limit', 1024);
    expect(body.length).toBe(1024);
    const response = await signed('POST', '/v1/groups', {
      headers: { 'content-type': 'application/json', 'content-length': '1024' },
      body,
    });
    expect(response.status).toBe(201);
    expect(await db().group.count({ where: { title: 'Exactly at the limit' } })).toBe(1);
  });

  it('answers 413 for a larger body, by Content-Length or while reading a chunked body', async () => {
    const body = groupJson('Over the limit', 1025);
    const declared = await signed('POST', '/v1/groups', {
      headers: { 'content-type': 'application/json', 'content-length': '1025' },
      body,
    });
    await expectJsonError(declared, 413, 'Request body exceeds the limit of 1024 bytes');
    const chunked = await signed('POST', '/v1/groups', {
      headers: { 'content-type': 'application/json' },
      body: streamOf(body),
    });
    await expectJsonError(chunked, 413, 'Request body exceeds the limit of 1024 bytes');
    const xml = await signed('PUT', `/v1/groups/${group.id}`, {
      headers: { 'content-type': 'text/xml', accept: 'text/xml' },
      body: streamOf(`<body><title>${'t'.repeat(2000)}</title></body>`),
    });
    expect([xml.status, await xml.text()]).toEqual([
      413,
      `${xmlHead}<result><error>Request body exceeds the limit of 1024 bytes</error></result>`,
    ]);
    expect(await db().group.count({ where: { title: 'Over the limit' } })).toBe(0);
    expect((await db().group.findUniqueOrThrow({ where: { id: group.id } })).title).toBe('Protocol <&> Group');
  });

  it('answers 413 on /graphql too, chunked bodies included', async () => {
    const query = JSON.stringify({ query: `{ viewer { id: databaseId } } # ${'x'.repeat(2000)}` });
    const declared = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(query.length) },
      body: query,
    });
    expect(declared.status).toBe(413);
    const chunked = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: streamOf(query),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as { errors: { message: string }[] }).errors[0].message).toBe(
      'Request body too large',
    );
  });
});

describe('health', () => {
  it('answers /healthz and /readyz when migrated', async () => {
    const health = await server.fetch('/healthz');
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await server.fetch('/readyz');
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);
  });

  it('answers /readyz with 503 when migrations are pending or the database fails', async () => {
    const database = server.database as { pendingMigrations: () => Promise<string[]> };
    const original = database.pendingMigrations;
    try {
      database.pendingMigrations = async () => ['0042_future'];
      const pending = await server.fetch('/readyz');
      expect([pending.status, await pending.json()]).toEqual([
        503,
        { status: 'migrations pending', pending: ['0042_future'] },
      ]);
      database.pendingMigrations = async () => {
        throw new Error('connection refused');
      };
      const down = await server.fetch('/readyz');
      expect([down.status, await down.json()]).toEqual([503, { status: 'database unreachable' }]);
    } finally {
      database.pendingMigrations = original;
    }
  });
});

import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressionThresholdBytes, negotiateEncoding } from '../../src/http/compression';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { type World, createGroup, createWorld } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';

const server = useTestServer();
let world: World;
let groupId: number;
let token: string;
let port: number;
let close: () => Promise<void>;

beforeAll(async () => {
  world = await createWorld();
  for (let index = 0; index < 30; index++) {
    const group = await createGroup(world.school.id, { admins: [world.teacher.id] });
    groupId ??= group.id;
  }
  ({ token } = await issueAccessToken({ userId: world.teacher.id }));
  const listening = await listenOnLoopback(server);
  port = listening.port;
  close = listening.close;
});
afterAll(() => close?.());

const decode = (body: Buffer, coding: string | null) =>
  coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body;

/** An answer as sent (its bytes) and its content once decoded. */
async function read(response: Response) {
  const sent = Buffer.from(await response.arrayBuffer());
  return { sent, content: decode(sent, response.headers.get('content-encoding')).toString('utf8') };
}

const introspection = (acceptEncoding?: string) =>
  server.fetch('/graphql', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
    },
    body: JSON.stringify({ query: getIntrospectionQuery() }),
  });

const v1Groups = (accept: string, headers: Record<string, string> = {}) =>
  server.fetch(`/v1/groups?school_id=${world.school.id}&limit=20`, {
    headers: { authorization: `Bearer ${token}`, accept, ...headers },
  });

const typeNames = `/graphql?query=${encodeURIComponent('{ __schema { types { name description } } }')}`;
const getTypeNames = (headers: Record<string, string> = {}) =>
  server.fetch(typeNames, { headers: { authorization: `Bearer ${token}`, ...headers } });

const varies = (response: Response) =>
  response.headers
    .get('vary')
    ?.toLowerCase()
    .split(/\s*,\s*/)
    .includes('accept-encoding');

describe('Accept-Encoding negotiation', () => {
  it.each([
    [null, 'identity', false],
    ['', 'identity', false],
    ['identity', 'identity', false],
    ['gzip', 'gzip', false],
    ['x-gzip', 'gzip', false],
    ['gzip, deflate, br, zstd', 'br', false],
    ['br;q=0.5, gzip', 'gzip', false],
    ['br;q=0, gzip', 'gzip', false],
    ['gzip;q=0.5, identity', 'identity', false],
    ['gzip;q=0.5, br;q=0.5', 'br', false],
    ['*', 'br', false],
    ['*;q=0.2, gzip;q=0.4', 'gzip', false],
    ['gzip, *;q=0', 'gzip', true],
    ['br, identity;q=0', 'br', true],
    ['deflate', 'identity', false],
    ['identity;q=0', 'identity', true],
  ] as const)('%j answers in %s (identity refused: %s)', (header, coding, identityRefused) => {
    expect(negotiateEncoding(header)).toEqual({ coding, identityRefused });
  });
});

describe('compressed answers', () => {
  it('GraphQL: the introspection GraphiQL asks for, in brotli or gzip as accepted, decoding to the same JSON', async () => {
    const plain = await introspection();
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(varies(plain)).toBe(true);
    const { content: json } = await read(plain);
    expect(JSON.parse(json).data.__schema.queryType.name).toBe('Query');
    const sizes: Record<string, number> = { identity: Buffer.byteLength(json) };
    for (const [acceptEncoding, coding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
    ]) {
      const response = await introspection(acceptEncoding);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toBe(coding);
      expect(varies(response)).toBe(true);
      const { sent, content } = await read(response);
      expect(response.headers.get('content-length')).toBe(String(sent.length));
      expect(content).toBe(json);
      sizes[coding] = sent.length;
    }
    expect(sizes.br).toBeLessThan(sizes.identity / 8);
    expect(sizes.gzip).toBeLessThan(sizes.identity / 5);
    console.info(`introspection answer: ${JSON.stringify(sizes)} bytes`);
    expect((await introspection('br;q=0, gzip;q=0')).headers.get('content-encoding')).toBeNull();
  });

  it('/v1: a list in JSON and in XML', async () => {
    for (const accept of ['application/json', 'application/xml']) {
      const plain = await v1Groups(accept);
      expect(plain.status).toBe(200);
      const { content: text } = await read(plain);
      expect(Buffer.byteLength(text)).toBeGreaterThan(compressionThresholdBytes);
      const compressed = await v1Groups(accept, { 'accept-encoding': 'br' });
      expect(compressed.headers.get('content-encoding')).toBe('br');
      expect(compressed.headers.get('content-type')).toBe(plain.headers.get('content-type'));
      expect(varies(compressed)).toBe(true);
      const { sent, content } = await read(compressed);
      expect(content).toBe(text);
      expect(sent.length).toBeLessThan(text.length / 3);
    }
  });

  it('leaves an answer under the threshold unencoded, unless identity is refused', async () => {
    const small = await server.fetch('/graphql?query=%7B__typename%7D', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(varies(small)).toBe(true);
    expect(await small.json()).toEqual({ data: { __typename: 'Query' } });
    const refused = await server.fetch('/graphql?query=%7B__typename%7D', {
      headers: { 'accept-encoding': 'gzip, identity;q=0' },
    });
    expect(refused.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse((await read(refused)).content)).toEqual({ data: { __typename: 'Query' } });
  });

  it('compresses error answers too, keeping their status', async () => {
    const response = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      body: JSON.stringify({ query: `{ ${Array.from({ length: 80 }, (_, index) => `f${index}: nope`).join(' ')} }` }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse((await read(response)).content).errors.length).toBeGreaterThanOrEqual(80);
  });

  it('leaves server-sent event streams alone', async () => {
    const response = await server.fetch('/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'accept-encoding': 'br, gzip',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({
        query: `subscription { realmEvents(realm: { type: GROUP, id: "${groupId}" }) { type } }`,
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    // Yoga marks the stream `Content-Encoding: none`, which proxies read as "do not compress".
    expect(response.headers.get('content-encoding')).not.toMatch(/br|gzip/);
    // Read as it streams: its first bytes are plain text, not a compressed frame.
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toMatch(/^:/);
    await reader.cancel();
  });
});

describe('entity tags of compressed answers', () => {
  it('differ between codings, and any of them revalidates to 304 naming the tag the client holds', async () => {
    const tags: Record<string, string> = {};
    for (const coding of ['identity', 'gzip', 'br']) {
      const response = await getTypeNames({ 'accept-encoding': coding });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding') ?? 'identity').toBe(coding);
      tags[coding] = response.headers.get('etag')!;
      await response.arrayBuffer();
    }
    expect(tags.identity).toMatch(/^"[\w-]{43}"$/);
    expect(tags).toEqual({
      identity: tags.identity,
      gzip: tags.identity.replace(/"$/, '-gzip"'),
      br: tags.identity.replace(/"$/, '-br"'),
    });
    for (const coding of ['identity', 'gzip', 'br']) {
      const revalidated = await getTypeNames({ 'accept-encoding': 'br, gzip', 'if-none-match': tags[coding] });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers.get('etag')).toBe(tags[coding]);
      expect(varies(revalidated)).toBe(true);
      expect(await revalidated.text()).toBe('');
    }
    expect((await getTypeNames({ 'accept-encoding': 'br', 'if-none-match': '"other-br"' })).status).toBe(200);
  });

  it('on /v1 too', async () => {
    const compressed = await v1Groups('application/json', { 'accept-encoding': 'gzip' });
    const etag = compressed.headers.get('etag')!;
    expect(etag).toMatch(/-gzip"$/);
    await compressed.arrayBuffer();
    const revalidated = await v1Groups('application/json', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('etag')).toBe(etag);
  });
});

describe('over HTTP', () => {
  /** A request through node:http, which neither asks for nor decodes a coding by itself. */
  const raw = (path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
      (resolve, reject) => {
        const request = httpRequest({ host: '127.0.0.1', port, path, headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
          );
        });
        request.on('error', reject);
        request.end();
      },
    );

  it('sends the compressed bytes with their Content-Length, for GraphQL and /v1', async () => {
    for (const path of [typeNames, `/v1/groups?school_id=${world.school.id}&limit=20`]) {
      const plain = await raw(path, { authorization: `Bearer ${token}` });
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      for (const coding of ['br', 'gzip']) {
        const response = await raw(path, { authorization: `Bearer ${token}`, 'accept-encoding': coding });
        expect(response.headers['content-encoding']).toBe(coding);
        expect(response.headers['content-length']).toBe(String(response.body.length));
        expect(decode(response.body, coding).equals(plain.body)).toBe(true);
      }
    }
  });
});

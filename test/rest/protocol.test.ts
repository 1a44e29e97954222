import { beforeAll, describe, expect, it } from 'vitest';
import { type RestClient, restClientFor } from '../support/client';
import { createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';
import { db } from '../../src/db/database';

const server = useTestServer({ BODY_LIMIT: '1kb' });
let world: Awaited<ReturnType<typeof createWorld>>;
let teacher: RestClient;

beforeAll(async () => {
  world = await createWorld();
  teacher = await restClientFor(server, world.teacher);
});

const show = async (label: string, r: Response) => console.log(label, r.status, JSON.stringify([...r.headers]), await r.text());

describe('probe', () => {
  it('probes', async () => {
    await show('options', await server.fetch('/v1/groups/5', { method: 'OPTIONS' }));
    await show('options-cors', await server.fetch('/v1/groups/5', { method: 'OPTIONS', headers: { origin: 'http://x', 'access-control-request-method': 'PUT' } }));
    await show('patch', await server.fetch('/v1/groups', { method: 'PATCH' }));
    await show('nf', await server.fetch('/v1/nothing'));
    await show('nf2', await server.fetch('/nothing'));
    await show('healthz', await server.fetch('/healthz'));
    await show('readyz', await server.fetch('/readyz'));
    await show('graphiql', await server.fetch('/graphql', { headers: { accept: 'text/html' } }));
    await show('gql-noauth', await server.fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ groups { total } }' }) }));
    await show('gql-badbearer', await server.fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer nope' }, body: JSON.stringify({ query: '{ groups { total } }' }) }));
    const big = 'x'.repeat(2000);
    const stream = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode(JSON.stringify({ query: '{ groups { total } }', pad: big }))); c.close(); } });
    await show('gql-chunked', await server.fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit));
    const r = await teacher.post('/groups', 'title=x', { contentType: 'application/x-www-form-urlencoded' });
    console.log('form', r.status, r.text);
    const orig = db().group.count;
    (db().group as any).count = async () => { throw new Error('kaboom secret'); };
    const e = await teacher.get('/groups', { headers: { 'x-request-id': 'req-123' } });
    console.log('500', e.status, [...e.headers], e.text);
    (db().group as any).count = orig;
    const ok = await teacher.get('/groups');
    console.log('after', ok.status);
  });
});

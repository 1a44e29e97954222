import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type RestClient, restClientFor } from '../support/client';
import { type World, createCalendarEvent, createGroup, createSection, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';
import { el, testOrigin, xmlHead } from '../support/wire';

// POST /v1/multiget: up to 50 GETs in one call, each answered as its own GET would be (docs/rest/multiget.md).

const server = useTestServer();
let w: World;
let teacher: RestClient;
let student: RestClient;
let sectionId: number;
let hiddenGroupId: number;

beforeAll(async () => {
  w = await createWorld();
  teacher = await restClientFor(server, w.teacher);
  student = await restClientFor(server, w.student);
  ({ id: sectionId } = await createSection(w.school.id, [
    { userId: w.teacher.id, admin: true },
    { userId: w.student.id },
  ]));
  // A private group of another school: its GET is a 404 to the student.
  ({ id: hiddenGroupId } = await createGroup(w.farSchool.id, { privacyLevel: 'GROUP', admins: [w.outsider.id] }));
  for (const day of [1, 2, 3]) {
    await createCalendarEvent({ type: 'SECTION', id: sectionId }, { start: new Date(Date.UTC(2026, 4, day, 9)) });
  }
});

/** The body a JSON GET answers with, as the multiget item must carry it. */
async function directGet(client: RestClient, path: string) {
  const response = await client.get(path.replace(/^\/v1/, ''));
  return { response_code: response.status, body: response.text ? JSON.parse(response.text) : null };
}

const multiget = (client: RestClient, body: unknown, accept: 'json' | 'xml' = 'json') =>
  client.post('/multiget', body, { accept });

describe('POST /v1/multiget in JSON', () => {
  it('answers each path in order as its GET does: 200, 403, 404 and a path a multiget may not name', async () => {
    const paths = [
      `/v1/users/${w.student.id}`,
      `/v1/sections/${sectionId}/grades`,
      `/v1/groups/${hiddenGroupId}`,
      `/v1/users/${w.student.id}/discussions_nowhere`,
      '/v1/users/me',
      `/v1/sections/${sectionId}/events?start_date=2026-05-01&end_date=2026-05-31`,
    ];
    const response = await multiget(student, { request: paths });
    expect(response.status).toBe(207);
    const items = response.json.response;
    expect(items.map((item: { location: string }) => item.location)).toEqual(paths);
    expect(items.map((item: { response_code: number }) => item.response_code)).toEqual([200, 403, 404, 400, 400, 200]);
    // Paths the platform allows are answered exactly as their own GETs; the others name why they were refused.
    for (const index of [0, 1, 2, 5])
      expect(items[index]).toEqual({ location: paths[index], ...(await directGet(student, paths[index])) });
    expect(items[3].body).toEqual({
      error: `GET /v1/users/${w.student.id}/discussions_nowhere cannot be part of a multiget`,
    });
    expect(items[4].body).toEqual({ error: 'GET /v1/users/me cannot be part of a multiget' });
    expect(items[5].body.event).toHaveLength(3);
  });

  it('reads the paths with or without /v1, relative, with a trailing slash, or as an absolute link', async () => {
    const user = `users/${w.teacher.id}`;
    const paths = [
      `/v1/${user}`,
      `/${user}`,
      user,
      `/v1/${user}/`,
      `${testOrigin}/v1/${user}`,
      `https://elsewhere.test/v1/${user}`,
    ];
    const response = await multiget(teacher, { request: paths });
    const expected = await directGet(teacher, `/${user}`);
    expect(expected.response_code).toBe(200);
    expect(response.json.response).toEqual(paths.map((location) => ({ location, ...expected })));
  });

  it('pages a list by the query string each path carries, with links to the next page', async () => {
    const path = `/v1/sections/${sectionId}/events?start_date=2026-05-01&end_date=2026-05-31&start=1&limit=1`;
    const response = await multiget(teacher, { request: [path] });
    const [item] = response.json.response;
    expect(item).toEqual({ location: path, ...(await directGet(teacher, path)) });
    expect(item.body.event).toHaveLength(1);
    expect(item.body.total).toBe(3);
    expect(item.body.links.self).toBe(
      `${testOrigin}/v1/sections/${sectionId}/events?start_date=2026-05-01&end_date=2026-05-31&start=1&limit=1`,
    );
    expect(item.body.links.next).toBe(
      `${testOrigin}/v1/sections/${sectionId}/events?start_date=2026-05-01&end_date=2026-05-31&start=2&limit=1`,
    );
    // A bad paging parameter is that path's 400, as it is its GET's.
    const bad = await multiget(teacher, {
      request: [`/v1/sections/${sectionId}/events?limit=0`, `/v1/users/${w.teacher.id}`],
    });
    expect(bad.json.response.map((entry: { response_code: number }) => entry.response_code)).toEqual([400, 200]);
    expect(bad.json.response[0].body).toMatchObject({ issues: [{ field: 'limit', message: 'invalid' }] });
  });

  it('refuses a path that is not one, each on its own', async () => {
    const request = [42, '', '//elsewhere.test/v1/users/1', '/v1/multiget', `/v1/users/${w.teacher.id}`];
    const response = await multiget(teacher, { request });
    expect(response.status).toBe(207);
    expect(
      response.json.response.map((item: { location: string; response_code: number }) => [
        item.location,
        item.response_code,
      ]),
    ).toEqual([
      ['42', 400],
      ['', 400],
      ['//elsewhere.test/v1/users/1', 400],
      ['/v1/multiget', 400],
      [`/v1/users/${w.teacher.id}`, 200],
    ]);
  });

  it('takes one path sent as a string, 50 paths, but not 51 or none', async () => {
    const one = await multiget(teacher, { request: `/v1/users/${w.teacher.id}` });
    expect(one.json.response).toEqual([
      { location: `/v1/users/${w.teacher.id}`, ...(await directGet(teacher, `/users/${w.teacher.id}`)) },
    ]);

    const fifty = await multiget(teacher, { request: Array.from({ length: 50 }, () => `/v1/users/${w.teacher.id}`) });
    expect(fifty.status).toBe(207);
    expect(fifty.json.response).toHaveLength(50);
    expect(new Set(fifty.json.response.map((item: { response_code: number }) => item.response_code))).toEqual(
      new Set([200]),
    );

    const fiftyOne = await multiget(teacher, {
      request: Array.from({ length: 51 }, () => `/v1/users/${w.teacher.id}`),
    });
    expect(fiftyOne.status).toBe(400);
    expect(fiftyOne.json).toEqual({
      error: 'request: lists 51 paths; a multiget takes at most 50',
      issues: [{ field: 'request', message: 'lists 51 paths; a multiget takes at most 50' }],
    });
    for (const body of [{}, { request: [] }, { request: { path: '/v1/users/1' } }]) {
      const refused = await multiget(teacher, body);
      expect(refused.status).toBe(400);
      expect(refused.json.issues).toEqual([
        { field: 'request', message: 'must list the paths to GET, such as ["/v1/users/5"]' },
      ]);
    }
  });

  it('is one call under one credential: a bad signature is 401 for the whole call, and a replay too', async () => {
    const url = `${testOrigin}/v1/multiget`;
    const body = JSON.stringify({ request: [`/v1/users/${w.teacher.id}`, `/v1/users/${w.student.id}`] });
    const headers = { authorization: teacher.authorization('POST', url), 'content-type': 'application/json' };
    const first = await server.app.fetch(new Request(url, { method: 'POST', headers, body }));
    expect(first.status).toBe(207);
    // Its nonce was recorded once, by the first path, and not refused as a replay by the second.
    expect(((await first.json()) as any).response.map((item: any) => item.response_code)).toEqual([200, 200]);

    const replay = await server.app.fetch(new Request(url, { method: 'POST', headers, body }));
    expect(replay.status).toBe(401);
    expect(replay.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await replay.text()).toMatch(/replay/);

    const forged = headers.authorization.replace(/oauth_signature="[^"]+"/, 'oauth_signature="forged"');
    const bad = await server.app.fetch(
      new Request(url, { method: 'POST', headers: { ...headers, authorization: forged }, body }),
    );
    expect(bad.status).toBe(401);
    expect(await bad.text()).toBe('Invalid OAuth signature');

    const anonymous = await server.fetch('/v1/multiget', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(anonymous.status).toBe(401);
  });

  it('ignores an Idempotency-Key: a multiget only reads', async () => {
    const request = [`/v1/users/${w.teacher.id}`, `/v1/users/${w.student.id}`];
    const headers = { 'idempotency-key': 'multiget-key-1' };
    for (const paths of [request, [...request].reverse()]) {
      const response = await teacher.post('/multiget', { request: paths }, { headers });
      expect(response.status).toBe(207);
      expect(response.json.response.map((item: any) => item.body.id)).toEqual(
        paths.map((path) => Number(path.split('/').pop())),
      );
    }
  });

  it('answers GET with 405 and Allow: POST, and OPTIONS with Allow', async () => {
    const get = await teacher.get('/multiget');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    expect(get.json).toEqual({ error: 'GET is not allowed here' });
    for (const method of ['PUT', 'DELETE']) expect((await teacher.request(method, '/multiget')).status).toBe(405);
    const options = await server.fetch('/v1/multiget', { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('refuses a form body with 415 and a malformed one with 400', async () => {
    const form = await teacher.post('/multiget', 'request=%2Fv1%2Fusers%2F1', {
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
    const malformed = await teacher.post('/multiget', '{"request": [', { contentType: 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error).toMatch(/^Malformed JSON body/);
  });
});

describe('POST /v1/multiget in XML', () => {
  /** The content of an XML answer's `<result>`. */
  const inner = (xml: string) =>
    xml
      .replace(xmlHead, '')
      .replace(/^<result>/, '')
      .replace(/<\/result>$/, '');

  it('reads <requests><request> and nests each GET answer under <response><body>', async () => {
    const user = `/v1/users/${w.teacher.id}`;
    const missing = `/v1/groups/${hiddenGroupId}`;
    const body = `<?xml version="1.0" encoding="utf-8" ?><requests><request>${user}</request><request>${missing}</request><request>/v1/users/me</request></requests>`;
    const response = await multiget(student, body, 'xml');
    expect(response.status).toBe(207);
    expect(response.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    const userXml = await student.get(user.slice(3), { accept: 'xml' });
    const missingXml = await student.get(missing.slice(3), { accept: 'xml' });
    expect(missingXml.status).toBe(404);
    expect(response.text).toBe(
      `${xmlHead}<result>` +
        `<response>${el('location', user)}${el('response_code', 200)}<body>${inner(userXml.text)}</body></response>` +
        `<response>${el('location', missing)}${el('response_code', 404)}<body>${inner(missingXml.text)}</body></response>` +
        `<response>${el('location', '/v1/users/me')}${el('response_code', 400)}<body>${el('error', 'GET /v1/users/me cannot be part of a multiget')}</body></response>` +
        '</result>',
    );
  });

  it('reads a single <request> as a list of one, and its query string escaped', async () => {
    const path = `/v1/sections/${sectionId}/events?start_date=2026-05-01&end_date=2026-05-31&limit=1`;
    const body = `<requests><request>${path.replaceAll('&', '&amp;')}</request></requests>`;
    const response = await multiget(teacher, body);
    expect(response.json.response).toEqual([{ location: path, ...(await directGet(teacher, path)) }]);
    expect(response.json.response[0].body.event).toHaveLength(1);
  });
});

describe('POST /v1/multiget fuzzed', () => {
  const segment = fc.oneof(
    fc.constantFrom('users', 'groups', 'sections', 'events', 'ext', 'v1', '..', '%2F', 'me'),
    fc.nat({ max: 10_000_000 }).map(String),
    fc.string({ maxLength: 6 }),
  );
  const path = fc.oneof(
    fc.array(segment, { minLength: 1, maxLength: 5 }).map((segments) => `/v1/${segments.join('/')}`),
    fc.constantFrom(`/v1/users/{teacher}`, '/v1/sections/{section}/events?limit=2', '/v1/groups/{group}'),
    fc.string({ maxLength: 40 }),
  );

  it('answers every list of paths in order with a status per path, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(path, { minLength: 1, maxLength: 12 }), async (templates) => {
        const request = templates.map((template) =>
          template
            .replace('{teacher}', String(w.teacher.id))
            .replace('{section}', String(sectionId))
            .replace('{group}', String(hiddenGroupId)),
        );
        const response = await multiget(teacher, { request });
        expect(response.status).toBe(207);
        expect(response.json.response.map((item: { location: string }) => item.location)).toEqual(request);
        for (const item of response.json.response) expect(item.response_code).toBeLessThan(500);
      }),
      { seed: 41, numRuns: 25 },
    );
  });
});

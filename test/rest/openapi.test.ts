import { gunzipSync } from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { type OpenApiDocument, type OpenApiOperation, openApiDocument } from '../../src/rest/openapi';
import type { RestRoute } from '../../src/rest/route';
import { realmPrefixes } from '../../src/rest/router';
import { restRoutes } from '../../src/rest/routes';
import { testOrigin, useTestServer } from '../support/harness';

// GET /v1/openapi.json (generated from the route table) and the offline reference at /v1/docs.

const server = useTestServer();
let document: OpenApiDocument;

beforeAll(async () => {
  const response = await server.fetch('/v1/openapi.json');
  expect(response.status).toBe(200);
  document = await response.json();
});

type Method = 'get' | 'post' | 'put' | 'delete';

/** The concrete paths a route should appear under, worked out here independently of the generator. */
function expectedPaths(route: RestRoute): string[] {
  // A word segment (`{realm:word}`) is a plain path parameter to OpenAPI.
  const path = route.path.replaceAll(':word}', '}');
  if (!path.includes('[realm]')) return [path];
  return Object.entries(realmPrefixes)
    .filter(([, type]) => !route.realms || route.realms.includes(type))
    .map(([prefix]) => path.replace('[realm]', `${prefix}/{${prefix.slice(0, -1)}_id}`));
}

const operation = (path: string, method: Method): OpenApiOperation => {
  const found = document.paths[path]?.[method];
  if (!found) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
  return found;
};

/** Follows a local `$ref` (`#/components/...`). */
function resolve<T>(node: T | { $ref: string }): T {
  if (typeof node !== 'object' || node === null || !('$ref' in node)) return node;
  const target = node.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<any>((value, key) => value?.[key], document);
  if (target === undefined) throw new Error(`Unresolved ${node.$ref}`);
  return resolve(target);
}

const allOperations = () =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([key]) => key !== 'servers')
      .map(([method, found]) => ({ path, method, operation: found as OpenApiOperation })),
  );

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, served without credentials', async () => {
    const result = await new Validator().validate(structuredClone(document) as unknown as Record<string, unknown>);
    if (!result.valid) console.error(JSON.stringify(result.errors, null, 2));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe('Lectern /v1 REST API');
    expect(document.info.description).toMatch(/links\.next/);

    // Public even to a request with a bad credential: the document runs no GraphQL operation, so nothing checks it.
    const signedBadly = await server.fetch('/v1/openapi.json', {
      headers: { authorization: 'OAuth oauth_consumer_key="nobody"' },
    });
    expect(signedBadly.status).toBe(200);
    expect(signedBadly.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('has every route of the table, a [realm] route once per allowed realm, with unique operation ids', () => {
    let expected = 0;
    for (const route of restRoutes) {
      for (const path of expectedPaths(route)) {
        expected += 1;
        expect(operation(path, route.method.toLowerCase() as Method).summary).toBe(route.summary);
      }
    }
    // And POST /multiget, which runs the other routes rather than an operation of its own, and GET and POST of the two
    // three-legged OAuth token steps and of the authorize page between them (src/auth/oauth1-endpoints.ts), and the
    // OAuth 2.0 authorize, token, revoke and two discovery endpoints (src/oauth2/openapi.ts).
    expected += 1 + 6 + 5;
    const operations = allOperations();
    expect(operations).toHaveLength(expected);
    expect(expected).toBeGreaterThan(restRoutes.length);
    expect(new Set(operations.map(({ operation: found }) => found.operationId)).size).toBe(expected);

    const postLists = Object.keys(document.paths).filter((path) => /^\/\w+\/\{\w+_id\}\/posts$/.test(path));
    expect(postLists.sort()).toEqual([
      '/districts/{district_id}/posts',
      '/groups/{group_id}/posts',
      '/schools/{school_id}/posts',
      '/sections/{section_id}/posts',
      '/users/{user_id}/posts',
    ]);
    const view = operation('/groups/{group_id}/posts/{id}', 'get');
    expect(view.operationId).toBe('get_groups_group_id_posts_id');
    expect(view.tags).toEqual(['posts']);
    expect(view.parameters?.map((parameter) => resolve(parameter))).toEqual([
      expect.objectContaining({
        name: 'group_id',
        in: 'path',
        required: true,
        schema: { type: 'string', pattern: '^[0-9]+$' },
      }),
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
    ]);
  });

  it('expands [realm] only into the realms a route allows', () => {
    const postList = restRoutes.find((route) => route.method === 'GET' && route.path === '/[realm]/posts')!;
    const generated = openApiDocument([{ ...postList, realms: ['GROUP', 'SECTION'] }], { serverUrl: 'http://x/v1' });
    // The facade serves POST /multiget whatever its routes.
    expect(Object.keys(generated.paths)).toEqual([
      '/sections/{section_id}/posts',
      '/groups/{group_id}/posts',
      '/multiget',
      '/oauth/request_token',
      '/oauth/authorize',
      '/oauth/access_token',
      '/oauth2/authorize',
      '/oauth2/token',
      '/oauth2/revoke',
      '/.well-known/openid-configuration',
      '/.well-known/oauth-authorization-server',
    ]);
  });

  it('documents paging and filters as query parameters', () => {
    const parameters = operation('/groups', 'get').parameters!.map((parameter) => resolve(parameter));
    expect(parameters).toEqual([
      expect.objectContaining({ name: 'building_id', in: 'query', required: false }),
      expect.objectContaining({
        name: 'start',
        in: 'query',
        schema: expect.objectContaining({ type: 'integer', minimum: 0, default: 0 }),
      }),
      expect.objectContaining({
        name: 'limit',
        in: 'query',
        schema: expect.objectContaining({ type: 'integer', minimum: 1, maximum: 200, default: 20 }),
      }),
    ]);
    for (const route of restRoutes) {
      for (const path of expectedPaths(route)) {
        const parameters = operation(path, route.method.toLowerCase() as Method).parameters ?? [];
        const names = parameters.map((parameter) => (resolve(parameter) as { name: string }).name);
        expect(names.includes('start') && names.includes('limit'), `${route.method} ${path}`).toBe(
          route.paged === true,
        );
      }
    }
    // A word segment is a path parameter with the values it takes.
    const invites = operation('/users/{userId}/invites/{realm}', 'get').parameters!.map((parameter) =>
      resolve(parameter),
    );
    expect(invites).toEqual([
      expect.objectContaining({ name: 'userId', in: 'path', schema: expect.objectContaining({ pattern: '^[0-9]+$' }) }),
      expect.objectContaining({
        name: 'realm',
        in: 'path',
        schema: { type: 'string', enum: ['groups', 'group', 'sections', 'section'] },
      }),
      expect.objectContaining({ name: 'created_offset', in: 'query', required: false }),
      expect.objectContaining({ name: 'start', in: 'query' }),
      expect.objectContaining({ name: 'limit', in: 'query' }),
    ]);
    const envelope = resolve(operation('/groups', 'get').responses['200']) as any;
    expect(envelope.content['application/json'].schema.properties.group.items).toEqual({
      $ref: '#/components/schemas/Group',
    });
    expect(envelope.content['application/json'].schema.required).toEqual(['group', 'total', 'links']);
  });

  it('documents request bodies and answers in JSON and XML, named schemas as components', () => {
    const create = operation('/groups', 'post');
    const body = create.requestBody as any;
    expect(Object.keys(body.content)).toEqual(['application/json', 'text/xml']);
    expect(body.content['application/json'].schema.required).toEqual(['title']);
    expect(body.content['text/xml'].schema.properties).toEqual(body.content['application/json'].schema.properties);
    expect(body.description).toMatch(/any root element/);
    const created = resolve(create.responses['201']) as any;
    expect(created.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Group' });
    expect(created.content['text/xml'].schema).toEqual({ $ref: '#/components/schemas/Group', xml: { name: 'result' } });
    expect(document.components.schemas.Group).toMatchObject({ type: 'object', description: expect.any(String) });
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['School', 'Group', 'GroupCategory', 'BlogPost', 'User', 'Error']),
    );
    // Named schemas are referenced, never repeated inline.
    expect(JSON.stringify(document.paths)).not.toContain('"privacy_level":{"type":"string","enum"');

    expect(resolve(operation('/groups/{id}', 'put').responses['204'])).toEqual({ description: expect.any(String) });
    expect(resolve(operation('/users/me', 'get').responses['303'])).toMatchObject({
      headers: { Location: expect.any(Object) },
    });
    expect((resolve(operation('/groups/{id}', 'put').responses['204']) as any).content).toBeUndefined();
  });

  it('answers errors with the Error schema, 401 in plain text and 429 with Retry-After', () => {
    expect(document.components.schemas.Error).toMatchObject({
      required: ['error'],
      properties: { error: { type: 'string' }, issues: { type: 'array' } },
    });
    // The authorize page answers people in browsers with HTML pages, not API errors (its own test below).
    // Nor are the OAuth 2.0 endpoints, which answer as RFC 6749 says (their own test below).
    for (const { path, method, operation: found } of allOperations().filter(
      ({ path }) => path !== '/oauth/authorize' && !path.startsWith('/oauth2/') && !path.startsWith('/.well-known/'),
    )) {
      const statuses = Object.keys(found.responses);
      // A multiget's paths are refused one by one, in its 207: the call itself is never 403.
      // Nor are the OAuth token steps, which answer before any permission applies.
      const refusable =
        path === '/multiget' || path.startsWith('/oauth/') ? ['401', '429', '500'] : ['401', '403', '429', '500'];
      expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(refusable));
      // A raw upload takes bytes of any type, so it has no 415.
      const raw = found.requestBody && 'application/octet-stream' in (found.requestBody as any).content;
      if (found.requestBody)
        expect(statuses).toEqual(expect.arrayContaining(raw ? ['400', '413'] : ['400', '413', '415']));
      for (const status of statuses.filter((code) => Number(code) >= 400)) {
        const response = resolve(found.responses[status]) as any;
        if (status === '401') {
          expect(Object.keys(response.content)).toEqual(['text/plain']);
          continue;
        }
        expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
        expect(response.content['text/xml'].schema).toMatchObject({ $ref: '#/components/schemas/Error' });
      }
    }
    expect(resolve(operation('/groups', 'get').responses['429'])).toMatchObject({
      headers: { 'Retry-After': expect.any(Object) },
    });
  });

  it('describes the OAuth 2.0 endpoints on the server root, where they are served', async () => {
    const origin = new URL(document.servers[0]!.url).origin;
    for (const [path, method] of [
      ['/oauth2/authorize', 'get'],
      ['/oauth2/token', 'post'],
      ['/oauth2/revoke', 'post'],
      ['/.well-known/openid-configuration', 'get'],
      ['/.well-known/oauth-authorization-server', 'get'],
    ] as const) {
      expect(document.paths[path]!.servers).toEqual([expect.objectContaining({ url: origin })]);
      expect(operation(path, method).tags).toEqual(['oauth2']);
    }
    const parameters = operation('/oauth2/authorize', 'get').parameters!.map((parameter: any) => parameter.name);
    expect(parameters).toEqual(expect.arrayContaining(['client_id', 'redirect_uri', 'code_challenge', 'state']));
    const token = (operation('/oauth2/token', 'post').requestBody as any).content['application/x-www-form-urlencoded'];
    expect(token.schema.properties.grant_type.enum).toEqual(['authorization_code', 'refresh_token']);
  });

  it('describes the authorize page as HTML for people, with the form its consent page posts', () => {
    for (const method of ['get', 'post'] as const) {
      const page = operation('/oauth/authorize', method);
      expect(page.tags).toEqual(['oauth']);
      for (const status of ['200', '400', '404'])
        expect(Object.keys((page.responses[status] as any).content)).toEqual(['text/html']);
    }
    const form = (operation('/oauth/authorize', 'post').requestBody as any).content[
      'application/x-www-form-urlencoded'
    ];
    expect(form.schema.required).toEqual(['oauth_token', 'decision', 'csrf']);
  });

  it('describes POST /multiget: its paths in JSON and XML, and the 207 that answers each', () => {
    const multiget = operation('/multiget', 'post');
    expect(multiget).toMatchObject({ operationId: 'post_multiget', tags: ['multiget'] });
    expect(multiget.description).toContain('`/users/{id}/sections`');
    const body = multiget.requestBody as any;
    expect(resolve(body.content['application/json'].schema)).toMatchObject({
      type: 'object',
      properties: { request: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 50 } },
      required: ['request'],
    });
    expect(body.content['text/xml'].schema.xml).toEqual({ name: 'requests' });
    const answer = resolve(multiget.responses['207']) as any;
    expect((resolve(answer.content['application/json'].schema) as any).properties.response.items).toMatchObject({
      properties: { location: { type: 'string' }, response_code: { type: 'integer' } },
      required: ['location', 'response_code', 'body'],
    });
    expect(answer.content['text/xml'].schema.xml).toEqual({ name: 'result' });
    expect(Object.keys(multiget.responses).sort()).toEqual(['207', '400', '401', '413', '415', '429', '500']);
  });

  it('describes OAuth 1.0a and bearer tokens, required globally', () => {
    expect(document.components.securitySchemes.oauth1).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
    });
    expect(document.components.securitySchemes.oauth1.description).toMatch(
      /HMAC-SHA1[\s\S]*PLAINTEXT[\s\S]*not\*\* signed/,
    );
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ oauth1: [] }, { bearer: [] }]);
  });

  it('names the server from the request origin, or from PUBLIC_URL', async () => {
    expect(document.servers).toEqual([{ url: `${testOrigin}/v1` }]);
    const behindProxy = createApp({
      config: { ...server.config, publicUrl: new URL('https://lectern.example.org/school-api/') },
      database: server.database,
      serverKey: server.serverKey,
    });
    const proxied = await (await behindProxy.fetch(new Request(`${testOrigin}/v1/openapi.json`))).json();
    expect(proxied.servers).toEqual([{ url: 'https://lectern.example.org/school-api/v1' }]);
    const page = await (await behindProxy.fetch(new Request(`${testOrigin}/v1/docs`))).text();
    expect(page).toContain('src="/school-api/v1/docs/scalar.js');
  });

  it('answers HEAD and OPTIONS, and 405 with Allow to other methods', async () => {
    const head = await server.fetch('/v1/openapi.json', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await head.text()).toBe('');
    for (const path of ['/v1/openapi.json', '/v1/docs', '/v1/docs/scalar.js']) {
      const options = await server.fetch(path, { method: 'OPTIONS' });
      expect(options.status, path).toBe(204);
      expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      const post = await server.fetch(path, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(post.status, path).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(await post.json()).toEqual({ error: 'POST is not allowed here' });
    }
    // A browser's preflight from another origin keeps the CORS headers.
    const preflight = await server.fetch('/v1/openapi.json', {
      method: 'OPTIONS',
      headers: { origin: 'http://tools.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://tools.example');
    // The facade's own paths keep their answers.
    expect((await server.fetch('/v1/groups', { method: 'OPTIONS' })).headers.get('allow')).toBe('GET, POST, OPTIONS');
  });
});

describe('GET /v1/docs', () => {
  it('renders the document with Scalar served by this server, reaching no other host', async () => {
    const response = await server.fetch('/v1/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'/);
    const html = await response.text();
    expect(html).toContain('<script src="/v1/docs/scalar.js?v=');
    expect(html).toContain('&quot;url&quot;:&quot;/v1/openapi.json&quot;');
    expect(html).toContain('&quot;withDefaultFonts&quot;:false');
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script>/);
    expect((await server.fetch('/v1/docs/')).status).toBe(200);
  });

  it('serves the Scalar bundle as long-cached JavaScript, gzipped on request', async () => {
    const plain = await server.fetch('/v1/docs/scalar.js?v=1');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('cache-control')).toMatch(/max-age=31536000/);
    const script = Buffer.from(await plain.arrayBuffer());
    expect(script.length).toBeGreaterThan(1_000_000);
    expect(script.toString('utf8', 0, 2000)).toMatch(/^\(function\(\)/);

    const compressed = await server.fetch('/v1/docs/scalar.js', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(compressed.headers.get('content-encoding')).toBe('gzip');
    const gzipped = Buffer.from(await compressed.arrayBuffer());
    expect(gzipped.length).toBeLessThan(script.length / 2);
    expect(gunzipSync(gzipped).equals(script)).toBe(true);
  });
});

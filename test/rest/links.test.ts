import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { type World, createWorld } from '../support/factories';
import { listenOnLoopback, testOrigin, useTestServer } from '../support/harness';

// links.self, links.next, Location and the OpenAPI servers URL come from PUBLIC_URL, a host ALLOWED_HOSTS lists (the
// harness lists lectern.test), or the address the server listens on: never from a Host header nobody vouched for.

const server = useTestServer();
let world: World;
let authorization: string;

beforeAll(async () => {
  world = await createWorld();
  authorization = `Bearer ${(await issueAccessToken({ userId: world.districtAdmin.id })).token}`;
});

/** Every absolute URL in a response: its Location and the links in its body. */
async function urlsIn(response: Response): Promise<string[]> {
  const location = response.headers.get('location');
  return [...(location ? [location] : []), ...((await response.text()).match(/https?:\/\/[^"<]+/g) ?? [])];
}

const get = (path: string, host?: string) =>
  server.fetch(path, { headers: { authorization, accept: 'application/json', ...(host ? { host } : {}) } });

describe('links for a request handed to app.fetch', () => {
  const listening = () => `http://${server.config.host}:${server.config.port}`;

  /**
   * Every URL of the response is on `origin`, among them the ones `expected` names: under /v1, or the origin itself
   * (the server of the OAuth 2.0 endpoints the OpenAPI document describes at the root).
   */
  async function expectLinksOn(response: Response, origin: string, expected: string[]) {
    const urls = await urlsIn(response);
    expect(urls).toEqual(expect.arrayContaining(expected.map((path) => `${origin}/v1${path}`)));
    expect(urls.filter((url) => url !== origin && !url.startsWith(`${origin}/v1`))).toEqual([]);
  }

  it.each([
    ['Location of /users/me', '/users/me', () => [`/users/${world.districtAdmin.id}`]],
    ['links.self', '/schools/{school}', () => [`/schools/${world.school.id}`]],
    ['links.self and links.next', '/schools?limit=1', () => ['/schools?limit=1&start=0', '/schools?limit=1&start=1']],
    ['the OpenAPI servers URL', '/openapi.json', () => ['']],
  ])(
    '%s: on the listening address for Host: evil.example, on the allowed host for Host: lectern.test',
    async (_, path, expected) => {
      const resolved = `/v1${path.replace('{school}', String(world.school.id))}`;
      await expectLinksOn(await get(resolved, 'evil.example'), listening(), expected());
      await expectLinksOn(await get(resolved, 'LECTERN.test'), testOrigin, expected());
      await expectLinksOn(await get(resolved), testOrigin, expected());
    },
  );

  it('uses PUBLIC_URL whatever the Host', async () => {
    const behindProxy = createApp({
      config: { ...server.config, publicUrl: new URL('https://lectern.example.org/') },
      database: server.database,
      serverKey: server.serverKey,
    });
    for (const host of ['evil.example', 'lectern.test']) {
      const response = await behindProxy.fetch(
        new Request(`${testOrigin}/v1/users/me`, { headers: { authorization, host } }),
      );
      expect(response.headers.get('location')).toBe(`https://lectern.example.org/v1/users/${world.districtAdmin.id}`);
    }
  });
});

describe('links on a listening server', () => {
  let port: number;
  let close: () => Promise<void>;

  beforeAll(async () => ({ port, close } = await listenOnLoopback(server)));
  afterAll(() => close?.());

  /** Through node:http, which sends the Host header it is given (fetch would put the URL's). */
  const locationFor = (host: string) =>
    new Promise<string | undefined>((resolve, reject) => {
      const outgoing = httpRequest(
        { host: '127.0.0.1', port, path: '/v1/users/me', headers: { host, authorization } },
        (response) => {
          response.resume();
          resolve(response.headers.location);
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });

  it('answers Host: evil.example with the address the connection came in on, and an allowed host with itself', async () => {
    expect(await locationFor('evil.example')).toBe(`http://127.0.0.1:${port}/v1/users/${world.districtAdmin.id}`);
    expect(await locationFor('evil.example:4000')).toBe(`http://127.0.0.1:${port}/v1/users/${world.districtAdmin.id}`);
    expect(await locationFor('lectern.test')).toBe(`${testOrigin}/v1/users/${world.districtAdmin.id}`);
  });
});

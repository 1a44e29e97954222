import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OAuth from 'oauth-1.0a';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { signedUrls } from '../../src/auth/authenticate';
import { createLogger } from '../../src/http/logging';
import { issueApiClient } from '../../src/modules/access/access.service';
import { createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';
import { type ServerProcess, startServerProcess, waitUntilReady } from '../support/process';

// Which URL a signature is checked against: PUBLIC_URL's form first, then the URL the Host header names, as
// requests-oauthlib (schoolopy) signs it when it sends `Host: api.schoology.com`.

const publicUrl = 'https://lectern.example.org/';
const server = useTestServer({ PUBLIC_URL: publicUrl });
let world: Awaited<ReturnType<typeof createWorld>>;
let credential: { key: string; secret: string };

interface SignOptions {
  nonce?: string;
  timestamp?: number;
  /** Another consumer than the test's API client. */
  consumer?: { key: string; secret: string };
}

/** A two-legged HMAC-SHA1 header from the oauth-1.0a library, over `url` as the client saw it. */
function signed(method: string, url: string, options: SignOptions = {}): string {
  const oauth = new OAuth({
    consumer: options.consumer ?? credential,
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
    realm: 'Schoology API',
  });
  // A chosen nonce and timestamp, for replays.
  if (options.nonce !== undefined) oauth.getNonce = () => options.nonce!;
  if (options.timestamp !== undefined) oauth.getTimeStamp = () => options.timestamp!;
  return oauth.toHeader(oauth.authorize({ method, url }, { key: '', secret: '' })).Authorization;
}

beforeAll(async () => {
  world = await createWorld();
  const issued = await issueApiClient(server.serverKey, { userId: world.teacher.id });
  credential = { key: issued.consumerKey, secret: issued.consumerSecret };
});

describe('signedUrls', () => {
  const at = (url: string, host?: string) => new Request(url, host ? { headers: { host } } : {});

  it("puts PUBLIC_URL first, then the Host header form in the request's scheme and PUBLIC_URL's, without repeats", () => {
    expect([
      ...signedUrls(
        at('http://10.0.0.7:4000/v1/groups?start=0&limit=5', 'api.schoology.com'),
        new URL('https://lectern.example.org/api/'),
      ),
    ]).toEqual([
      'https://lectern.example.org/api/v1/groups?start=0&limit=5',
      'http://api.schoology.com/v1/groups?start=0&limit=5',
      'https://api.schoology.com/v1/groups?start=0&limit=5',
    ]);
    // The Host header names PUBLIC_URL's host: its https form is the first candidate already.
    expect([
      ...signedUrls(at('http://10.0.0.7:4000/v1/users/me', 'Lectern.Example.org:443'), new URL(publicUrl)),
    ]).toEqual(['https://lectern.example.org/v1/users/me', 'http://lectern.example.org:443/v1/users/me']);
  });

  it('without PUBLIC_URL: the request URL, and the Host header form when it differs', () => {
    expect([...signedUrls(at('http://127.0.0.1:4000/v1/users/me'), null)]).toEqual([
      'http://127.0.0.1:4000/v1/users/me',
    ]);
    expect([...signedUrls(at('http://127.0.0.1:4000/v1/users/me', '127.0.0.1:4000'), null)]).toEqual([
      'http://127.0.0.1:4000/v1/users/me',
    ]);
    expect([...signedUrls(at('http://127.0.0.1:4000/v1/users/me', 'api.schoology.com'), null)]).toEqual([
      'http://127.0.0.1:4000/v1/users/me',
      'http://api.schoology.com/v1/users/me',
    ]);
  });

  it('ignores a Host header that names no host', () => {
    for (const host of ['evil.example/v1/x?', 'user@evil.example', 'a b', '[1:2:3]', 'example.org:99999']) {
      expect([...signedUrls(at('http://127.0.0.1:4000/v1/users/me', host), new URL(publicUrl))]).toEqual([
        'https://lectern.example.org/v1/users/me',
      ]);
    }
  });
});

describe('PUBLIC_URL and the Host header, through app.fetch', () => {
  // The request reaches the app at an internal address, as behind a proxy.
  const me = (authorization: string, host?: string, path = '/v1/users/me') =>
    server.app.fetch(
      new Request(`http://10.0.0.7:4000${path}`, { headers: { authorization, ...(host ? { host } : {}) } }),
    );

  it('accepts a request signed against the PUBLIC_URL form; links use PUBLIC_URL', async () => {
    const response = await me(signed('GET', 'https://lectern.example.org/v1/users/me'));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`https://lectern.example.org/v1/users/${world.teacher.id}`);
  });

  it('accepts Host: api.schoology.com signed against http://api.schoology.com, and links still use PUBLIC_URL', async () => {
    const response = await me(signed('GET', 'http://api.schoology.com/v1/users/me'), 'api.schoology.com');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`https://lectern.example.org/v1/users/${world.teacher.id}`);
    // In PUBLIC_URL's scheme too (a client that called https through a proxy keeping its Host).
    expect((await me(signed('GET', 'https://api.schoology.com/v1/users/me'), 'api.schoology.com')).status).toBe(303);
  });

  it('signs the query in the Host header form too', async () => {
    const url = 'http://api.schoology.com/v1/groups?start=0&limit=5';
    const response = await me(signed('GET', url), 'api.schoology.com', '/v1/groups?start=0&limit=5');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { links: { self: string } }).links.self).toBe(
      'https://lectern.example.org/v1/groups?start=0&limit=5',
    );
  });

  it('refuses a request signed against some other host, or with another secret', async () => {
    for (const [authorization, host] of [
      [signed('GET', 'http://elsewhere.example/v1/users/me'), 'api.schoology.com'],
      [signed('GET', 'http://elsewhere.example/v1/users/me'), undefined],
      [signed('GET', 'http://api.schoology.com/v1/users/me'), 'api.schoology.org'],
      [
        signed('GET', 'http://api.schoology.com/v1/users/me', {
          consumer: { ...credential, secret: 'not-the-secret' },
        }),
        'api.schoology.com',
      ],
    ] as const) {
      const response = await me(authorization, host);
      expect(response.status).toBe(401);
      expect(await response.text()).toBe('Invalid OAuth signature');
    }
  });

  it('refuses a replayed nonce after the fallback, whichever URL the replay was signed against', async () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const nonce = randomBytes(8).toString('hex');
    const viaHost = signed('GET', 'http://api.schoology.com/v1/users/me', { nonce, timestamp });
    expect((await me(viaHost, 'api.schoology.com')).status).toBe(303);
    const replay = await me(viaHost, 'api.schoology.com');
    expect(replay.status).toBe(401);
    expect(await replay.text()).toBe(
      'Duplicate timestamp/nonce combination, possible replay attack. Request rejected.',
    );
    const viaPublic = await me(signed('GET', 'https://lectern.example.org/v1/users/me', { nonce, timestamp }));
    expect(viaPublic.status).toBe(401);
    expect(await viaPublic.text()).toMatch(/^Duplicate timestamp\/nonce combination/);
  });

  it('without PUBLIC_URL: the request URL as before, and the Host header form', async () => {
    const config = { ...server.config, publicUrl: null };
    const app = createApp({
      config,
      database: server.database,
      serverKey: server.serverKey,
      logger: createLogger(config),
    });
    const call = (authorization: string, host?: string) =>
      app.fetch(
        new Request('http://127.0.0.1:4000/v1/users/me', { headers: { authorization, ...(host ? { host } : {}) } }),
      );
    expect((await call(signed('GET', 'http://127.0.0.1:4000/v1/users/me'))).status).toBe(303);
    expect((await call(signed('GET', 'http://127.0.0.1:4000/v1/users/me'), 'api.schoology.com')).status).toBe(303);
    expect((await call(signed('GET', 'http://api.schoology.com/v1/users/me'), 'api.schoology.com')).status).toBe(303);
    expect((await call(signed('GET', 'https://api.schoology.com/v1/users/me'), 'api.schoology.com')).status).toBe(401);
    expect((await call(signed('GET', 'https://lectern.example.org/v1/users/me'))).status).toBe(401);
  });
});

/** GET through node:http, which sends the Host header it is given (fetch would replace it with the URL's). */
function get(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; location?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${base}${path}`, { headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, location: response.headers.location, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('PUBLIC_URL and the Host header, on a listening server', () => {
  // Node's adapter builds request.url from the Host header, so this is the path production requests take.
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-signed-url-'));
  let live: ServerProcess;
  const bootstrap = { key: 'signed-url-key', secret: 'signed-url-secret' };

  beforeAll(async () => {
    live = await startServerProcess({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: publicUrl,
      BOOTSTRAP_CONSUMER_KEY: bootstrap.key,
      BOOTSTRAP_CONSUMER_SECRET: bootstrap.secret,
    });
    await waitUntilReady(live);
  });
  afterAll(async () => {
    live?.child.kill('SIGTERM');
    await live?.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });

  const sign = (url: string) => signed('GET', url, { consumer: bootstrap });

  it('accepts the PUBLIC_URL form and the Host header form, and refuses another host', async () => {
    const viaPublic = await get(live.base, '/v1/users/me', {
      authorization: sign('https://lectern.example.org/v1/users/me'),
    });
    expect(viaPublic.status, viaPublic.body).toBe(303);
    expect(viaPublic.location).toMatch(/^https:\/\/lectern\.example\.org\/v1\/users\/\d+$/);

    const viaHost = await get(live.base, '/v1/users/me', {
      host: 'api.schoology.com',
      authorization: sign('http://api.schoology.com/v1/users/me'),
    });
    expect(viaHost.status, viaHost.body).toBe(303);
    expect(viaHost.location).toBe(viaPublic.location);

    // A client calling the server directly signs the address it called, which is also the Host it sends.
    const direct = await get(live.base, '/v1/users/me', { authorization: sign(`${live.base}/v1/users/me`) });
    expect(direct.status, direct.body).toBe(303);

    const elsewhere = await get(live.base, '/v1/users/me', {
      host: 'api.schoology.com',
      authorization: sign('http://elsewhere.example/v1/users/me'),
    });
    expect([elsewhere.status, elsewhere.body]).toEqual([401, 'Invalid OAuth signature']);
  });
});

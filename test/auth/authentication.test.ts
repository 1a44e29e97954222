import { createHmac, randomBytes } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { pruneNonces } from '../../src/auth/authenticate';
import { ensureBootstrapCredential } from '../../src/ops/bootstrap-credential';
import { db } from '../../src/db/database';
import { createLogger } from '../../src/http/logging';
import { issueAccessToken, issueApiClient } from '../../src/modules/access/access.service';
import { RestClient } from '../support/client';
import { type World, createGroup, createWorld } from '../support/factories';
import { testOrigin, useTestServer } from '../support/harness';
import { v1 } from '../support/wire';

// OAuth 1.0a and bearer tokens over HTTP, through app.fetch: the wire forms real clients send.

const server = useTestServer();
let world: World;
let key: string;
let secret: string;

const enc = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const now = () => Math.floor(Date.now() / 1000);
const nonce = () => randomBytes(12).toString('hex');

/** A signature computed independently of src/auth/oauth.ts, from RFC 5849 §3.4.1 by hand. */
function hmac(method: string, url: string, params: Record<string, string>, consumerSecret: string): string {
  const parsed = new URL(url);
  const pairs = [...parsed.searchParams, ...Object.entries(params)]
    .map(([name, value]) => `${enc(name)}=${enc(value)}`)
    .sort();
  const base = `${method}&${enc(`${parsed.origin}${parsed.pathname}`)}&${enc(pairs.join('&'))}`;
  return createHmac('sha1', `${enc(consumerSecret)}&`)
    .update(base)
    .digest('base64');
}

interface HandBuilt {
  method?: string;
  url?: string;
  consumerKey?: string;
  consumerSecret?: string;
  timestamp?: number;
  nonce?: string;
  /** `undefined` leaves oauth_token out of the header and the base string. */
  token?: string;
  realm?: string | null;
  separator?: string;
  /** Percent-encode header values (the default) or send them raw. */
  encode?: boolean;
  quote?: boolean;
  signature?: string;
}

/** An HMAC-SHA1 Authorization header assembled by hand, in the shape a given client library sends. */
function handBuilt(options: HandBuilt = {}): string {
  const method = options.method ?? 'GET';
  const url = options.url ?? `${v1}/users/me`;
  const params: Record<string, string> = {
    oauth_consumer_key: options.consumerKey ?? key,
    oauth_nonce: options.nonce ?? nonce(),
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: String(options.timestamp ?? now()),
    oauth_version: '1.0',
    ...(options.token === undefined ? {} : { oauth_token: options.token }),
  };
  const signature = options.signature ?? hmac(method, url, params, options.consumerSecret ?? secret);
  const value = (text: string) => (options.encode === false ? text : enc(text));
  const quote = (text: string) => (options.quote === false ? text : `"${text}"`);
  const parts = Object.entries({ ...params, oauth_signature: signature }).map(
    ([name, text]) => `${name}=${quote(value(text))}`,
  );
  const realm = options.realm === undefined ? 'Schoology API' : options.realm;
  if (realm !== null) parts.unshift(`realm=${quote(realm)}`);
  return `OAuth ${parts.join(options.separator ?? ', ')}`;
}

/** A header signed by the oauth-1.0a client library. */
function librarySigned(
  method: string,
  url: string,
  signatureMethod: 'HMAC-SHA1' | 'PLAINTEXT',
  credentials = { key, secret },
) {
  const oauth = new OAuth({
    consumer: credentials,
    signature_method: signatureMethod,
    // The library calls hash_function for every method; PLAINTEXT's signature is the signing key itself.
    hash_function: (base, signingKey) =>
      signatureMethod === 'PLAINTEXT' ? signingKey : createHmac('sha1', signingKey).update(base).digest('base64'),
    realm: 'Schoology API',
  });
  return oauth.toHeader(oauth.authorize({ method, url }, { key: '', secret: '' })).Authorization;
}

/** A PLAINTEXT header with the signature exactly as given (no further encoding). */
function plaintext(signature: string, consumerKey = key): string {
  return `OAuth realm="Schoology API", oauth_consumer_key="${consumerKey}", oauth_token="", oauth_nonce="${nonce()}", oauth_timestamp="${now()}", oauth_signature_method="PLAINTEXT", oauth_version="1.0", oauth_signature="${signature}"`;
}

const me = (authorization: string) => server.fetch('/v1/users/me', { headers: { authorization } });

async function expect401(response: Response, message: string) {
  expect(response.status).toBe(401);
  expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  expect(await response.text()).toBe(message);
}

beforeAll(async () => {
  world = await createWorld();
  ({ consumerKey: key, consumerSecret: secret } = await issueApiClient(server.serverKey, { userId: world.teacher.id }));
});

describe('OAuth 1.0a over /v1', () => {
  it("accepts HMAC-SHA1 and PLAINTEXT from a client library, acting as the key's user", async () => {
    for (const method of ['HMAC-SHA1', 'PLAINTEXT'] as const) {
      const response = await me(librarySigned('GET', `${v1}/users/me`, method));
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe(`${v1}/users/${world.teacher.id}`);
    }
  });

  it('accepts a secret with reserved characters, signed by the library', async () => {
    const odd = await issueApiClient(server.serverKey, {
      userId: world.student.id,
      consumerKey: 'odd-key',
      consumerSecret: 'p+q/r=s&t u',
    });
    for (const method of ['HMAC-SHA1', 'PLAINTEXT'] as const) {
      const response = await me(
        librarySigned('GET', `${v1}/users/me`, method, { key: odd.consumerKey, secret: odd.consumerSecret }),
      );
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe(`${v1}/users/${world.student.id}`);
    }
  });

  it('accepts PLAINTEXT as SECRET%26, SECRET& and double-encoded SECRET%2526', async () => {
    for (const signature of [`${secret}%26`, `${secret}&`, `${secret}%2526`]) {
      expect((await me(plaintext(signature))).status).toBe(303);
    }
  });

  it('refuses a PLAINTEXT signature with another secret or without the separator', async () => {
    await expect401(await me(plaintext('not-the-secret%26')), 'Invalid OAuth signature');
    await expect401(await me(plaintext(secret)), 'Invalid OAuth signature');
  });

  it('accepts the lenient header forms clients send', async () => {
    const forms: HandBuilt[] = [
      { realm: 'Schoology API' },
      { realm: '' },
      { realm: 'https://anything.example' },
      { realm: null },
      { token: '' },
      { token: undefined },
      { separator: ',' },
      { separator: ' ,  ' },
      { quote: false, realm: 'Schoology' },
      { quote: false, encode: false, realm: null, separator: ',' },
      { encode: false },
    ];
    for (const form of forms) {
      const response = await me(handBuilt(form));
      expect({ form, status: response.status }).toEqual({ form, status: 303 });
    }
  });

  it('accepts a raw base64 signature with + / = left unencoded in the header', async () => {
    // Find a nonce whose signature needs encoding, so that sending it raw is a real test.
    let header = '';
    for (let attempt = 0; attempt < 200 && !/[+/]/.test(header); attempt++) header = handBuilt({ encode: false });
    expect(header).toMatch(/oauth_signature="[^"]*[+/][^"]*"/);
    expect((await me(header)).status).toBe(303);
  });

  it('accepts an empty oauth_token sent when the client signed without it, and the reverse', async () => {
    const timestamp = now();
    const base = {
      oauth_consumer_key: key,
      oauth_signature_method: 'HMAC-SHA1',
      oauth_timestamp: String(timestamp),
      oauth_version: '1.0',
    };
    const url = `${v1}/users/me`;
    const sentEmpty = hmac('GET', url, { ...base, oauth_nonce: 'n-1' }, secret);
    expect((await me(handBuilt({ timestamp, nonce: 'n-1', token: '', signature: sentEmpty }))).status).toBe(303);
    const leftOut = hmac('GET', url, { ...base, oauth_nonce: 'n-2', oauth_token: '' }, secret);
    expect((await me(handBuilt({ timestamp, nonce: 'n-2', token: undefined, signature: leftOut }))).status).toBe(303);
  });

  it('refuses a wrong signature and an unknown consumer key with 401 in plain text', async () => {
    await expect401(await me(handBuilt({ consumerSecret: 'wrong-secret' })), 'Invalid OAuth signature');
    const unknown = await me(handBuilt({ consumerKey: 'no-such-key' }));
    await expect401(unknown, 'Unknown consumer key');
    expect(unknown.headers.get('www-authenticate')).toBe('OAuth realm="Lectern"');
  });

  it('refuses a header missing required parameters or naming another method', async () => {
    const response = await me(`OAuth oauth_consumer_key="${key}", oauth_signature_method="HMAC-SHA1"`);
    await expect401(response, 'Authorization header: missing oauth_signature, oauth_nonce, oauth_timestamp');
    const rsa = handBuilt().replace('HMAC-SHA1', 'RSA-SHA1');
    await expect401(await me(rsa), 'Unsupported oauth_signature_method "RSA-SHA1": use HMAC-SHA1 or PLAINTEXT');
  });

  it('refuses a replayed timestamp and nonce, and allows a fresh nonce at the same second', async () => {
    const timestamp = now();
    const header = handBuilt({ timestamp, nonce: 'replayed-nonce' });
    expect((await me(header)).status).toBe(303);
    await expect401(
      await me(header),
      'Duplicate timestamp/nonce combination, possible replay attack. Request rejected.',
    );
    expect((await me(handBuilt({ timestamp, nonce: 'another-nonce' }))).status).toBe(303);
  });

  it('records a nonce of any characters as sent, quotes, commas, braces, backslashes and the word NULL included', async () => {
    const timestamp = now();
    const header = handBuilt({ timestamp, nonce: 'a,b "c" {d} \\e NULL' });
    expect((await me(header)).status).toBe(303);
    await expect401(
      await me(header),
      'Duplicate timestamp/nonce combination, possible replay attack. Request rejected.',
    );
    const stored = await db().oAuthNonce.findMany({ where: { nonce: { startsWith: 'a,b' } }, select: { nonce: true } });
    expect(stored).toEqual([{ nonce: 'a,b "c" {d} \\e NULL' }]);
  });

  it('prunes exactly the nonces whose timestamps can no longer pass, whatever the database clock says', async () => {
    const t = now();
    const recorded = (timestamp: number, nonce: string, createdAt = new Date()) => ({
      consumerKey: 'prune-key',
      timestamp,
      nonce,
      createdAt,
    });
    await db().oAuthNonce.createMany({
      data: [
        recorded(t - 400, 'stale'),
        recorded(t - 200, 'fresh'),
        recorded(t, 'behind-db-clock', new Date(Date.now() - 3_600_000)),
      ],
    });
    expect(await pruneNonces(300)).toBe(1);
    const left = await db().oAuthNonce.findMany({ where: { consumerKey: 'prune-key' }, orderBy: { nonce: 'asc' } });
    expect(left.map((row) => row.nonce)).toEqual(['behind-db-clock', 'fresh']);
  });

  it('prunes through the index on the timestamp, not by reading every nonce', async () => {
    const [prune, ...more] = await server.database.statementsOf(() => pruneNonces(300));
    expect(more).toEqual([]);
    // The table is small here, so the planner is told to use an index wherever one serves.
    const plan = await db().$transaction(async (tx) => {
      await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
      return tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${prune}`, BigInt(now() - 300));
    });
    expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toMatch(
      /Index Scan (using|on) oauth_nonces_timestamp_idx/,
    );
  });

  it('does not burn a nonce on a request with a bad signature', async () => {
    const timestamp = now();
    expect((await me(handBuilt({ timestamp, nonce: 'kept-nonce', consumerSecret: 'wrong' }))).status).toBe(401);
    expect((await me(handBuilt({ timestamp, nonce: 'kept-nonce' }))).status).toBe(303);
  });

  it('refuses timestamps outside the allowed skew, past and future', async () => {
    const past = now() - 301;
    const response = await me(handBuilt({ timestamp: past }));
    expect(response.status).toBe(401);
    expect(await response.text()).toMatch(
      new RegExp(`^oauth_timestamp ${past} is more than 300s from the server time \\d+$`),
    );
    expect((await me(handBuilt({ timestamp: now() + 3600 }))).status).toBe(401);
    expect((await me(handBuilt({ timestamp: now() - 290 }))).status).toBe(303);
  });

  it('signs the query string: GET /v1/groups?start=0&limit=5', async () => {
    await createGroup(world.school.id);
    const url = `${v1}/groups?start=0&limit=5`;
    const signed = await server.fetch('/v1/groups?start=0&limit=5', { headers: { authorization: handBuilt({ url }) } });
    expect(signed.status).toBe(200);
    const body = (await signed.json()) as { links: { self: string } };
    expect(body.links.self).toBe(`${v1}/groups?start=0&limit=5`);
    const library = await server.fetch('/v1/groups?start=0&limit=5', {
      headers: { authorization: librarySigned('GET', url, 'HMAC-SHA1') },
    });
    expect(library.status).toBe(200);
    // The same signature without the query in the base string does not verify.
    const unsigned = handBuilt({ url: `${v1}/groups` });
    await expect401(
      await server.fetch('/v1/groups?start=0&limit=5', { headers: { authorization: unsigned } }),
      'Invalid OAuth signature',
    );
  });

  it('does not sign the method: a GET signature does not verify a POST', async () => {
    const response = await server.fetch('/v1/groups', {
      method: 'POST',
      headers: { authorization: handBuilt({ url: `${v1}/groups` }), 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Never created' }),
    });
    await expect401(response, 'Invalid OAuth signature');
    expect(await db().group.count({ where: { title: 'Never created' } })).toBe(0);
  });

  it('refuses an unsigned request to a data route with 401 and a challenge', async () => {
    const response = await server.fetch('/v1/groups');
    await expect401(response, 'Authentication required: sign the request with OAuth 1.0a or send a bearer token');
    expect(response.headers.get('www-authenticate')).toBe('OAuth realm="Lectern"');
  });
});

describe('PUBLIC_URL', () => {
  let publicApp: ReturnType<typeof createApp>;
  beforeAll(() => {
    const config = { ...server.config, publicUrl: new URL('https://api.example.org') };
    publicApp = createApp({
      config,
      database: server.database,
      serverKey: server.serverKey,
      logger: createLogger(config),
    });
  });
  // The request reaches the app at another host, as behind a proxy.
  const call = (authorization: string) =>
    publicApp.fetch(new Request(`http://10.0.0.7:4000/v1/users/me`, { headers: { authorization } }));

  it('verifies against the public base URL, and links use it', async () => {
    const response = await call(handBuilt({ url: 'https://api.example.org/v1/users/me' }));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`https://api.example.org/v1/users/${world.teacher.id}`);
    expect((await call(librarySigned('GET', 'https://api.example.org/v1/users/me', 'HMAC-SHA1'))).status).toBe(303);
  });

  it('then accepts the URL the request arrived at (the Host it names), and refuses any other', async () => {
    // On the wire the arrival URL is the Host header's (test/auth/signed-url.test.ts); links still use PUBLIC_URL.
    const arrived = await call(handBuilt({ url: 'http://10.0.0.7:4000/v1/users/me' }));
    expect(arrived.status).toBe(303);
    expect(arrived.headers.get('location')).toBe(`https://api.example.org/v1/users/${world.teacher.id}`);
    await expect401(await call(handBuilt({ url: 'http://api.example.org/v1/users/me' })), 'Invalid OAuth signature');
    await expect401(await call(handBuilt({ url: 'https://elsewhere.example/v1/users/me' })), 'Invalid OAuth signature');
  });
});

describe('credentials on /graphql', () => {
  const graphql = (headers: Record<string, string>, query = '{ viewer { id: databaseId } }', variables = {}) =>
    server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });

  it('accepts the OAuth credential signed for the /graphql URL', async () => {
    const response = await graphql({ authorization: handBuilt({ method: 'POST', url: `${testOrigin}/graphql` }) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { viewer: { id: String(world.teacher.id) } } });
    const wrongUrl = await graphql({ authorization: handBuilt({ method: 'POST', url: `${v1}/graphql` }) });
    expect(wrongUrl.status).toBe(401);
    expect(((await wrongUrl.json()) as { errors: { message: string }[] }).errors[0].message).toBe(
      'Invalid OAuth signature',
    );
  });

  it('accepts a bearer token from issueAccessToken and one from the createAccessToken mutation', async () => {
    const { token } = await issueAccessToken({ userId: world.parent.id, name: 'test' });
    const first = await graphql({ authorization: `Bearer ${token}` });
    expect(await first.json()).toEqual({ data: { viewer: { id: String(world.parent.id) } } });

    const mutation = `mutation { createAccessToken(input: { name: "front end", expiresInDays: 1 }) {
      issuedAccessToken { name token expiresAt } } }`;
    const answer = (await (await graphql({ authorization: `Bearer ${token}` }, mutation)).json()) as {
      data: { createAccessToken: { issuedAccessToken: { name: string; token: string; expiresAt: string } } };
    };
    const issued = answer.data.createAccessToken.issuedAccessToken;
    expect(issued.name).toBe('front end');
    const expires = Date.parse(issued.expiresAt) - Date.now();
    expect(Math.abs(expires - 86_400_000)).toBeLessThan(60_000);
    const second = await graphql({ authorization: `bearer   ${issued.token}` });
    expect(await second.json()).toEqual({ data: { viewer: { id: String(world.parent.id) } } });
  });

  it('refuses an unknown or expired bearer token with 401 UNAUTHENTICATED', async () => {
    const { id, token } = await issueAccessToken({ userId: world.parent.id, expiresInDays: 1 });
    await db().accessToken.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    for (const authorization of ['Bearer not-a-token', `Bearer ${token}`]) {
      const response = await graphql({ authorization });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('OAuth realm="Lectern"');
      const body = (await response.json()) as {
        data?: unknown;
        errors: { message: string; extensions: { code: string } }[];
      };
      expect(body.data).toBeUndefined();
      expect(body.errors).toEqual([
        { message: 'Invalid or expired bearer token', extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } },
      ]);
    }
  });

  it('answers a request without credentials with UNAUTHENTICATED errors and no data', async () => {
    const response = await graphql({}, '{ groups { total } }');
    expect([response.status, response.headers.get('www-authenticate')]).toEqual([401, 'OAuth realm="Lectern"']);
    expect(await response.json()).toEqual({
      data: null,
      errors: [
        {
          message: 'Authentication required: sign the request with OAuth 1.0a or send a bearer token',
          locations: [{ line: 1, column: 3 }],
          path: ['groups'],
          extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
        },
      ],
    });
  });

  it('serves GraphiQL to a browser without credentials', async () => {
    const response = await server.fetch('/graphql', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('<title>Lectern GraphQL</title>');
  });
});

describe('bootstrap credential', () => {
  const credential = { consumerKey: 'bootstrap-key', consumerSecret: 'bootstrap-secret-0123456789' };
  const counts = async () => ({
    districts: await db().district.count(),
    schools: await db().school.count(),
    users: await db().user.count(),
    clients: await db().apiClient.count(),
  });

  it('creates a district, school, administrator and client once', async () => {
    const before = await counts();
    const first = await ensureBootstrapCredential(server.serverKey, credential);
    expect(first.created).toBe(true);
    const after = await counts();
    expect(after).toEqual({
      districts: before.districts + 1,
      schools: before.schools + 1,
      users: before.users + 1,
      clients: before.clients + 1,
    });
    expect(await ensureBootstrapCredential(server.serverKey, credential)).toEqual({
      userId: first.userId,
      created: false,
    });
    expect(await counts()).toEqual(after);
    await expect(
      ensureBootstrapCredential(server.serverKey, { ...credential, consumerSecret: 'another-secret' }),
    ).rejects.toThrow(/^BOOTSTRAP_CONSUMER_KEY exists with a different secret/);
    const user = await db().user.findUniqueOrThrow({ where: { id: first.userId } });
    expect([user.role, user.username]).toEqual(['DISTRICT_ADMIN', 'bootstrap-admin']);
  });

  it('signs requests as its administrator, who creates schools, groups and district posts', async () => {
    const { userId } = await ensureBootstrapCredential(server.serverKey, credential);
    const user = await db().user.findUniqueOrThrow({ where: { id: userId }, include: { school: true } });
    const admin = new RestClient(server, credential.consumerKey, credential.consumerSecret);
    const whoami = await admin.get('/users/me');
    expect([whoami.status, whoami.headers.get('location')]).toEqual([303, `${v1}/users/${userId}`]);

    const school = await admin.post('/schools', { title: 'Second Bootstrap School', city: 'Springfield' });
    expect(school.status).toBe(201);
    expect(school.json).toMatchObject({ title: 'Second Bootstrap School', city: 'Springfield' });
    expect(school.json.links.self).toBe(`${v1}/schools/${school.json.id}`);
    const stored = await db().school.findUniqueOrThrow({ where: { id: Number(school.json.id) } });
    expect(stored.districtId).toBe(user.school.districtId);

    const group = await admin.post('/groups', { title: 'Bootstrap Group' });
    expect(group.status).toBe(201);
    expect([group.json.title, group.json.school_id]).toEqual(['Bootstrap Group', String(user.schoolId)]);

    const post = await admin.post(`/districts/${user.school.districtId}/posts`, {
      title: 'Welcome',
      body: 'Hello, district',
    });
    expect(post.status).toBe(201);
    expect(post.json).toMatchObject({ title: 'Welcome', body: 'Hello, district' });
    expect(post.json.links.self).toBe(`${v1}/districts/${user.school.districtId}/posts/${post.json.id}`);
  });
});

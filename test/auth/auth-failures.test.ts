import { createHmac, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { addressBucket, clientAddress } from '../../src/auth/client-address';
import { db } from '../../src/db/database';
import { issueAccessToken, issueApiClient } from '../../src/modules/access/access.service';
import { type World, createWorld } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';
import { v1 } from '../support/wire';

// Failed authentication is limited per client address and per consumer key, and requests without a credential per
// address, before any credential is looked at. In-process requests have no socket, so with one trusted proxy the
// tests name the client in X-Forwarded-For; every test uses addresses of its own.

const server = useTestServer({
  TRUST_PROXY: '1',
  AUTH_FAILURES_PER_ADDRESS: '5/1m',
  AUTH_FAILURES_PER_CONSUMER_KEY: '8/1m',
  ANONYMOUS_REQUESTS_PER_ADDRESS: '10/1m',
});
let world: World;
let token: string;

beforeAll(async () => {
  world = await createWorld();
  token = (await issueAccessToken({ userId: world.teacher.id })).token;
});

interface Consumer {
  key: string;
  secret: string;
}

/** A consumer key of its own for each test, since failures count against the key too. */
async function freshConsumer(): Promise<Consumer> {
  const issued = await issueApiClient(server.serverKey, { userId: world.teacher.id, name: 'test' });
  return { key: issued.consumerKey, secret: issued.consumerSecret };
}

let lastAddress = 0;
/** An address no other test uses. */
const freshAddress = () => `198.51.100.${++lastAddress}`;

const enc = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** An HMAC-SHA1 header computed by hand (RFC 5849 §3.4), with the nonce and timestamp the test chooses. */
function signed(
  consumer: Consumer,
  options: { key?: string; secret?: string; nonce?: string; timestamp?: number } = {},
) {
  const url = `${v1}/users/me`;
  const params: Record<string, string> = {
    oauth_consumer_key: options.key ?? consumer.key,
    oauth_nonce: options.nonce ?? randomBytes(12).toString('hex'),
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: String(options.timestamp ?? Math.floor(Date.now() / 1000)),
    oauth_version: '1.0',
  };
  const pairs = Object.entries(params)
    .map(([name, value]) => `${enc(name)}=${enc(value)}`)
    .sort();
  const base = `GET&${enc(url)}&${enc(pairs.join('&'))}`;
  const signature = createHmac('sha1', `${enc(options.secret ?? consumer.secret)}&`)
    .update(base)
    .digest('base64');
  const header = Object.entries({ ...params, oauth_signature: signature }).map(
    ([name, value]) => `${name}="${enc(value)}"`,
  );
  return `OAuth ${header.join(', ')}`;
}

const getMe = (address: string, authorization?: string) =>
  server.fetch('/v1/users/me', {
    headers: { 'x-forwarded-for': address, accept: 'application/json', ...(authorization ? { authorization } : {}) },
    redirect: 'manual',
  });

const graphql = (address: string, authorization?: string, query = '{ __typename }') =>
  server.fetch('/graphql', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': address,
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify({ query }),
  });

const statuses = async (responses: Promise<Response>[]) =>
  (await Promise.all(responses)).map((response) => response.status);

/** Sends the failures one after another, each answered 401. */
async function fail(count: number, send: (index: number) => Promise<Response>) {
  for (let index = 0; index < count; index++) expect((await send(index)).status).toBe(401);
}

describe('failed authentications per client address', () => {
  it('answers 429 with Retry-After after five bad signatures, to good credentials too, on /v1 and /graphql', async () => {
    const consumer = await freshConsumer();
    const address = freshAddress();
    await fail(5, () => getMe(address, signed(consumer, { secret: 'wrong' })));

    const refused = await getMe(address, signed(consumer));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({
      error: 'Too many failed authentications from this address: the limit is 5 per 60s',
    });

    const overGraphql = await graphql(address, `Bearer ${token}`);
    expect(overGraphql.status).toBe(429);
    expect(overGraphql.headers.get('retry-after')).not.toBeNull();
    expect(((await overGraphql.json()) as any).errors[0].extensions.code).toBe('RATE_LIMITED');

    // The same credentials from another address are fine.
    expect(
      await statuses([getMe(freshAddress(), signed(consumer)), graphql(freshAddress(), `Bearer ${token}`)]),
    ).toEqual([303, 200]);
  });

  it('refuses a blocked address before looking at the credential: its valid nonce is not even recorded', async () => {
    const consumer = await freshConsumer();
    const address = freshAddress();
    await fail(5, () => graphql(address, `Bearer not-a-token-${randomBytes(4).toString('hex')}`));
    const nonce = `blocked-${randomBytes(8).toString('hex')}`;
    expect((await getMe(address, signed(consumer, { nonce }))).status).toBe(429);
    expect(await db().oAuthNonce.count({ where: { nonce } })).toBe(0);
  });

  it('counts every kind of failure: unknown key, expiry, replay, bad bearer token, unusable header', async () => {
    const consumer = await freshConsumer();
    const address = freshAddress();
    const replayed = signed(consumer);
    expect((await getMe(address, replayed)).status).toBe(303);
    const failures = [
      () => getMe(address, signed(consumer, { key: 'no-such-key' })),
      () => getMe(address, signed(consumer, { timestamp: Math.floor(Date.now() / 1000) - 3600 })),
      () => getMe(address, replayed),
      () => getMe(address, 'Bearer no-such-token'),
      () => getMe(address, 'OAuth oauth_consumer_key="only"'),
    ];
    await fail(failures.length, (index) => failures[index]!());
    expect((await getMe(address, signed(consumer))).status).toBe(429);
  });

  it('reads X-Forwarded-For only as far as the trusted proxy: entries the client wrote are not an address', async () => {
    const consumer = await freshConsumer();
    const address = freshAddress();
    // Each attempt claims another origin on the left; the proxy's entry on the right is the same.
    await fail(5, (index) => getMe(`10.0.0.${index}, ${address}`, signed(consumer, { secret: 'wrong' })));
    expect((await getMe(`10.9.9.9, ${address}`, signed(consumer))).status).toBe(429);
  });
});

describe('on a listening server', () => {
  it("counts the socket's peer: five failures from 127.0.0.2 block it and leave 127.0.0.3 alone", async () => {
    const { port, close } = await listenOnLoopback(server);
    const graphqlFrom = (localAddress: string, authorization: string) =>
      new Promise<number>((resolve, reject) => {
        const outgoing = httpRequest(
          {
            host: '127.0.0.1',
            port,
            localAddress,
            path: '/graphql',
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization },
          },
          (response) => resolve(response.resume().statusCode!),
        );
        outgoing.on('error', reject);
        outgoing.end(JSON.stringify({ query: '{ __typename }' }));
      });
    try {
      for (let attempt = 0; attempt < 5; attempt++) expect(await graphqlFrom('127.0.0.2', 'Bearer wrong')).toBe(401);
      expect(await graphqlFrom('127.0.0.2', `Bearer ${token}`)).toBe(429);
      expect(await graphqlFrom('127.0.0.3', `Bearer ${token}`)).toBe(200);
    } finally {
      await close();
    }
  });
});

describe('failed authentications per consumer key', () => {
  it('blocks a key that failed eight times from eight addresses, from any address, and only that key', async () => {
    const consumer = await freshConsumer();
    await fail(8, () => getMe(freshAddress(), signed(consumer, { secret: 'wrong' })));
    const refused = await getMe(freshAddress(), signed(consumer));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: 'Too many failed authentications with this consumer key: the limit is 8 per 60s',
    });
    expect((await graphql(freshAddress(), `Bearer ${token}`)).status).toBe(200);
  });

  it('keeps no count for keys that do not exist', async () => {
    const consumer = await freshConsumer();
    const madeUp = `made-up-${randomBytes(6).toString('hex')}`;
    await fail(10, () => getMe(freshAddress(), signed(consumer, { key: madeUp })));
    expect(await db().rateLimit.count({ where: { key: { contains: madeUp } } })).toBe(0);
  });
});

describe('requests without a credential', () => {
  it('are limited per address, generously enough for GraphiQL, then 429 with Retry-After', async () => {
    const address = freshAddress();
    const introspection = '{ __schema { queryType { name } } }';
    expect(await statuses(Array.from({ length: 10 }, () => graphql(address, undefined, introspection)))).toEqual(
      Array(10).fill(200),
    );
    const refused = await graphql(address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as any).errors[0].message).toBe(
      'Too many requests without credentials from this address: the limit is 10 per 60s',
    );
    expect((await getMe(address)).status).toBe(429);
    expect((await graphql(freshAddress())).status).toBe(200);
  });
});

describe('OAuth parameters the server refuses to store', () => {
  it('answers 401 in plain text naming the problem for a nonce over 64 characters or a NUL, and counts them', async () => {
    const consumer = await freshConsumer();
    const address = freshAddress();
    const longNonce = await getMe(address, signed(consumer, { nonce: 'n'.repeat(65) }));
    expect(longNonce.status).toBe(401);
    expect(longNonce.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await longNonce.text()).toBe('Authorization header: oauth_nonce is longer than 64 characters');
    for (const nonce of ['nul\0nonce', '\0']) {
      const nul = await getMe(address, signed(consumer, { nonce }));
      expect(nul.status).toBe(401);
      expect(await nul.text()).toBe('Authorization header: oauth_nonce contains a NUL character');
    }
    expect((await getMe(address, signed(consumer, { nonce: 'n'.repeat(64) }))).status).toBe(303);
    expect((await getMe(address, signed(consumer, { key: `${consumer.key}\0` }))).status).toBe(401);
    // The issue's 12 KB nonce, the fifth failure from this address.
    expect((await getMe(address, signed(consumer, { nonce: 'n'.repeat(12 * 1024) }))).status).toBe(401);
    expect((await getMe(address, signed(consumer))).status).toBe(429);
  });
});

describe('clientAddress and addressBucket', () => {
  const node = (remoteAddress: string, forwarded?: string) => ({
    req: { socket: { remoteAddress }, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } },
  });
  const request = new Request('http://lectern.test/graphql');

  it('takes the socket peer without a trusted proxy, whatever X-Forwarded-For says', () => {
    expect(clientAddress(request, node('203.0.113.9', '192.0.2.1'), 0)).toBe('203.0.113.9');
    expect(clientAddress(request, node('::ffff:203.0.113.9'), 0)).toBe('203.0.113.9');
    expect(
      clientAddress(new Request('http://lectern.test/', { headers: { 'x-forwarded-for': '192.0.2.1' } }), {}, 0),
    ).toBe('127.0.0.1');
  });

  it('takes the entry each trusted proxy vouches for, counted from the right', () => {
    expect(clientAddress(request, node('10.0.0.1', '1.1.1.1, 192.0.2.7'), 1)).toBe('192.0.2.7');
    expect(clientAddress(request, node('10.0.0.1', '1.1.1.1, 192.0.2.7, 10.0.0.2'), 2)).toBe('192.0.2.7');
    expect(clientAddress(request, node('10.0.0.1'), 1)).toBe('10.0.0.1');
    expect(clientAddress(request, node('10.0.0.1', '192.0.2.7'), 3)).toBe('192.0.2.7');
    expect(clientAddress(request, node('10.0.0.1', 'unknown'), 1)).toBe('10.0.0.1');
    // A graphql-ws operation: the upgrade request is in `extra`.
    expect(clientAddress(request, { extra: { request: node('10.0.0.1', '192.0.2.8').req } }, 1)).toBe('192.0.2.8');
  });

  it('counts IPv4 one by one and IPv6 by /64', () => {
    expect(addressBucket('192.0.2.1')).toBe('192.0.2.1');
    expect(addressBucket('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:DB8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
  });
});

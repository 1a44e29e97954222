import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import WebSocket from 'ws';
import { deriveKey } from '../../src/auth/secrets';
import { type Database, db, openDatabase } from '../../src/db/database';
import { issueAccessToken, issueApiClient } from '../../src/modules/access/access.service';
import { endOfStream } from '../../src/outbox/stream';
import { createDistrict, createSchool, createUser } from '../support/factories';
import { processTestTimeoutMs, type ServerProcess, startServerProcess, waitUntilReady } from '../support/process';
import { type PrivateRedis, startPrivateRedis } from '../support/redis';

// Three server processes on one PostgreSQL database and one Redis, as examples/scale-out/ runs them behind a load
// balancer: each check goes through all three in turn. PostgreSQL pass only (the embedded database serves one process).
vi.setConfig({ testTimeout: processTestTimeoutMs });

const serverUrl = process.env.TEST_DATABASE_URL;
const secretKey = randomBytes(32).toString('hex');
/** Per user; small enough to reach in a few requests, over a window no check outlasts. */
const rateLimitPoints = 12;
const credentialCacheMs = 1_000;

interface Credential {
  key: string;
  secret: string;
}

/** PLAINTEXT OAuth 1.0a: the nonce and timestamp are given, so that the same header can be sent twice. */
const oauthHeader = (credential: Credential, nonce = randomUUID(), timestamp = Math.floor(Date.now() / 1000)) =>
  `OAuth realm="Schoology API", oauth_consumer_key="${credential.key}", oauth_token="", oauth_nonce="${nonce}", ` +
  `oauth_timestamp="${timestamp}", oauth_signature_method="PLAINTEXT", oauth_version="1.0", ` +
  `oauth_signature="${credential.secret}%26"`;

async function v1(server: ServerProcess, method: string, path: string, authorization: string, body?: unknown) {
  const response = await fetch(`${server.base}/v1${path}`, {
    method,
    redirect: 'manual',
    headers: {
      authorization,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : undefined;
  return { status: response.status, headers: response.headers, text, json };
}

async function graphql(server: ServerProcess, token: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${server.base}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, json: await response.json() };
}

/** A webhook receiver on a loopback port that records every request. */
function createReceiver() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const http = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end('ok');
    });
  });
  return {
    received,
    url: () => `http://127.0.0.1:${(http.address() as AddressInfo).port}/hook`,
    listen: () => new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve)),
    close: () => new Promise((resolve) => http.close(resolve)),
  };
}

describe.skipIf(!serverUrl)('three instances on one PostgreSQL database and Redis', () => {
  const folder = mkdtempSync(join(tmpdir(), 'lectern-scale-out-'));
  const databaseName = `lectern_test_${randomBytes(6).toString('hex')}`;
  const databaseUrl = serverUrl ? Object.assign(new URL(serverUrl), { pathname: `/${databaseName}` }).href : '';
  const receiver = createReceiver();
  let redis: PrivateRedis;
  let database: Database;
  let servers: ServerProcess[] = [];
  let schoolId: number;
  let admin: { id: number; credential: Credential; token: string };
  let teacher: Credential;
  let counted: { id: number; credential: Credential };
  let student: { id: number; token: string };

  const admin_ = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    // A copy of the run's migrated template (test/support/global-setup.ts): the instances find nothing to migrate.
    await admin_(`CREATE DATABASE ${databaseName} TEMPLATE ${inject('postgresTemplate')}`);
    [redis] = await Promise.all([startPrivateRedis(), receiver.listen()]);
    database = await openDatabase({ databaseUrl, dataDir: 'memory://' });
    const serverKey = deriveKey(secretKey);
    const school = await createSchool((await createDistrict()).id);
    schoolId = school.id;
    const [adminUser, teacherUser, countedUser, studentUser] = await Promise.all([
      createUser(school.id, 'SCHOOL_ADMIN', { triggerAdmin: true }),
      createUser(school.id, 'TEACHER'),
      createUser(school.id, 'TEACHER'),
      createUser(school.id, 'STUDENT'),
    ]);
    const client = async (userId: number) => {
      const issued = await issueApiClient(serverKey, { userId });
      return { key: issued.consumerKey, secret: issued.consumerSecret };
    };
    admin = {
      id: adminUser.id,
      credential: await client(adminUser.id),
      token: (await issueAccessToken({ userId: adminUser.id })).token,
    };
    teacher = await client(teacherUser.id);
    counted = { id: countedUser.id, credential: await client(countedUser.id) };
    student = { id: studentUser.id, token: (await issueAccessToken({ userId: studentUser.id })).token };

    const env = {
      DATABASE_URL: databaseUrl,
      SECRET_KEY: secretKey,
      REDIS_URL: redis.url,
      DATA_DIR: folder,
      RATE_LIMIT: `${rateLimitPoints}/1h`,
      CREDENTIAL_CACHE_MS: String(credentialCacheMs),
      // The revocation check asks until refused: its failures are not what this file counts.
      AUTH_FAILURES_PER_ADDRESS: 'off',
      AUTH_FAILURES_PER_CONSUMER_KEY: 'off',
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      WEBHOOK_ALLOW_HTTP: 'on',
      SEED_DEMO: 'off',
      LOG_LEVEL: 'warn',
    };
    servers = await Promise.all([1, 2, 3].map(() => startServerProcess(env)));
    await Promise.all(servers.map(waitUntilReady));
  }, processTestTimeoutMs);

  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGTERM');
    const codes = await Promise.all(servers.map((server) => server.exited));
    await database?.close();
    await Promise.all([redis?.stop(), receiver.close()]);
    await admin_(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    rmSync(folder, { recursive: true, force: true });
    expect(codes, servers.map((server) => server.output()).join('\n')).toEqual(servers.map(() => 0));
  }, processTestTimeoutMs);

  it('shares OAuth nonces: a request replayed on another instance is refused', async () => {
    const replayed = oauthHeader(admin.credential);
    const first = await v1(servers[0]!, 'GET', `/users/${admin.id}`, replayed);
    expect(first.status, first.text).toBe(200);
    for (const other of servers.slice(1)) {
      const replay = await v1(other, 'GET', `/users/${admin.id}`, replayed);
      expect(replay.status, replay.text).toBe(401);
      expect(replay.text).toBe('Duplicate timestamp/nonce combination, possible replay attack. Request rejected.');
    }
  });

  it('counts the rate limit once across instances', async () => {
    for (let sent = 1; sent <= rateLimitPoints; sent++) {
      const server = servers[(sent - 1) % 3]!;
      const answer = await v1(server, 'GET', `/users/${counted.id}`, oauthHeader(counted.credential));
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers.get('x-ratelimit-limit')).toBe(String(rateLimitPoints));
      expect(answer.headers.get('x-ratelimit-remaining')).toBe(String(rateLimitPoints - sent));
    }
    for (const server of servers) {
      const over = await v1(server, 'GET', `/users/${counted.id}`, oauthHeader(counted.credential));
      expect(over.status, over.text).toBe(429);
    }
  });

  let targetId: number;
  const groupIds: number[] = [];

  it('a graphql-ws subscription on one instance hears writes made on each of the others', async () => {
    // The webhook target of the next check, made and subscribed through two other instances.
    const target = await v1(servers[1]!, 'POST', '/triggers/targets', oauthHeader(admin.credential), {
      target: receiver.url(),
    });
    expect(target.status, target.text).toBe(201);
    targetId = target.json.id;
    const subscribed = await v1(servers[2]!, 'PUT', '/triggers/subscriptions', oauthHeader(admin.credential), {
      subscription: [{ target_id: targetId, trigger: 'group', subscribed: 1, include_object: 0 }],
    });
    expect(subscribed.status, subscribed.text).toBe(200);

    // From the end of the event log as it stands: the first write is heard whether the subscription listens before
    // it commits or replays it after, which tells that it listens; the later writes are then heard live.
    const after = await endOfStream();
    const client = createClient({
      url: `${servers[0]!.base.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${admin.token}` },
    });
    const heard: { type: string; objectId: string }[] = [];
    let failure: unknown = null;
    const listening = (async () => {
      const events = client.iterate<{ realmEvents: { type: string; objectId: string } }>({
        query: `subscription ($id: ID!, $after: String) {
          realmEvents(realm: { type: SCHOOL, id: $id }, after: $after) { type objectId }
        }`,
        variables: { id: String(schoolId), after },
      });
      for await (const event of events) heard.push(event.data!.realmEvents);
    })().catch((error: unknown) => {
      // A subscription refused or cut (not the dispose below): the poll reports it.
      failure = error;
    });
    try {
      for (const server of servers) {
        const created = await v1(server, 'POST', '/groups', oauthHeader(teacher), { title: `Club ${randomUUID()}` });
        expect(created.status, created.text).toBe(201);
        groupIds.push(Number(created.json.id));
        await expect
          .poll(() => {
            if (failure) throw failure;
            return heard.filter((event) => event.type === 'GROUP_CREATE').map((event) => Number(event.objectId));
          })
          .toEqual(groupIds);
      }
    } finally {
      await client.dispose();
      await listening;
    }
  });

  it('delivers each webhook exactly once, whichever instance committed the event', async () => {
    // Every delivery is settled in the database before the count: an instance that sent one twice would have posted
    // both before recording either.
    await expect
      .poll(() => db().webhookDelivery.findMany({ where: { targetId }, select: { status: true, attempts: true } }), {
        timeout: 60_000,
      })
      .toEqual(groupIds.map(() => ({ status: 'SUCCEEDED', attempts: 1 })));
    const deliveries = receiver.received.map(({ headers, body }) => ({
      id: headers['webhook-id'],
      groupId: JSON.parse(body).data[0].group_id,
    }));
    expect(deliveries.map(({ groupId }) => groupId).sort()).toEqual([...groupIds].sort());
    expect(new Set(deliveries.map(({ id }) => id)).size).toBe(groupIds.length);
  });

  it(`refuses a revoked token on every instance once ${credentialCacheMs} ms have passed`, async () => {
    const viewer = '{ viewer { id: databaseId } }';
    const { id: tokenId } = await db().accessToken.findFirstOrThrow({ where: { userId: student.id } });
    // The other instances hold the token in their credential caches.
    for (const server of servers.slice(1)) {
      expect((await graphql(server, student.token, viewer)).json).toEqual({
        data: { viewer: { id: String(student.id) } },
      });
    }
    const revoke = await graphql(
      servers[0]!,
      student.token,
      'mutation ($id: ID!) { deleteAccessToken(input: { id: $id }) { deletedAccessTokenId } }',
      { id: String(tokenId) },
    );
    expect(revoke.json.data.deleteAccessToken.deletedAccessTokenId).toBeTruthy();
    const revokedAt = Date.now();
    // The guarantee: a cache entry answers for CREDENTIAL_CACHE_MS after it was read, and every read of this token
    // happened before the revocation answered, so a request sent after that bound is refused however slowly the
    // machine runs. Requests are sent until one sent after the bound is refused; any accepted one must precede it.
    for (const server of servers) {
      const accepted: number[] = [];
      for (;;) {
        const sentAt = Date.now() - revokedAt;
        const { status } = await graphql(server, student.token, viewer);
        // 429 is the student's rate limit, charged only to an authenticated request: the token was still accepted.
        if (status === 200 || status === 429) accepted.push(sentAt);
        else expect(status).toBe(401);
        if (status === 401 && sentAt > credentialCacheMs) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(accepted.filter((sentAt) => sentAt > credentialCacheMs)).toEqual([]);
    }
  });
});

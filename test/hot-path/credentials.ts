import { createHmac } from 'node:crypto';
import type { Redis } from 'ioredis';
import OAuth from 'oauth-1.0a';
import { beforeAll, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app';
import { Viewer } from '../../src/auth/viewer';
import { db } from '../../src/db/database';
import { listenToRealms } from '../../src/outbox/bus';
import { createLogger } from '../../src/http/logging';
import { recordEvent, writeTransaction } from '../../src/outbox/record';
import {
  credentialEvents,
  issueAccessToken,
  issueApiClient,
  revokeAccessToken,
} from '../../src/modules/access/access.service';
import { deactivateUser, userEvents } from '../../src/modules/users/user.service';
import { type World, createGroup, createUser, createWorld } from '../support/factories';
import { type TestServer, testOrigin } from '../support/harness';

/**
 * The credential cache as two instances of the app sharing one database see it (`first` and `second`), both trusting what they cached for 10 minutes (CREDENTIAL_CACHE_MS in the harness env),
 * so that only the invalidation can make a revocation take effect in these tests. `redis` makes both instances use
 * Redis (the event bus announcing commits, nonces in Redis).
 */
export function credentialCacheTests(server: TestServer, redis: Redis | null) {
  let world: World;
  let first: App;
  let second: App;

  beforeAll(async () => {
    world = await createWorld();
    await createGroup(world.school.id);
    const instance = () =>
      createApp({
        config: server.config,
        database: server.database,
        serverKey: server.serverKey,
        logger: createLogger(server.config),
        redis,
      });
    first = instance();
    second = instance();
  });

  const adminViewer = () =>
    new Viewer(
      {
        id: world.districtAdmin.id,
        role: 'DISTRICT_ADMIN',
        districtId: world.district.id,
        schoolId: world.school.id,
        buildingId: null,
        triggerAdmin: false,
      },
      { kind: 'bearer', tokenId: 0 },
    );
  const list = (app: App, authorization: string) =>
    app.fetch(new Request(`${testOrigin}/v1/groups`, { headers: { authorization, accept: 'application/json' } }));
  const signer = (key: string, secret: string) =>
    new OAuth({
      consumer: { key, secret },
      signature_method: 'HMAC-SHA1',
      hash_function: (base, k) => createHmac('sha1', k).update(base).digest('base64'),
    });
  const signed = (oauth: OAuth) =>
    oauth.toHeader(oauth.authorize({ method: 'GET', url: `${testOrigin}/v1/groups` }, { key: '', secret: '' }))
      .Authorization;
  // The request's own statements: the event follower reads the log meanwhile, and on a PostgreSQL server shared with
  // other test files it reads again every few milliseconds until their transactions let it see a revocation.
  const statementsOf = async (request: () => Promise<Response> | Response) =>
    (
      await server.database.statementsOf(async () => {
        const response = await request();
        expect(response.status).toBe(200);
        await response.text();
      })
    ).length;
  /** Polls until `check` holds, for at most 5 s (no timing is asserted: the deadline only ends a broken run). */
  const eventually = async (check: () => Promise<boolean>) => {
    const deadline = Date.now() + 5000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('not within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  /**
   * A revocation as another server process commits it: the row deleted and the event recorded in one transaction.
   * (Revoking through the service here would also empty this process's caches directly, see forgetCredentialsOf.)
   */
  const revokeElsewhere = (kind: 'accessToken' | 'apiClient', id: number) =>
    writeTransaction(async (tx) => {
      if (kind === 'accessToken') await tx.accessToken.delete({ where: { id } });
      else await tx.apiClient.delete({ where: { id } });
      await recordEvent(
        tx,
        kind === 'accessToken' ? credentialEvents.deleteAccessToken : credentialEvents.deleteApiClient,
        {
          realm: { type: 'USER', id: world.districtAdmin.id },
          objectId: id,
          actorId: world.districtAdmin.id,
          scope: { districtId: world.district.id, schoolId: world.school.id },
        },
      );
    });
  /** Lets the shared event-log follower take its place, so that what is committed next reaches the caches. */
  const followerReady = async () => {
    const probe = listenToRealms([{ type: 'USER', id: world.districtAdmin.id }], () => {});
    await probe.ready;
    probe.stop();
  };

  // Statements are counted process-wide; with Redis the event-log follower also reads after every commit it is told of
  // (its own included), so the counts are asserted without Redis, where a request is all that runs.
  // A district administrator's first page comes with its count in one statement.
  it.skipIf(redis !== null)(
    'answers a list request with a cached bearer token in one statement (page with count), none for authentication',
    async () => {
      const { token } = await issueAccessToken({ userId: world.districtAdmin.id });
      const authorization = `Bearer ${token}`;
      expect(await statementsOf(() => list(second, authorization))).toBeGreaterThan(1);
      // The cache drops the user's entries on any event of theirs it reads after caching, and the shared follower may
      // read the token's own creation (or an earlier test's event) only then: the next request reads it again, once.
      await expect.poll(() => statementsOf(() => list(second, authorization))).toBe(1);
    },
  );

  it.skipIf(redis !== null)(
    'answers an OAuth list request in two statements (nonce, page with count) once the consumer key is cached',
    async () => {
      const client = await issueApiClient(server.serverKey, { userId: world.districtAdmin.id });
      const oauth = signer(client.consumerKey, client.consumerSecret);
      expect(await statementsOf(() => list(second, signed(oauth)))).toBeGreaterThan(2);
      // As above: the client's creation may reach the cache after its first answer.
      await expect.poll(() => statementsOf(() => list(second, signed(oauth)))).toBe(2);
    },
  );

  it('still refuses a replayed nonce on the other instance', async () => {
    const client = await issueApiClient(server.serverKey, { userId: world.districtAdmin.id });
    const authorization = signed(signer(client.consumerKey, client.consumerSecret));
    expect((await list(first, authorization)).status).toBe(200);
    const replay = await list(second, authorization);
    expect(replay.status).toBe(401);
    expect(await replay.text()).toContain('Duplicate timestamp/nonce');
  });

  it('refuses a revoked bearer token on the other instance, which had it cached', async () => {
    const issued = await issueAccessToken({ userId: world.districtAdmin.id });
    const authorization = `Bearer ${issued.token}`;
    expect((await list(second, authorization)).status).toBe(200);
    expect((await list(first, authorization)).status).toBe(200);
    await followerReady();
    await revokeElsewhere('accessToken', issued.id);
    await eventually(async () => (await list(second, authorization)).status === 401);
    await eventually(async () => (await list(first, authorization)).status === 401);
  });

  it('refuses a revoked API client on the other instance, which had it cached', async () => {
    const client = await issueApiClient(server.serverKey, { userId: world.districtAdmin.id });
    const oauth = signer(client.consumerKey, client.consumerSecret);
    expect((await list(second, signed(oauth))).status).toBe(200);
    await followerReady();
    await revokeElsewhere('apiClient', client.id);
    await eventually(async () => (await list(second, signed(oauth))).status === 401);
  });

  it('refuses a token revoked through this process at once, without waiting for the event log', async () => {
    const issued = await issueAccessToken({ userId: world.districtAdmin.id });
    const authorization = `Bearer ${issued.token}`;
    expect((await list(second, authorization)).status).toBe(200);
    await revokeAccessToken(adminViewer(), issued.id);
    expect((await list(second, authorization)).status).toBe(401);
  });

  it("refuses a deactivated user's bearer tokens and API clients on the other instance, which had them cached", async () => {
    const leaving = await createUser(world.school.id, 'TEACHER');
    const bearer = `Bearer ${(await issueAccessToken({ userId: leaving.id })).token}`;
    const client = await issueApiClient(server.serverKey, { userId: leaving.id });
    const oauth = signer(client.consumerKey, client.consumerSecret);
    expect((await list(second, bearer)).status).toBe(200);
    expect((await list(second, signed(oauth))).status).toBe(200);
    const probe = listenToRealms([{ type: 'USER', id: leaving.id }], () => {});
    await probe.ready;
    probe.stop();
    // As another server process commits a deactivation: the column set and the event recorded in the user's realm.
    await writeTransaction(async (tx) => {
      await tx.user.update({ where: { id: leaving.id }, data: { deactivatedAt: new Date() } });
      await recordEvent(tx, userEvents.deactivate, {
        realm: { type: 'USER', id: leaving.id },
        objectId: leaving.id,
        actorId: world.districtAdmin.id,
        scope: { districtId: world.district.id, schoolId: world.school.id },
      });
    });
    await eventually(async () => (await list(second, bearer)).status === 401);
    await eventually(async () => (await list(second, signed(oauth))).status === 401);
  });

  it('refuses a user deactivated through this process at once, without waiting for the event log', async () => {
    const leaving = await createUser(world.school.id, 'TEACHER');
    const bearer = `Bearer ${(await issueAccessToken({ userId: leaving.id })).token}`;
    expect((await list(second, bearer)).status).toBe(200);
    await deactivateUser(adminViewer(), leaving.id, true);
    expect((await list(second, bearer)).status).toBe(401);
  });

  it('reads the database again for a credential it does not know, so a new token works at once', async () => {
    const unknown = await list(second, 'Bearer not-a-token');
    expect(unknown.status).toBe(401);
    const { token } = await issueAccessToken({ userId: world.districtAdmin.id });
    expect((await list(second, `Bearer ${token}`)).status).toBe(200);
    expect(await db().accessToken.count({ where: { userId: world.districtAdmin.id } })).toBeGreaterThan(0);
  });
}

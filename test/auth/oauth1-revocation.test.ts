import { beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app';
import { approveRequestToken } from '../../src/auth/oauth1-authorization';
import { Viewer } from '../../src/auth/viewer';
import { createLogger } from '../../src/http/logging';
import { appEvents } from '../../src/modules/apps/app.events';
import { revokeAppAuthorization } from '../../src/modules/apps/app.service';
import { listenToRealms } from '../../src/outbox/bus';
import { recordEvent, writeTransaction } from '../../src/outbox/record';
import { clientsFor } from '../support/client';
import { type World, createUser, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';
import { type AppKeys, type TokenPair, accessToken, registerApp, requestToken, usersMe } from './oauth1-support';

// Both instances trust what they cached for 10 minutes: only the invalidation can make a revocation take effect here.
const server = useTestServer({ CREDENTIAL_CACHE_MS: '600000' });
const clients = clientsFor(server);

let world: World;
let app: AppKeys;
let first: App;
let second: App;

beforeAll(async () => {
  world = await createWorld();
  app = await registerApp(await clients.graphql(world.districtAdmin), { name: 'Cached' });
  const instance = () =>
    createApp({
      config: server.config,
      database: server.database,
      serverKey: server.serverKey,
      logger: createLogger(server.config),
    });
  first = instance();
  second = instance();
});

async function accessFor(user: { id: number }): Promise<TokenPair> {
  const pending = await requestToken(server, app);
  await approveRequestToken(pending.key, user.id);
  return accessToken(server, app, pending);
}

const status = async (instance: App, access: TokenPair) =>
  (await usersMe(server, app, access, (request) => instance.fetch(request))).status;

/** Polls until `check` holds, for at most 5 s (no timing is asserted: the deadline only ends a broken run). */
async function eventually(check: () => Promise<boolean>) {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('not within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('app access tokens in the credential cache', () => {
  it('authenticates a cached access token without a statement: only the nonce and the answer are left', async () => {
    const access = await accessFor(await createUser(world.school.id, 'TEACHER'));
    const statements = async () =>
      (
        await server.database.statementsOf(async () => {
          expect(await status(second, access)).toBe(303);
        })
      ).length;
    expect(await statements()).toBeGreaterThan(2);
    // As for API clients (test/hot-path/credentials.ts): the approval's event may reach the cache after its first
    // answer, which drops the entry once.
    await expect.poll(statements).toBe(2);
  });

  it('refuses a token revoked through this process at once on both instances, which had it cached', async () => {
    const user = await createUser(world.school.id, 'TEACHER');
    const access = await accessFor(user);
    expect([await status(first, access), await status(second, access)]).toEqual([303, 303]);
    const viewer = new Viewer(
      {
        id: user.id,
        role: 'TEACHER',
        districtId: world.district.id,
        schoolId: world.school.id,
        buildingId: null,
        triggerAdmin: false,
      },
      { kind: 'bearer', tokenId: 0 },
    );
    await revokeAppAuthorization(viewer, { appId: app.databaseId });
    expect([await status(first, access), await status(second, access)]).toEqual([401, 401]);
  });

  it('refuses a token another instance revoked, once its event is committed', async () => {
    const user = await createUser(world.school.id, 'STUDENT');
    const access = await accessFor(user);
    expect(await status(second, access)).toBe(303);
    const probe = listenToRealms([{ type: 'USER', id: user.id }], () => {});
    await probe.ready;
    probe.stop();
    // As another server process commits a revocation: the row deleted and the event recorded in one transaction
    // (revoking through the service here would empty this process's caches directly).
    await writeTransaction(async (tx) => {
      const authorization = await tx.appAuthorization.delete({
        where: { userId_appId: { userId: user.id, appId: Number(app.databaseId) } },
      });
      await recordEvent(tx, appEvents.revoke, {
        realm: { type: 'USER', id: user.id },
        objectId: authorization.id,
        actorId: user.id,
        scope: { districtId: world.district.id, schoolId: world.school.id },
      });
    });
    await eventually(async () => (await status(second, access)) === 401);
  });
});

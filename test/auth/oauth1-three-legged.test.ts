import { beforeAll, describe, expect, it } from 'vitest';
import {
  approveRequestToken,
  denyRequestToken,
  hasAuthorized,
  requestTokenForApproval,
  requestTokenMinutes,
} from '../../src/auth/oauth1-authorization';
import { hashToken } from '../../src/auth/secrets';
import { db } from '../../src/db/database';
import { type GraphQLClient, clientsFor } from '../support/client';
import { type World, createWorld, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';
import { testOrigin } from '../support/wire';
import { expectNothingWritten } from '../support/writes';
import {
  type AppKeys,
  type TokenPair,
  accessToken,
  accessTokenUrl,
  hmacHeader,
  registerApp,
  requestToken,
  requestTokenUrl,
  tokenStep,
  usersMe,
} from './oauth1-support';

const server = useTestServer();
const clients = clientsFor(server);
const callback = 'https://app.example/schoology/callback';

let world: World;
let admin: GraphQLClient;
let app: AppKeys;
let otherApp: AppKeys;

beforeAll(async () => {
  world = await createWorld();
  admin = await clients.graphql(world.districtAdmin);
  app = await registerApp(admin, { name: 'Planner', description: 'Plans homework.', redirectUris: [callback] });
  otherApp = await registerApp(admin, { name: 'Other', redirectUris: [callback] });
});

const consumerOf = (keys: AppKeys) => ({ key: keys.consumerKey, secret: keys.consumerSecret });
const ownUrl = (user: { id: number }) => `${testOrigin}/v1/users/${user.id}`;

/** The flow up to an access token for `user`, as schoolopy runs it (callback on the authorize URL, no verifier). */
async function schoolopyAccess(user: { id: number }, keys = app): Promise<TokenPair> {
  const pending = await requestToken(server, keys);
  await approveRequestToken(pending.key, user.id, callback);
  return accessToken(server, keys, pending);
}

/** A signed GraphQL request as the app acting for its user (HMAC-SHA1 with the access token). */
async function graphqlAs(keys: AppKeys, access: TokenPair, query: string) {
  const url = `${testOrigin}/graphql`;
  const response = await server.app.fetch(
    new Request(url, {
      method: 'POST',
      headers: {
        authorization: hmacHeader('POST', url, consumerOf(keys), access),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ query }),
    }),
  );
  return { status: response.status, body: await response.json() };
}

describe('three-legged OAuth as schoolopy speaks it', () => {
  it('issues a request token, has it approved, exchanges it, and acts as the user on /v1 and /graphql', async () => {
    const consumer = consumerOf(app);
    const before = Date.now();
    const step1 = await tokenStep(server, requestTokenUrl, hmacHeader('GET', requestTokenUrl, consumer));
    const after = Date.now();
    expect(step1.status).toBe(200);
    expect(step1.contentType).toBe('application/x-www-form-urlencoded');
    // Without oauth_callback (OAuth 1.0, as schoolopy asks) nothing is confirmed.
    expect(Object.keys(step1.form!).sort()).toEqual(['oauth_token', 'oauth_token_secret']);
    const pending = { key: step1.form!.oauth_token!, secret: step1.form!.oauth_token_secret! };
    const stored = await db().oAuthRequestToken.findUniqueOrThrow({ where: { tokenHash: hashToken(pending.key) } });
    expect(stored.encryptedSecret).not.toContain(pending.secret);
    const lifetime = requestTokenMinutes * 60_000;
    expect(stored.expiresAt.getTime()).toBeGreaterThanOrEqual(before + lifetime);
    expect(stored.expiresAt.getTime()).toBeLessThanOrEqual(after + lifetime);

    // schoolopy names the callback on the authorize URL.
    expect(await requestTokenForApproval(pending.key, callback)).toEqual({
      appName: 'Planner',
      appId: Number(app.databaseId),
      callback,
      expired: false,
    });
    expect(await hasAuthorized(world.teacher.id, Number(app.databaseId))).toBe(false);
    const events = await watchDomainEvents();
    expect(await approveRequestToken(pending.key, world.teacher.id, callback)).toEqual({
      redirectTo: `${callback}?oauth_token=${pending.key}`,
      verifier: null,
    });
    expect((await events()).map(([type, , realmId]) => [type, realmId])).toEqual([
      ['app_authorization.create', world.teacher.id],
    ]);
    expect(await hasAuthorized(world.teacher.id, Number(app.databaseId))).toBe(true);
    // Approved: the page has nothing left to ask.
    expect(await requestTokenForApproval(pending.key)).toBeNull();

    const step3 = await tokenStep(server, accessTokenUrl, hmacHeader('GET', accessTokenUrl, consumer, pending));
    expect(step3.status).toBe(200);
    expect(step3.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.keys(step3.form!).sort()).toEqual(['oauth_token', 'oauth_token_secret']);
    const access = { key: step3.form!.oauth_token!, secret: step3.form!.oauth_token_secret! };
    expect(access.key).not.toBe(pending.key);

    const me = await usersMe(server, app, access);
    expect(me.status, me.text).toBe(303);
    expect(me.location).toBe(ownUrl(world.teacher));
    const viewer = await graphqlAs(app, access, '{ viewer { databaseId authorizedApps { appName appDescription } } }');
    expect(viewer).toEqual({
      status: 200,
      body: {
        data: {
          viewer: {
            databaseId: String(world.teacher.id),
            authorizedApps: [{ appName: 'Planner', appDescription: 'Plans homework.' }],
          },
        },
      },
    });
  });

  it('answers POST as GET on both token steps', async () => {
    const consumer = consumerOf(app);
    const step1 = await tokenStep(server, requestTokenUrl, hmacHeader('POST', requestTokenUrl, consumer), 'POST');
    expect(step1.status).toBe(200);
    const pending = { key: step1.form!.oauth_token!, secret: step1.form!.oauth_token_secret! };
    await approveRequestToken(pending.key, world.student.id);
    const step3 = await tokenStep(
      server,
      accessTokenUrl,
      hmacHeader('POST', accessTokenUrl, consumer, pending),
      'POST',
    );
    expect(step3.status).toBe(200);
    const access = { key: step3.form!.oauth_token!, secret: step3.form!.oauth_token_secret! };
    expect((await usersMe(server, app, access)).location).toBe(ownUrl(world.student));
  });

  it('sends no redirect when there is no callback or it is oob', async () => {
    const first = await requestToken(server, app);
    expect(await approveRequestToken(first.key, world.parent.id)).toEqual({ redirectTo: null, verifier: null });
    const second = await requestToken(server, app);
    expect(await approveRequestToken(second.key, world.parent.id, 'oob')).toEqual({ redirectTo: null, verifier: null });
  });

  it('remembers consent once per user and app', async () => {
    await schoolopyAccess(world.schoolAdmin);
    await schoolopyAccess(world.schoolAdmin);
    expect(
      await db().appAuthorization.count({ where: { userId: world.schoolAdmin.id, appId: Number(app.databaseId) } }),
    ).toBe(1);
  });
});

describe('three-legged OAuth 1.0a with a callback at request_token', () => {
  it('confirms the callback, gives a verifier with the redirect, and requires it at the exchange', async () => {
    const consumer = consumerOf(app);
    const step1 = await tokenStep(
      server,
      requestTokenUrl,
      hmacHeader('GET', requestTokenUrl, consumer, undefined, { oauth_callback: callback }),
    );
    expect(step1.form).toMatchObject({ oauth_callback_confirmed: 'true' });
    const pending = { key: step1.form!.oauth_token!, secret: step1.form!.oauth_token_secret! };
    // The authorize URL's callback cannot replace the one confirmed at request_token.
    expect((await requestTokenForApproval(pending.key, 'https://elsewhere.example/'))?.callback).toBe(callback);
    const { redirectTo, verifier } = await approveRequestToken(pending.key, world.teacher.id);
    expect(verifier).toMatch(/^[\w-]{20,}$/);
    expect(redirectTo).toBe(`${callback}?oauth_token=${pending.key}&oauth_verifier=${verifier}`);

    for (const extras of [{}, { oauth_verifier: 'wrong' }] as Record<string, string>[]) {
      const refused = await expectNothingWritten(() =>
        tokenStep(server, accessTokenUrl, hmacHeader('GET', accessTokenUrl, consumer, pending, extras)),
      );
      expect(refused).toMatchObject({ status: 401, contentType: 'text/plain; charset=utf-8' });
    }
    const access = await accessToken(server, app, pending, { oauth_verifier: verifier! });
    expect((await usersMe(server, app, access)).location).toBe(ownUrl(world.teacher));
  });

  it('refuses a callback the app did not register, at request_token and on the authorize URL', async () => {
    const consumer = consumerOf(app);
    const refused = await expectNothingWritten(() =>
      tokenStep(
        server,
        requestTokenUrl,
        hmacHeader('GET', requestTokenUrl, consumer, undefined, { oauth_callback: 'https://evil.example/' }),
      ),
    );
    expect(refused).toMatchObject({
      status: 400,
      text: JSON.stringify({ error: 'oauth_callback is not a redirect URI registered for this app' }),
    });
    const pending = await requestToken(server, app);
    await expect(requestTokenForApproval(pending.key, `${callback}/more`)).rejects.toThrow(/not a redirect URI/);
    await expect(approveRequestToken(pending.key, world.teacher.id, `${callback}?x=1`)).rejects.toThrow(
      /not a redirect URI/,
    );
    expect(await hasAuthorized(world.otherSchoolStudent.id, Number(app.databaseId))).toBe(false);
  });
});

describe('refusals write nothing', () => {
  const exchange = (keys: AppKeys, pending: TokenPair) =>
    expectNothingWritten(() =>
      tokenStep(server, accessTokenUrl, hmacHeader('GET', accessTokenUrl, consumerOf(keys), pending)),
    );

  it('refuses an unapproved request token', async () => {
    const pending = await requestToken(server, app);
    expect(await exchange(app, pending)).toMatchObject({
      status: 401,
      text: 'Invalid, expired or unapproved request token',
    });
  });

  it('refuses an expired request token, and the approval page says it expired', async () => {
    const pending = await requestToken(server, app);
    await db().oAuthRequestToken.update({
      where: { tokenHash: hashToken(pending.key) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await requestTokenForApproval(pending.key)).toMatchObject({ expired: true });
    await expect(approveRequestToken(pending.key, world.teacher.id)).rejects.toThrow(/expired/);
    const approved = await requestToken(server, app);
    await approveRequestToken(approved.key, world.teacher.id);
    await db().oAuthRequestToken.update({
      where: { tokenHash: hashToken(approved.key) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await exchange(app, approved)).status).toBe(401);
  });

  it('exchanges a request token once', async () => {
    const pending = await requestToken(server, app);
    await approveRequestToken(pending.key, world.teacher.id);
    await accessToken(server, app, pending);
    expect((await exchange(app, pending)).status).toBe(401);
  });

  it("refuses another app's request token", async () => {
    const pending = await requestToken(server, app);
    await approveRequestToken(pending.key, world.teacher.id);
    expect((await exchange(otherApp, pending)).status).toBe(401);
    // Still the app's to exchange.
    await accessToken(server, app, pending);
  });

  it('refuses a request token signed with the wrong secret', async () => {
    const pending = await requestToken(server, app);
    await approveRequestToken(pending.key, world.teacher.id);
    expect((await exchange(app, { key: pending.key, secret: 'not-the-secret' })).text).toBe('Invalid OAuth signature');
  });

  it('refuses a denied request token, and sends the user back with denied=<token>', async () => {
    const pending = await requestToken(server, app);
    expect(await denyRequestToken(pending.key, callback)).toEqual({
      redirectTo: `${callback}?denied=${pending.key}`,
    });
    expect((await exchange(app, pending)).status).toBe(401);
    expect(await requestTokenForApproval(pending.key)).toBeNull();
  });

  it('refuses unknown keys and a token at request_token', async () => {
    const signed = (consumer: { key: string; secret: string }, token?: TokenPair) =>
      expectNothingWritten(() =>
        tokenStep(server, requestTokenUrl, hmacHeader('GET', requestTokenUrl, consumer, token)),
      );
    expect(await signed({ key: 'nobody', secret: 'x' })).toMatchObject({ status: 401, text: 'Unknown consumer key' });
    expect(await signed({ key: app.consumerKey, secret: 'wrong' })).toMatchObject({ status: 401 });
    expect(await signed(consumerOf(app), { key: 'a-token', secret: '' })).toMatchObject({
      status: 401,
      text: 'request_token takes no oauth_token',
    });
    const unsigned = await expectNothingWritten(() => tokenStep(server, requestTokenUrl, ''));
    expect(unsigned).toMatchObject({ status: 401 });
    const put = await server.fetch('/v1/oauth/request_token', { method: 'PUT' });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, POST']);
  });

  it('refuses a replayed token request', async () => {
    const authorization = hmacHeader('GET', requestTokenUrl, consumerOf(app));
    expect((await tokenStep(server, requestTokenUrl, authorization)).status).toBe(200);
    const replay = await expectNothingWritten(() => tokenStep(server, requestTokenUrl, authorization));
    expect(replay.text).toContain('Duplicate timestamp/nonce');
  });
});

describe('acting for the user', () => {
  it("refuses the app's consumer key without a token, or with a token it does not hold", async () => {
    const access = await schoolopyAccess(world.teacher);
    const plain = await server.app.fetch(
      new Request(`${testOrigin}/v1/users/me`, {
        headers: { authorization: hmacHeader('GET', `${testOrigin}/v1/users/me`, consumerOf(app)) },
      }),
    );
    expect(plain.status).toBe(401);
    expect((await usersMe(server, otherApp, access)).status).toBe(401);
    expect((await usersMe(server, app, { key: access.key, secret: 'wrong' })).status).toBe(401);
  });

  it('stops acting once the user revokes the app, and lists it no more', async () => {
    const access = await schoolopyAccess(world.teacher);
    const teacher = await clients.graphql(world.teacher);
    const revoke = await teacher(
      `mutation($appId: ID!) { revokeAppAuthorization(input: { appId: $appId }) { revokedAppId userErrors { code } } }`,
      { appId: app.id },
    );
    expect(revoke.data.revokeAppAuthorization).toEqual({ revokedAppId: app.id, userErrors: [] });
    expect((await usersMe(server, app, access)).status).toBe(401);
    expect((await teacher('{ viewer { authorizedApps { appName } } }')).data.viewer.authorizedApps).toEqual([]);
    expect(await hasAuthorized(world.teacher.id, Number(app.databaseId))).toBe(false);
  });

  it("lets the user's administrator revoke, and no one else", async () => {
    const access = await schoolopyAccess(world.student);
    const revokeDoc = `mutation($input: RevokeAppAuthorizationInput!) {
      revokeAppAuthorization(input: $input) { revokedAppId userErrors { code } } }`;
    const input = { appId: app.id, userId: String(world.student.id) };
    const teacher = await clients.graphql(world.teacher);
    const refused = await expectNothingWritten(() => teacher(revokeDoc, { input }));
    expect(refused.errors).toMatchObject([{ extensions: { code: 'FORBIDDEN' } }]);
    expect((await usersMe(server, app, access)).status).toBe(303);
    const schoolAdmin = await clients.graphql(world.schoolAdmin);
    expect((await schoolAdmin(revokeDoc, { input })).data.revokeAppAuthorization).toEqual({
      revokedAppId: app.id,
      userErrors: [],
    });
    expect((await usersMe(server, app, access)).status).toBe(401);
  });

  it('stops every token of an app that is deleted', async () => {
    const doomed = await registerApp(admin, { name: 'Doomed', redirectUris: [callback] });
    const teacherAccess = await schoolopyAccess(world.teacher, doomed);
    const parentAccess = await schoolopyAccess(world.parent, doomed);
    const events = await watchDomainEvents();
    const deleted = await admin(`mutation($id: ID!) { deleteApp(input: { id: $id }) { deletedAppId } }`, {
      id: doomed.id,
    });
    expect(deleted.data.deleteApp.deletedAppId).toBe(doomed.id);
    expect((await events()).map(([type, , realmId]) => [type, realmId]).sort()).toEqual(
      [
        ['app_authorization.delete', world.parent.id],
        ['app_authorization.delete', world.teacher.id],
      ].sort(),
    );
    expect((await usersMe(server, doomed, teacherAccess)).status).toBe(401);
    expect((await usersMe(server, doomed, parentAccess)).status).toBe(401);
    expect(await db().appAccessToken.count({ where: { authorization: { appId: Number(doomed.databaseId) } } })).toBe(0);
  });
});

describe('OpenAPI', () => {
  it('describes both token endpoints, for GET and POST, with the form-encoded answer', async () => {
    const document = await (await server.fetch('/v1/openapi.json')).json();
    for (const path of ['/oauth/request_token', '/oauth/access_token']) {
      expect(Object.keys(document.paths[path]).sort()).toEqual(['get', 'post']);
      expect(Object.keys(document.paths[path].get.responses['200'].content)).toEqual([
        'application/x-www-form-urlencoded',
      ]);
    }
  });
});

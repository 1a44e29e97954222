import { createClient } from 'graphql-ws';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import type { AppKeys } from '../auth/oauth1-support';
import { type GraphQLClient, clientsFor } from '../support/client';
import { type World, createWorld } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';
import { expectNothingWritten } from '../support/writes';
import { givePassword } from '../signin/pages';
import {
  Browser,
  leftFor,
  pageOf,
  redirectUri,
  registerOAuth2App,
  relyingParty,
  signedInBrowser,
  startAuthorization,
  viewerWith,
} from './oauth2-support';

const server = useTestServer();
const clients = clientsFor(server);
const password = 'correct horse battery staple';

let world: World;
let admin: GraphQLClient;
let origin: string;
let close: () => Promise<void>;
let publicApp: AppKeys;
let confidentialApp: AppKeys;

beforeAll(async () => {
  world = await createWorld();
  admin = await clients.graphql(world.districtAdmin);
  publicApp = await registerOAuth2App(admin, 'PUBLIC');
  confidentialApp = await registerOAuth2App(admin, 'CONFIDENTIAL', 'Reports');
  for (const user of [world.student, world.teacher, world.parent, world.schoolAdmin])
    await givePassword(user.id, password);
  const listening = await listenOnLoopback(server);
  origin = `http://127.0.0.1:${listening.port}`;
  close = listening.close;
  // The provider's first request makes its signing key: before any test counts rows.
  expect((await fetch(`${origin}/oauth2/jwks`)).status).toBe(200);
});
afterAll(() => close?.());

const approvals = (userId: number) => db().appAuthorization.count({ where: { userId } });

/** Code + PKCE up to the tokens, for a user whose browser is signed in and approved the app before. */
async function tokensFor(browser: Browser, config: client.Configuration) {
  const pending = await startAuthorization(config);
  const back = await leftFor(await browser.follow(pending.url));
  return client.authorizationCodeGrant(config, back, {
    pkceCodeVerifier: pending.verifier,
    expectedState: pending.state,
    expectedNonce: pending.nonce,
  });
}

describe('discovery', () => {
  it('publishes the OpenID and RFC 8414 documents with the endpoints under /oauth2', async () => {
    const openid = await (await fetch(`${origin}/.well-known/openid-configuration`)).json();
    expect(openid).toMatchObject({
      issuer: origin,
      authorization_endpoint: `${origin}/oauth2/authorize`,
      token_endpoint: `${origin}/oauth2/token`,
      revocation_endpoint: `${origin}/oauth2/revoke`,
      jwks_uri: `${origin}/oauth2/jwks`,
      userinfo_endpoint: `${origin}/oauth2/userinfo`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    });
    const rfc8414 = await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json();
    expect(rfc8414).toEqual(openid);
    const { keys } = await (await fetch(`${origin}/oauth2/jwks`)).json();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(keys[0].d).toBeUndefined();
  });
});

describe('authorization code with PKCE, public client', () => {
  it('signs in, asks, and issues tokens that are Bearer credentials on /graphql, /v1 and graphql-ws', async () => {
    const config = await relyingParty(origin, publicApp, 'PUBLIC');
    const pending = await startAuthorization(config);
    const browser = new Browser(origin);
    // Not signed in: the sign-in page, which comes back to the flow.
    const signInPage = pageOf(await browser.follow(pending.url));
    expect(new URL(signInPage.url).pathname).toBe('/sign-in');
    const consent = pageOf(await browser.signIn(signInPage, world.student.username, password));
    expect(consent.status).toBe(200);
    const back = await leftFor(await browser.answer(consent, 'approve'));
    expect(back.origin + back.pathname).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe(pending.state);
    const tokens = await client.authorizationCodeGrant(config, back, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
    });
    const student = await db().user.findUniqueOrThrow({ where: { id: world.student.id } });
    // The ID token: signed (openid-client checked it against jwks), the nonce echoed, sub = the user's global id.
    expect(tokens.claims()).toMatchObject({
      iss: origin,
      aud: publicApp.consumerKey,
      sub: encodeGlobalId('User', student.id),
      nonce: pending.nonce,
      name: `${student.nameFirst} ${student.nameLast}`,
      email: student.email,
    });
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.refresh_token).toBeTruthy();
    expect(await approvals(student.id)).toBe(1);

    expect(await viewerWith(origin, tokens.access_token)).toBe(String(student.id));
    const rest = await fetch(`${origin}/v1/users/${student.id}`, {
      headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'application/json' },
    });
    expect(rest.status).toBe(200);
    expect((await rest.json()).id).toBe(student.id);
    const ws = createClient({
      url: `${origin.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${tokens.access_token}` },
    });
    const { value } = await ws.iterate({ query: '{ viewer { databaseId } }' }).next();
    expect(value?.data).toEqual({ viewer: { databaseId: String(student.id) } });
    await ws.dispose();
  });

  it('refuses an authorization request without PKCE, and writes nothing', async () => {
    const config = await relyingParty(origin, publicApp, 'PUBLIC');
    const browser = await signedInBrowser(origin, world.student.username, password);
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid',
      state: client.randomState(),
    });
    const back = await expectNothingWritten(async () => leftFor(await browser.follow(url)));
    expect(back.origin + back.pathname).toBe(redirectUri);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('refuses a redirect URI that is not exactly registered, without redirecting to it, and writes nothing', async () => {
    const config = await relyingParty(origin, publicApp, 'PUBLIC');
    const browser = await signedInBrowser(origin, world.student.username, password);
    for (const unregistered of [`${redirectUri}/more`, `${redirectUri}?x=1`, redirectUri.replace('https', 'http')]) {
      const pending = await startAuthorization(config, { redirect_uri: unregistered });
      const page = await expectNothingWritten(async () => pageOf(await browser.follow(pending.url)));
      expect(page.status).toBe(400);
      expect(page.headers.get('location')).toBeNull();
      expect(await page.text()).toContain('redirect_uri did not match any of the client');
    }
  });

  it('leaves the state check to the client, whose library refuses a wrong one', async () => {
    const config = await relyingParty(origin, publicApp, 'PUBLIC');
    const browser = await signedInBrowser(origin, world.student.username, password);
    const pending = await startAuthorization(config);
    const back = await leftFor(await browser.follow(pending.url));
    await expect(
      client.authorizationCodeGrant(config, back, {
        pkceCodeVerifier: pending.verifier,
        expectedState: client.randomState(),
        expectedNonce: pending.nonce,
      }),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/"state"/) } });
    // A wrong nonce (an ID token of another request) is refused the same way.
    const again = await startAuthorization(config);
    const returned = await leftFor(await browser.follow(again.url));
    await expect(
      client.authorizationCodeGrant(config, returned, {
        pkceCodeVerifier: again.verifier,
        expectedState: again.state,
        expectedNonce: client.randomNonce(),
      }),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/"nonce"/) } });
  });

  it('refuses a code with the wrong PKCE verifier, and writes nothing', async () => {
    const config = await relyingParty(origin, publicApp, 'PUBLIC');
    const browser = await signedInBrowser(origin, world.student.username, password);
    const pending = await startAuthorization(config);
    const back = await leftFor(await browser.follow(pending.url));
    await expectNothingWritten(() =>
      expect(
        client.authorizationCodeGrant(config, back, {
          pkceCodeVerifier: client.randomPKCECodeVerifier(),
          expectedState: pending.state,
          expectedNonce: pending.nonce,
        }),
      ).rejects.toMatchObject({ error: 'invalid_grant' }),
    );
  });
});

describe('consent', () => {
  it('is remembered per user and app, and revokeAppAuthorization ends the tokens and asks again', async () => {
    const config = await relyingParty(origin, publicApp, 'PUBLIC');
    const browser = await signedInBrowser(origin, world.teacher.username, password);
    const first = await startAuthorization(config);
    await leftFor(await browser.answer(pageOf(await browser.follow(first.url)), 'approve'));
    // The second authorization goes straight back to the app: no page.
    const tokens = await tokensFor(browser, config);
    expect(await viewerWith(origin, tokens.access_token)).toBe(String(world.teacher.id));

    const teacher = await clients.graphql(world.teacher);
    const listed = await teacher('{ viewer { authorizedApps { appId appName } } }');
    expect(listed.data.viewer.authorizedApps).toEqual([{ appId: publicApp.id, appName: 'Planner' }]);
    const revoked = await teacher(
      'mutation($input: RevokeAppAuthorizationInput!) { revokeAppAuthorization(input: $input) { revokedAppId userErrors { code } } }',
      { input: { appId: publicApp.id } },
    );
    expect(revoked.data.revokeAppAuthorization).toEqual({ revokedAppId: publicApp.id, userErrors: [] });
    expect(await viewerWith(origin, tokens.access_token)).toBe(401);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(
      await db().oAuth2Record.count({ where: { userId: world.teacher.id, appId: Number(publicApp.databaseId) } }),
    ).toBe(0);
    // Asked again.
    const next = await startAuthorization(config);
    const page = pageOf(await browser.follow(next.url));
    expect(await page.text()).toContain('Planner wants to act for you');
  });

  it('denied: the app gets access_denied with its state, and nothing is approved', async () => {
    const config = await relyingParty(origin, publicApp, 'PUBLIC');
    const browser = await signedInBrowser(origin, world.parent.username, password);
    const pending = await startAuthorization(config);
    const back = await leftFor(await browser.answer(pageOf(await browser.follow(pending.url)), 'deny'));
    expect(back.origin + back.pathname).toBe(redirectUri);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe(pending.state);
    expect(back.searchParams.get('code')).toBeNull();
    expect(await approvals(world.parent.id)).toBe(0);
  });

  it('a browser whose Lectern session ended signs in again before any new code', async () => {
    const config = await relyingParty(origin, publicApp, 'PUBLIC');
    const browser = await signedInBrowser(origin, world.schoolAdmin.username, password);
    const first = await startAuthorization(config);
    await leftFor(await browser.answer(pageOf(await browser.follow(first.url)), 'approve'));
    await db().session.deleteMany({ where: { userId: world.schoolAdmin.id } });
    const next = await startAuthorization(config);
    const page = pageOf(await browser.follow(next.url));
    expect(new URL(page.url).pathname).toBe('/sign-in');
  });
});

describe('confidential client', () => {
  it('exchanges its code with its secret, and is refused with a wrong one (writing nothing)', async () => {
    const config = await relyingParty(origin, confidentialApp, 'CONFIDENTIAL');
    const browser = await signedInBrowser(origin, world.student.username, password);
    const pending = await startAuthorization(config);
    const back = await leftFor(await browser.answer(pageOf(await browser.follow(pending.url)), 'approve'));
    const impostor = await client.discovery(
      new URL(origin),
      confidentialApp.consumerKey,
      undefined,
      client.ClientSecretBasic('not-the-secret'),
      { execute: [client.allowInsecureRequests] },
    );
    const checks = { pkceCodeVerifier: pending.verifier, expectedState: pending.state, expectedNonce: pending.nonce };
    await expectNothingWritten(() =>
      expect(client.authorizationCodeGrant(impostor, back, checks)).rejects.toMatchObject({
        status: 401,
        response: expect.objectContaining({ status: 401 }),
      }),
    );
    const tokens = await client.authorizationCodeGrant(config, back, checks);
    expect(await viewerWith(origin, tokens.access_token)).toBe(String(world.student.id));
  });
});

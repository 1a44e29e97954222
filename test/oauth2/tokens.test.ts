import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Viewer } from '../../src/auth/viewer';
import { db } from '../../src/db/database';
import { deactivateUser } from '../../src/modules/users/user.service';
import type { AppKeys } from '../auth/oauth1-support';
import { type GraphQLClient, clientsFor } from '../support/client';
import { type World, createUser, createWorld } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';
import { expectNothingWritten } from '../support/writes';
import { givePassword } from '../signin/pages';
import {
  type Browser,
  leftFor,
  pageOf,
  registerOAuth2App,
  relyingParty,
  signedInBrowser,
  startAuthorization,
  viewerWith,
} from './oauth2-support';

// Credentials stay cached for 10 minutes, so only the revocation's own invalidation can stop a token in these tests
// (test/hot-path/ does the same for Lectern's other credentials); the 1 s default bounds the other instances.
const server = useTestServer({ CREDENTIAL_CACHE_MS: '600000' });
const clients = clientsFor(server);
const password = 'correct horse battery staple';

let world: World;
let admin: GraphQLClient;
let origin: string;
let close: () => Promise<void>;
let app: AppKeys;
let config: client.Configuration;

beforeAll(async () => {
  world = await createWorld();
  admin = await clients.graphql(world.districtAdmin);
  app = await registerOAuth2App(admin, 'PUBLIC');
  const listening = await listenOnLoopback(server);
  origin = `http://127.0.0.1:${listening.port}`;
  close = listening.close;
  config = await relyingParty(origin, app, 'PUBLIC');
});
afterAll(() => close?.());

/** A new user of the school with a password, signed in, who approved the app: their browser and first tokens. */
async function approvedUser(rp = config) {
  const user = await createUser(world.school.id, 'STUDENT');
  await givePassword(user.id, password);
  const browser = await signedInBrowser(origin, user.username, password);
  const pending = await startAuthorization(rp);
  const back = await leftFor(await browser.answer(pageOf(await browser.follow(pending.url)), 'approve'));
  const tokens = await client.authorizationCodeGrant(rp, back, {
    pkceCodeVerifier: pending.verifier,
    expectedState: pending.state,
    expectedNonce: pending.nonce,
  });
  // Seen once, so the token is in the credential cache from here on.
  expect(await viewerWith(origin, tokens.access_token)).toBe(String(user.id));
  return { user, browser, tokens };
}

/** Polls until the token is refused (no timing is asserted: the deadline only ends a broken run). */
async function refusedEventually(token: string) {
  const deadline = Date.now() + 10_000;
  while ((await viewerWith(origin, token)) !== 401) {
    if (Date.now() > deadline) throw new Error('the token still works');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function codeFor(browser: Browser) {
  const pending = await startAuthorization(config);
  return pageOf(await browser.follow(pending.url));
}

describe('refresh tokens', () => {
  it('rotate: the used one is refused, and presenting it again revokes the grant and its newer tokens', async () => {
    const { user, tokens } = await approvedUser();
    const rotated = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(rotated.refresh_token).toBeTruthy();
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect(await viewerWith(origin, rotated.access_token)).toBe(String(user.id));
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // The reuse revoked the grant: the rotated refresh token and every access token of it stop.
    await expect(client.refreshTokenGrant(config, rotated.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await refusedEventually(rotated.access_token);
    await refusedEventually(tokens.access_token);
  });
});

describe('revocation', () => {
  it("RFC 7009: a revoked access token stops at once on this instance, though cached, with its grant's tokens", async () => {
    const { user, browser, tokens } = await approvedUser();
    await client.tokenRevocation(config, tokens.access_token);
    await refusedEventually(tokens.access_token);
    // oidc-provider revokes every token of the grant, the refresh token too; the approval stays, so the next
    // authorization needs no consent page.
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const pending = await startAuthorization(config);
    const back = await leftFor(await browser.follow(pending.url));
    const again = await client.authorizationCodeGrant(config, back, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
    });
    expect(await viewerWith(origin, again.access_token)).toBe(String(user.id));
  });

  it('RFC 7009: revoking the refresh token ends the grant, its access tokens too', async () => {
    const { tokens } = await approvedUser();
    await client.tokenRevocation(config, tokens.refresh_token!);
    await refusedEventually(tokens.access_token);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('an unknown token is answered 200 as RFC 7009 says, and nothing is written', async () => {
    await expectNothingWritten(() => client.tokenRevocation(config, 'not-a-token'));
  });

  it("a deactivated user's tokens stop, their refresh token is refused, and they get no new code", async () => {
    const { user, browser, tokens } = await approvedUser();
    const districtAdmin = new Viewer(
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
    await deactivateUser(districtAdmin, user.id, true);
    await refusedEventually(tokens.access_token);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // Their Lectern session no longer counts: the sign-in page, where they cannot sign in.
    const page = await codeFor(browser);
    expect(new URL(page.url).pathname).toBe('/sign-in');
  });

  it("the app's deletion ends its tokens", async () => {
    const other = await registerOAuth2App(admin, 'PUBLIC', 'Short-lived');
    const { tokens } = await approvedUser(await relyingParty(origin, other, 'PUBLIC'));
    const deleted = await admin(
      'mutation($input: DeleteAppInput!) { deleteApp(input: $input) { deletedAppId userErrors { code } } }',
      { input: { id: other.id } },
    );
    expect(deleted.data.deleteApp.userErrors).toEqual([]);
    await refusedEventually(tokens.access_token);
    expect(await db().oAuth2Record.count({ where: { appId: Number(other.databaseId) } })).toBe(0);
  });
});

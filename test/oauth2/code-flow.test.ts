import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { encodeGlobalId } from '../../src/core/global-id';
import type { AppKeys } from '../auth/oauth1-support';
import { type GraphQLClient, clientsFor } from '../support/client';
import { type World, createWorld } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';
import { givePassword } from '../signin/pages';
import {
  Browser,
  leftFor,
  pageOf,
  redirectUri,
  registerOAuth2App,
  relyingParty,
  startAuthorization,
} from './oauth2-support';

const server = useTestServer();
const clients = clientsFor(server);
const password = 'correct horse battery staple';

let world: World;
let admin: GraphQLClient;
let origin: string;
let close: () => Promise<void>;
let publicApp: AppKeys;

beforeAll(async () => {
  world = await createWorld();
  admin = await clients.graphql(world.districtAdmin);
  publicApp = await registerOAuth2App(admin, 'PUBLIC');
  await givePassword(world.student.id, password);
  const listening = await listenOnLoopback(server);
  origin = `http://127.0.0.1:${listening.port}`;
  close = listening.close;
});
afterAll(() => close?.());

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
  });
});

describe('authorization code with PKCE, public client', () => {
  it('signs in, asks, and issues tokens that work as Bearer on /graphql', async () => {
    const config = await relyingParty(origin, publicApp, 'PUBLIC');
    const pending = await startAuthorization(config);
    const browser = new Browser(origin);
    const signInPage = pageOf(await browser.follow(pending.url));
    expect(new URL(signInPage.url).pathname).toBe('/sign-in');
    const consent = pageOf(await browser.signIn(signInPage, world.student.username, password));
    const back = await leftFor(await browser.answer(consent, 'approve'));
    expect(back.origin + back.pathname).toBe(redirectUri);
    const tokens = await client.authorizationCodeGrant(config, back, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
    });
    expect(tokens.claims()).toMatchObject({ sub: encodeGlobalId('User', world.student.id), nonce: pending.nonce });
    const viewer = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ viewer { databaseId } }' }),
    });
    expect(await viewer.json()).toEqual({ data: { viewer: { databaseId: String(world.student.id) } } });
    expect(tokens.refresh_token).toBeTruthy();
    expect(await db().appAuthorization.count({ where: { userId: world.student.id } })).toBe(1);
  });
});

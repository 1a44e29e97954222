/**
 * GraphiQL's built-in client (src/oauth2/first-party.ts) over real HTTP: code + PKCE with no consent page, its one
 * redirect URI (the issuer's /graphql, exactly), no refresh token, and no approval recorded.
 */
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { graphiqlClientId } from '../../src/oauth2/first-party';
import { type World, createWorld } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';
import { expectNothingWritten } from '../support/writes';
import { givePassword } from '../signin/pages';
import { Browser, pageOf, signedInBrowser, viewerWith } from './oauth2-support';

const server = useTestServer();
const password = 'correct horse battery staple';

let world: World;
let origin: string;
let close: () => Promise<void>;
let graphiql: client.Configuration;
let browser: Browser;

beforeAll(async () => {
  world = await createWorld();
  await givePassword(world.student.id, password);
  const listening = await listenOnLoopback(server);
  origin = `http://127.0.0.1:${listening.port}`;
  close = listening.close;
  graphiql = await client.discovery(new URL(origin), graphiqlClientId, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
  browser = await signedInBrowser(origin, world.student.username, password);
});
afterAll(() => close?.());

/** The authorization URL GraphiQL's button sends the browser to, with `overrides` (undefined drops a parameter). */
function authorizationUrl(challenge: string, overrides: Record<string, string | undefined> = {}) {
  const url = new URL(`${origin}/oauth2/authorize`);
  const parameters: Record<string, string | undefined> = {
    client_id: graphiqlClientId,
    redirect_uri: `${origin}/graphql`,
    response_type: 'code',
    scope: 'openid',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'the-state',
    nonce: 'the-nonce',
    ...overrides,
  };
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined) url.searchParams.set(name, value);
  return url;
}

const oauth2Records = () => db().oAuth2Record.count();

/** Follows the flow's redirects until one comes back to GraphiQL (the redirect URI, on this server): that URL. */
async function backAtGraphiQL(from: URL): Promise<URL> {
  let at = from;
  for (let hops = 0; hops < 20; hops += 1) {
    const response = await browser.request(at);
    const location = response.headers.get('location');
    if (!location)
      throw new Error(`stopped at ${at.href} (${response.status}): ${(await response.text()).slice(0, 300)}`);
    at = new URL(location, at);
    if (at.origin === origin && at.pathname === '/graphql') return at;
  }
  throw new Error('too many redirects');
}

describe('the GraphiQL client', () => {
  it('signs a signed-in user in without a consent page, issues no refresh token and records no approval', async () => {
    const verifier = client.randomPKCECodeVerifier();
    const challenge = await client.calculatePKCECodeChallenge(verifier);
    // offline_access with prompt=consent is how a client asks for a refresh token: this one gets none.
    const back = await backAtGraphiQL(
      authorizationUrl(challenge, { scope: 'openid offline_access', prompt: 'consent' }),
    );
    expect(back.origin + back.pathname).toBe(`${origin}/graphql`);
    expect(back.searchParams.get('state')).toBe('the-state');
    expect(back.searchParams.get('iss')).toBe(origin);
    const tokens = await client.authorizationCodeGrant(graphiql, back, {
      pkceCodeVerifier: verifier,
      expectedState: 'the-state',
      expectedNonce: 'the-nonce',
    });
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.claims()?.aud).toBe(graphiqlClientId);
    expect(await viewerWith(origin, tokens.access_token)).toBe(String(world.student.id));
    expect(await db().appAuthorization.count({ where: { userId: world.student.id } })).toBe(0);

    const listed = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ viewer { authorizedApps { appName } } }' }),
    });
    expect(await listed.json()).toEqual({ data: { viewer: { authorizedApps: [] } } });

    // Revoked as the page's "Sign out" does: the token stops working.
    const revoked = await fetch(`${origin}/oauth2/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.access_token, client_id: graphiqlClientId }),
    });
    expect(revoked.status).toBe(200);
    expect(await viewerWith(origin, tokens.access_token)).toBe(401);
  });

  it.each([
    ['another path', (at: string) => `${at}/graphql/`],
    ['the root', (at: string) => `${at}/`],
    ['a query string', (at: string) => `${at}/graphql?next=1`],
    ['another origin', (at: string) => `${at.replace('127.0.0.1', 'localhost')}/graphql`],
    ['another host', () => 'https://graphiql.example/graphql'],
  ])('refuses a redirect URI on %s, writing nothing', async (_case, redirectTo) => {
    const challenge = await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier());
    // A browser with no provider session, which any request would refresh (a write of its own).
    const page = await expectNothingWritten(async () =>
      pageOf(await new Browser(origin).follow(authorizationUrl(challenge, { redirect_uri: redirectTo(origin) }))),
    );
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('redirect_uri did not match any of the client');
  });

  it('requires PKCE: no challenge, a plain one, or a wrong verifier is refused', async () => {
    const before = await oauth2Records();
    for (const overrides of [
      { code_challenge: undefined, code_challenge_method: undefined },
      { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' },
    ]) {
      const back = await backAtGraphiQL(authorizationUrl('unused', overrides));
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('code')).toBeNull();
    }
    expect(await oauth2Records()).toBe(before);

    const challenge = await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier());
    const back = await backAtGraphiQL(authorizationUrl(challenge));
    const exchange = client.authorizationCodeGrant(graphiql, back, {
      pkceCodeVerifier: client.randomPKCECodeVerifier(),
      expectedState: 'the-state',
      expectedNonce: 'the-nonce',
    });
    await expect(exchange).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});

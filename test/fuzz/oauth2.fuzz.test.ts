/**
 * Bounded property-based fuzzing of the OAuth 2.0 endpoints (src/oauth2/), which are served beside yoga and so are not
 * among the /v1 routes the REST fuzz covers: authorize queries, token and revocation forms, and interaction posts made
 * of known and hostile values. No answer may be a 5xx.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOAuth2App } from '../oauth2/oauth2-support';
import { clientsFor } from '../support/client';
import { createWorld } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';

const server = useTestServer({ AUTH_FAILURES_PER_ADDRESS: 'off', AUTH_FAILURES_PER_CONSUMER_KEY: 'off' });
const runs = 40;
let origin: string;
let close: () => Promise<void>;
let clientIds: string[];

beforeAll(async () => {
  const world = await createWorld();
  const admin = await clientsFor(server).graphql(world.districtAdmin);
  clientIds = await Promise.all(
    (['PUBLIC', 'CONFIDENTIAL'] as const).map(async (type) => (await registerOAuth2App(admin, type)).consumerKey),
  );
  const listening = await listenOnLoopback(server);
  origin = `http://127.0.0.1:${listening.port}`;
  close = listening.close;
});
afterAll(() => close?.());

const hostile = fc.oneof(
  fc.string(),
  fc.constantFrom('', ' ', '%00', '\u0000', '../../etc', 'https://evil.example/', '{"a":1}', 'x'.repeat(5000)),
);
/** A value for a parameter: one of the known good ones (so that requests get past the first check) or a hostile one. */
const value = (...known: string[]) => fc.oneof(fc.constantFrom(...known), hostile);

const parameters = () =>
  fc.record(
    {
      client_id: value(...clientIds),
      response_type: value('code', 'token', 'id_token'),
      grant_type: value('authorization_code', 'refresh_token', 'client_credentials', 'password'),
      redirect_uri: value('https://app.example/oauth2/callback'),
      code: hostile,
      code_verifier: hostile,
      code_challenge: value('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'),
      code_challenge_method: value('S256', 'plain'),
      refresh_token: hostile,
      token: hostile,
      token_type_hint: value('access_token', 'refresh_token'),
      scope: value('openid', 'openid profile email offline_access'),
      state: hostile,
      client_secret: hostile,
      prompt: value('none', 'login', 'consent'),
    },
    { requiredKeys: [] },
  );

describe('fuzzed OAuth 2.0 requests', () => {
  it.each([
    ['GET', '/oauth2/authorize'],
    ['POST', '/oauth2/token'],
    ['POST', '/oauth2/revoke'],
    ['GET', '/oauth2/userinfo'],
    ['POST', '/oauth2/interaction/unknown'],
  ])('%s %s: no 5xx', async (method, path) => {
    await fc.assert(
      fc.asyncProperty(parameters(), async (fields) => {
        const form = new URLSearchParams(fields as Record<string, string>);
        const response =
          method === 'GET'
            ? await fetch(`${origin}${path}?${form}`, { redirect: 'manual' })
            : await fetch(`${origin}${path}`, {
                method,
                redirect: 'manual',
                headers: { 'content-type': 'application/x-www-form-urlencoded' },
                body: form,
              });
        await response.arrayBuffer();
        expect(response.status, `${method} ${path}?${form}`).toBeLessThan(500);
      }),
      { seed: 6, numRuns: runs },
    );
  });
});

import { createHmac, randomInt } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import { expect } from 'vitest';
import type { TestServer } from '../support/harness';
import { testOrigin } from '../support/wire';

export interface AppKeys {
  id: string;
  databaseId: string;
  consumerKey: string;
  consumerSecret: string;
}

/** A token pair as the endpoints answer them. */
export interface TokenPair {
  key: string;
  secret: string;
}

const registerAppDoc = `mutation($input: RegisterAppInput!) { registerApp(input: $input) {
  registeredApp { id databaseId consumerKey consumerSecret } app { id name redirectUris }
  userErrors { field code message } } }`;

/** Registers an app through GraphQL as the given district administrator (a GraphQL client of support/client.ts). */
export async function registerApp(
  graphql: (query: string, variables?: Record<string, unknown>) => Promise<{ data?: any; errors?: unknown }>,
  input: { name: string; description?: string; redirectUris?: string[]; clientType?: 'PUBLIC' | 'CONFIDENTIAL' },
): Promise<AppKeys> {
  const answer = await graphql(registerAppDoc, { input });
  expect(answer.errors).toBeUndefined();
  expect(answer.data.registerApp.userErrors).toEqual([]);
  return answer.data.registerApp.registeredApp;
}

/**
 * The Authorization header requests-oauthlib (under schoolopy) makes: HMAC-SHA1, no realm, and the oauth_* extras
 * (oauth_callback, oauth_verifier) signed and sent in the header.
 */
export function hmacHeader(
  method: string,
  url: string,
  consumer: { key: string; secret: string },
  token?: TokenPair,
  extras: Record<string, string> = {},
): string {
  const oauth = new OAuth({
    consumer,
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
  const data = oauth.authorize(
    { method, url, data: extras },
    token ? { key: token.key, secret: token.secret } : undefined,
  );
  return oauth.toHeader({ ...data, ...extras } as OAuth.Authorization).Authorization;
}

/** The header schoolopy writes by hand for API calls: PLAINTEXT, `secret%26tokensecret`, an 8-digit nonce. */
export function schoolopyHeader(consumer: { key: string; secret: string }, access: TokenPair): string {
  const nonce = Array.from({ length: 8 }, () => randomInt(10)).join('');
  return [
    'OAuth realm="Schoology API"',
    `oauth_consumer_key="${consumer.key}"`,
    `oauth_token="${access.key}"`,
    `oauth_nonce="${nonce}"`,
    `oauth_timestamp="${Math.floor(Date.now() / 1000)}"`,
    'oauth_signature_method="PLAINTEXT"',
    'oauth_version="1.0"',
    `oauth_signature="${consumer.secret}%26${access.secret}"`,
  ].join(',');
}

export const requestTokenUrl = `${testOrigin}/v1/oauth/request_token`;
export const accessTokenUrl = `${testOrigin}/v1/oauth/access_token`;

/** A token step's answer: status, content type, the parsed form (200) or the text. */
export async function tokenStep(server: TestServer, url: string, authorization: string, method = 'GET') {
  const response = await server.app.fetch(new Request(url, { method, headers: { authorization } }));
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
    form: response.status === 200 ? Object.fromEntries(new URLSearchParams(text)) : null,
  };
}

/** Requests a request token for the app, as schoolopy does (no callback) or with an OAuth 1.0a callback. */
export async function requestToken(server: TestServer, app: AppKeys, callback?: string): Promise<TokenPair> {
  const consumer = { key: app.consumerKey, secret: app.consumerSecret };
  const answer = await tokenStep(
    server,
    requestTokenUrl,
    hmacHeader('GET', requestTokenUrl, consumer, undefined, callback === undefined ? {} : { oauth_callback: callback }),
  );
  expect(answer.status, answer.text).toBe(200);
  return { key: answer.form!.oauth_token!, secret: answer.form!.oauth_token_secret! };
}

/** Exchanges an approved request token, as schoolopy's `authorize()` does (GET, HMAC-SHA1, no verifier). */
export async function accessToken(
  server: TestServer,
  app: AppKeys,
  requestToken: TokenPair,
  extras: Record<string, string> = {},
): Promise<TokenPair> {
  const consumer = { key: app.consumerKey, secret: app.consumerSecret };
  const answer = await tokenStep(
    server,
    accessTokenUrl,
    hmacHeader('GET', accessTokenUrl, consumer, requestToken, extras),
  );
  expect(answer.status, answer.text).toBe(200);
  return { key: answer.form!.oauth_token!, secret: answer.form!.oauth_token_secret! };
}

/**
 * GET /v1/users/me as the app acting with the access token, with schoolopy's hand-written header: the platform answers
 * 303 to the user's own URL, whose id names whom the app acts as.
 */
export async function usersMe(
  server: TestServer,
  app: AppKeys,
  access: TokenPair,
  fetch: (request: Request) => Response | Promise<Response> = (request) => server.app.fetch(request),
) {
  const response = await fetch(
    new Request(`${testOrigin}/v1/users/me`, {
      headers: {
        authorization: schoolopyHeader({ key: app.consumerKey, secret: app.consumerSecret }, access),
        accept: 'application/json',
      },
    }),
  );
  return { status: response.status, location: response.headers.get('location'), text: await response.text() };
}

import type { OpenApiOperation, OpenApiPathItem } from '../rest/openapi';
import { lifetimes, oauth2Routes } from './provider';

const form = (
  properties: Record<string, { type: 'string'; description?: string; enum?: string[] }>,
  required: string[],
) => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', required, properties } } },
});
const json = (description: string, properties: Record<string, unknown> = {}) => ({
  description,
  content: { 'application/json': { schema: { type: 'object', properties } } },
});
const oauthError = (description: string) =>
  json(description, { error: { type: 'string' }, error_description: { type: 'string' } });
const query = (name: string, description: string, required = true) => ({
  name,
  in: 'query',
  required,
  description,
  schema: { type: 'string' },
});

const authorize: OpenApiOperation = {
  operationId: 'get_oauth2_authorize',
  summary: "The user signs in and approves the app (authorization code with PKCE, in the user's browser)",
  description: [
    'The app sends its user here (RFC 6749 §4.1, RFC 7636). PKCE with S256 is required of every client. A user who',
    'is not signed in goes to the sign-in page and back; one who approved the app before goes straight back to it.',
    'Errors about the client or its redirect URI are a page; others go back to the redirect URI with `error`.',
  ].join(' '),
  tags: ['oauth2'],
  parameters: [
    query('response_type', '`code`'),
    query('client_id', "The app's consumer key"),
    query('redirect_uri', 'One of the redirect URIs the app registered, exactly'),
    query('code_challenge', 'BASE64URL(SHA-256(code_verifier))'),
    query('code_challenge_method', '`S256`'),
    query('scope', '`openid` for an ID token; `profile`, `email`, `offline_access` are also known', false),
    query('state', 'Echoed back; the app checks it', false),
    query('nonce', 'Echoed in the ID token', false),
  ],
  responses: {
    '303': { description: 'To the sign-in or consent page, or back to the redirect URI with `code` or `error`' },
    '400': {
      description: 'An unknown client or a redirect URI it did not register',
      content: { 'text/html': { schema: { type: 'string' } } },
    },
  },
};

const token: OpenApiOperation = {
  operationId: 'post_oauth2_token',
  summary: 'Exchange a code, or a refresh token, for tokens',
  description: [
    `A code works once, for ${lifetimes.authorizationCode} seconds, with its PKCE verifier. The access token is a`,
    `Bearer token for /graphql, /v1 and graphql-ws for ${lifetimes.accessToken / 60} minutes; the refresh token is`,
    'rotated at each use, and presenting a used one revokes the grant. Confidential clients authenticate with their',
    'consumer secret in HTTP Basic; public clients send `client_id` alone.',
  ].join(' '),
  tags: ['oauth2'],
  requestBody: form(
    {
      grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
      code: { type: 'string' },
      redirect_uri: { type: 'string' },
      code_verifier: { type: 'string' },
      refresh_token: { type: 'string' },
      client_id: { type: 'string', description: 'Public clients' },
    },
    ['grant_type'],
  ),
  responses: {
    '200': json('The tokens', {
      access_token: { type: 'string' },
      token_type: { type: 'string' },
      expires_in: { type: 'integer' },
      refresh_token: { type: 'string' },
      id_token: { type: 'string' },
      scope: { type: 'string' },
    }),
    '400': oauthError('`invalid_grant` (a used, expired or revoked code or token, a wrong verifier) and the like'),
    '401': oauthError('`invalid_client`: client authentication failed'),
  },
};

const revoke: OpenApiOperation = {
  operationId: 'post_oauth2_revoke',
  summary: 'Revoke an access or refresh token (RFC 7009)',
  description:
    'The token and every other token of its grant stop, on every instance within a second; the approval stays. An unknown token is answered 200 too.',
  tags: ['oauth2'],
  requestBody: form(
    {
      token: { type: 'string' },
      token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] },
      client_id: { type: 'string', description: 'Public clients' },
    },
    ['token'],
  ),
  responses: { '200': { description: 'Revoked, or nothing to revoke' }, '401': oauthError('`invalid_client`') },
};

const discovery = (operationId: string, summary: string): OpenApiOperation => ({
  operationId,
  summary,
  tags: ['oauth2'],
  responses: { '200': json('The issuer and its endpoints, PKCE methods, scopes and signing algorithms') },
});

/**
 * The OAuth 2.0 endpoints (src/oauth2/), for /v1/openapi.json. They are not under /v1: each path names the server
 * root, `origin`, as its own server.
 */
export function oauth2Paths(origin: string): Record<string, OpenApiPathItem> {
  const servers = [{ url: origin, description: 'The OAuth 2.0 authorization server (the issuer)' }];
  return {
    [oauth2Routes.authorization]: { servers, get: authorize },
    [oauth2Routes.token]: { servers, post: token },
    [oauth2Routes.revocation]: { servers, post: revoke },
    '/.well-known/openid-configuration': {
      servers,
      get: discovery('get_openid_configuration', 'OpenID Connect discovery'),
    },
    '/.well-known/oauth-authorization-server': {
      servers,
      get: discovery('get_oauth_authorization_server', 'Authorization server metadata (RFC 8414)'),
    },
  };
}

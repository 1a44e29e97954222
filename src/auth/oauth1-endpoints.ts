// GET|POST /v1/oauth/request_token and /v1/oauth/access_token: the two signed steps of three-legged OAuth 1.0a. They
// answer form-encoded tokens, not the JSON or XML of the route table, so they are a plugin ahead of the REST facade;
// src/rest/openapi.ts lists them from `oauth1Paths`.
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { db } from '../db/database';
import { type Authenticator, authenticationChallenge, unknownConsumerKey } from './authenticate';
import type { OpenApiOperation, OpenApiPathItem } from '../rest/openapi';
import { clientAddress } from './client-address';
import { OAuth1FlowError, issueRequestToken, requestTokenMinutes } from './oauth1-authorization';
import { decryptSecret, encryptSecret, hashToken, randomToken } from './secrets';

export const requestTokenPath = '/v1/oauth/request_token';
export const accessTokenPath = '/v1/oauth/access_token';

const formEncoded = 'application/x-www-form-urlencoded';

// Tokens and their secrets: no cache may keep them.
const noStore = { 'cache-control': 'no-store' };

const tokenAnswer = (parameters: Record<string, string>) =>
  new Response(new URLSearchParams(parameters).toString(), {
    status: 200,
    headers: { 'content-type': formEncoded, ...noStore },
  });

/**
 * A failure as /v1 answers it: a 401 in plain text (as the platform's OAuth layer answers, src/rest/facade.ts), any
 * other (400, 405, 429) as the JSON error body `{"error": ...}`.
 */
function failure(status: number, message: string, headers: Record<string, string> = {}): Response {
  const plain = status === 401;
  return new Response(plain ? message : JSON.stringify({ error: message }), {
    status,
    headers: {
      'content-type': plain ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
      ...noStore,
      ...headers,
    },
  });
}

/** A refusal as every signed request gets one: its status and headers (401 with the challenge, 429). */
function refusal(error: unknown): Response {
  if (!(error instanceof GraphQLError)) throw error;
  const http = error.extensions?.http as { status?: number; headers?: Record<string, string> } | undefined;
  if (!http?.status) throw error;
  return failure(http.status, error.message, http.headers ?? {});
}

const unauthorized = (message: string) => failure(401, message, { 'www-authenticate': authenticationChallenge });

const appOf = (consumerKey: string) =>
  db().app.findUnique({
    where: { consumerKey },
    select: { id: true, encryptedSecret: true, redirectUris: true },
  });

type AppRow = NonNullable<Awaited<ReturnType<typeof appOf>>>;
/** An approved request token, as its exchange needs it. */
type ApprovedToken = { id: number; appId: number; userId: number };

const invalidRequestToken = 'Invalid, expired or unapproved request token';

export interface OAuth1EndpointOptions {
  authenticate: Authenticator;
  serverKey: Buffer;
  trustProxyHops: number;
}

/** The two token endpoints; every other path passes on. */
export function useOAuth1Endpoints(options: OAuth1EndpointOptions): Plugin {
  const { authenticate, serverKey } = options;

  /** Signed with the app's key and secret and no token; oauth_callback, when sent, must be registered. */
  async function requestToken(request: Request, address: string): Promise<Response> {
    const { credentials, found: app } = await authenticate.signedForTokenStep<AppRow>(
      request,
      address,
      async (sent) => {
        const app = await appOf(sent.consumerKey);
        if (!app) return { refused: unknownConsumerKey };
        if (sent.token !== '') return { refused: 'request_token takes no oauth_token' };
        return {
          secrets: { consumerSecret: decryptSecret(app.encryptedSecret, serverKey), tokenSecret: '' },
          found: app,
        };
      },
    );
    try {
      const issued = await issueRequestToken(app, credentials.params.oauth_callback, serverKey);
      return tokenAnswer({
        oauth_token: issued.token,
        oauth_token_secret: issued.secret,
        ...(issued.callbackConfirmed ? { oauth_callback_confirmed: 'true' } : {}),
      });
    } catch (error) {
      if (error instanceof OAuth1FlowError) return failure(400, error.message);
      throw error;
    }
  }

  /**
   * Signed with the app's key and secret and an approved request token and its secret; a token issued for a callback
   * (OAuth 1.0a) also needs the oauth_verifier its approval gave. The request token goes and an access token comes,
   * in one transaction; every refusal leaves the request token as it was.
   */
  async function accessToken(request: Request, address: string): Promise<Response> {
    const { found: approved } = await authenticate.signedForTokenStep<ApprovedToken>(request, address, async (sent) => {
      const app = await appOf(sent.consumerKey);
      if (!app) return { refused: unknownConsumerKey };
      const found = await db().oAuthRequestToken.findUnique({
        where: { tokenHash: hashToken(sent.token) },
        select: {
          id: true,
          appId: true,
          encryptedSecret: true,
          approvedById: true,
          verifierHash: true,
          expiresAt: true,
        },
      });
      // Another app's token, a denied or used one (deleted), an unapproved or expired one: all the same refusal.
      if (!found || found.appId !== app.id || found.approvedById === null || found.expiresAt.getTime() <= Date.now())
        return { refused: invalidRequestToken };
      const verifier = sent.params.oauth_verifier;
      if (found.verifierHash !== null && (verifier === undefined || hashToken(verifier) !== found.verifierHash))
        return { refused: 'Invalid oauth_verifier' };
      return {
        secrets: {
          consumerSecret: decryptSecret(app.encryptedSecret, serverKey),
          tokenSecret: decryptSecret(found.encryptedSecret, serverKey),
        },
        found: { id: found.id, appId: app.id, userId: found.approvedById },
      };
    });
    const token = randomToken(32);
    const secret = randomToken(32);
    const exchanged = await db()
      .$transaction(async (tx) => {
        // Conditional, so that of two exchanges racing for one token only the first gets an access token.
        const { count } = await tx.oAuthRequestToken.deleteMany({ where: { id: approved.id } });
        if (count === 0) return false;
        // Revoked between approval and exchange: nothing to issue under.
        const authorization = await tx.appAuthorization.findUnique({
          where: { userId_appId: { userId: approved.userId, appId: approved.appId } },
          select: { id: true },
        });
        if (!authorization) throw new RevokedMeanwhile();
        await tx.appAccessToken.create({
          data: {
            authorizationId: authorization.id,
            tokenHash: hashToken(token),
            encryptedSecret: encryptSecret(secret, serverKey),
          },
        });
        return true;
      })
      .catch((error) => {
        if (error instanceof RevokedMeanwhile) return false;
        throw error;
      });
    if (!exchanged) return unauthorized(invalidRequestToken);
    return tokenAnswer({ oauth_token: token, oauth_token_secret: secret });
  }

  const steps: Record<string, typeof requestToken> = {
    [requestTokenPath]: requestToken,
    [accessTokenPath]: accessToken,
  };

  return {
    async onRequest({ request, url, endResponse, serverContext }) {
      const step = steps[url.pathname];
      if (!step) return;
      if (request.method !== 'GET' && request.method !== 'POST') {
        return endResponse(failure(405, `${request.method} is not allowed here`, { allow: 'GET, POST' }));
      }
      const address = clientAddress(request, serverContext as Record<string, unknown>, options.trustProxyHops);
      try {
        endResponse(await step(request, address));
      } catch (error) {
        endResponse(refusal(error));
      }
    },
  };
}

/** Rolls the exchange back when the user revoked the app after approving it. */
class RevokedMeanwhile extends Error {}

const tokenResponses = (what: string) => ({
  '200': {
    description: `${what}, form-encoded as RFC 5849 answers (not JSON).`,
    content: {
      [formEncoded]: {
        schema: {
          type: 'object',
          required: ['oauth_token', 'oauth_token_secret'],
          properties: {
            oauth_token: { type: 'string' },
            oauth_token_secret: { type: 'string' },
          },
        },
      },
    },
  },
  '401': {
    description: 'Unknown key or token, a bad signature, a stale timestamp or a replayed nonce (plain text).',
    content: { 'text/plain': { schema: { type: 'string' } } },
  },
  '429': { $ref: '#/components/responses/TooManyRequests' },
  '500': { $ref: '#/components/responses/InternalError' },
});

/** The two endpoints as OpenAPI path items (GET and POST alike), for src/rest/openapi.ts. */
export function oauth1Paths(): Record<string, OpenApiPathItem> {
  const requestTokenOperation = (method: 'get' | 'post'): OpenApiOperation => ({
    operationId: `${method}_oauth_request_token`,
    summary: 'Get a request token (three-legged OAuth, step 1)',
    description: [
      "Signed with a registered app's consumer key and secret and no token. `oauth_callback` (in the Authorization",
      "header) is optional: `oob`, or one of the app's redirect URIs exactly; when sent, the answer adds",
      '`oauth_callback_confirmed=true` and the exchange needs the `oauth_verifier` approval gives. Without it (as the',
      "platform's own clients do) the callback may be named on the authorize URL instead. The token lasts",
      `${requestTokenMinutes} minutes and is exchanged once.`,
    ].join(' '),
    tags: ['oauth'],
    responses: {
      ...tokenResponses('The request token and its secret, and `oauth_callback_confirmed=true` for a callback'),
      // oauth_callback is not registered for the app.
      '400': { $ref: '#/components/responses/BadRequest' },
    },
  });
  const accessTokenOperation = (method: 'get' | 'post'): OpenApiOperation => ({
    operationId: `${method}_oauth_access_token`,
    summary: 'Exchange an approved request token for an access token (step 3)',
    description: [
      'Signed with the consumer key and secret and the approved request token and its secret (with',
      '`oauth_verifier` when the request token was issued for a callback). The request token is used up; the access',
      'token signs API requests as the approving user until the user, an administrator or the app’s deletion revokes it.',
    ].join(' '),
    tags: ['oauth'],
    responses: tokenResponses('The access token and its secret'),
  });
  const page = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
  const authorizeResponses = {
    '200': page('The consent page (or, for an `oob` client, the page showing the verifier)'),
    '303': {
      description:
        'To the sign-in page (and back) when no one is signed in; to the callback with `oauth_token` (and ' +
        '`oauth_verifier`) once approved, or with `denied` when refused.',
    },
    '400': page('No request token, or a callback the app did not register'),
    '404': page('The request token is unknown, expired, or answered already'),
  };
  return {
    [requestTokenPath.slice('/v1'.length)]: { get: requestTokenOperation('get'), post: requestTokenOperation('post') },
    // A page for people in browsers, also at /oauth/authorize (where schoolopy sends them), listed for app developers.
    '/oauth/authorize': {
      get: {
        operationId: 'get_oauth_authorize',
        summary: "The user approves a request token (step 2, in the user's browser)",
        description:
          'The app sends its user here. A user who approved the app before goes straight back to the callback.',
        tags: ['oauth'],
        parameters: [
          { name: 'oauth_token', in: 'query', required: true, schema: { type: 'string' } },
          {
            name: 'oauth_callback',
            in: 'query',
            required: false,
            description: "Where to return: one of the app's redirect URIs exactly, when step 1 named none.",
            schema: { type: 'string' },
          },
        ],
        responses: authorizeResponses,
      },
      post: {
        operationId: 'post_oauth_authorize',
        summary: "The consent page's answer (a form with the session's CSRF token)",
        tags: ['oauth'],
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                required: ['oauth_token', 'decision', 'csrf'],
                properties: {
                  oauth_token: { type: 'string' },
                  oauth_callback: { type: 'string' },
                  decision: { type: 'string', enum: ['approve', 'deny'] },
                  csrf: { type: 'string' },
                },
              },
            },
          },
        },
        responses: { ...authorizeResponses, '403': page('The CSRF token is missing or wrong') },
      },
    },
    [accessTokenPath.slice('/v1'.length)]: { get: accessTokenOperation('get'), post: accessTokenOperation('post') },
  };
}

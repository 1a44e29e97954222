import type { GraphQLError } from 'graphql';
import type { Redis } from 'ioredis';
import { perTurnLoader } from '../db/per-turn-loader';
import { db, directQuery } from '../db/database';
import { httpError } from '../core/errors';
import { type AuthFailureReason, countAuthFailure } from '../ops/metrics';
import { breakerOf } from '../redis/breaker';
import type { AuthAttempt, AuthFailureGuard } from './auth-failures';
import type { CachedAppToken, CredentialCache } from './credential-cache';
import { OAuthError, type OAuthCredentials, assertFreshTimestamp, parseOAuthHeader, verifySignature } from './oauth';
import { liveOAuth2AccessTokens } from '../oauth2/tokens';
import { decryptSecret, hashToken } from './secrets';
import { Viewer, ofActiveUser, toViewerUser, viewerUserSelection } from './viewer';

export interface AuthenticatorOptions {
  /** Key that decrypts consumer secrets. */
  secretKey: Buffer;
  /** Base URL clients call behind a proxy: verified first, before the URL the Host header names. */
  publicUrl: URL | null;
  oauthSkewSeconds: number;
  /** Counts failures per client address and consumer key, and requests without a credential per address. */
  failures: AuthFailureGuard;
  /** Credentials seen lately, so that most requests authenticate without a statement (see CredentialCache). */
  credentials: CredentialCache;
  /** Where OAuth nonces are recorded when there is Redis (REDIS_URL); the database otherwise. */
  redis?: Redis | null;
}

/**
 * Carried in the initial context of executions that share one request's credential (the paths of a multiget): the
 * first to authenticate keeps its outcome here for the others, so the signature is verified and the nonce recorded
 * once per request, however many operations it runs.
 */
export interface SharedCredential {
  viewer?: Promise<Viewer | null>;
}

/** The challenge every 401 carries (RFC 9110 §11.6.1). */
export const authenticationChallenge = 'OAuth realm="Lectern"';

const rejected = (message: string) =>
  httpError(401, 'UNAUTHENTICATED', message, { 'www-authenticate': authenticationChallenge });

// A Host header value: a name or an IPv4/IPv6 literal, and a port. Anything else (a path, userinfo, spaces) names no URL.
const HOST_HEADER = /^(?:[\w.-]+|\[[\da-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The URLs the client may have signed, most likely first and without repeats. Behind a proxy that is PUBLIC_URL's
 * origin and path prefix with the request's path and query. Some clients (requests-oauthlib under schoolopy) sign with
 * the host of the Host header they send instead, so that form follows: in the request's scheme, and in PUBLIC_URL's.
 * Node's adapter builds `request.url` from the Host header, so there the Host form is the URL as received; a Request
 * given to `app.fetch` may carry a Host header of its own, which then wins, as it would on the wire. Trying a second
 * URL is safe because the consumer secret, not the host, is what a signature proves; links never come from here.
 */
export function* signedUrls(request: Request, publicUrl: URL | null): Generator<string> {
  const url = new URL(request.url);
  const pathAndQuery = `${url.pathname}${url.search}`;
  const first = publicUrl ? `${publicUrl.origin}${publicUrl.pathname.replace(/\/$/, '')}${pathAndQuery}` : url.href;
  // Made one at a time: nearly every request matches the first, and the others cost URL parsing.
  yield first;
  const given = new Set([first]);
  const hostHeader = request.headers.get('host')?.trim() || url.host;
  if (!HOST_HEADER.test(hostHeader)) return;
  for (const scheme of new Set([url.protocol, publicUrl?.protocol ?? url.protocol])) {
    // Through URL, so that case and default ports normalize as in the base string and repeats are recognized;
    // a host the pattern lets through but URL refuses ([1:2:3], port 99999) is simply not a candidate.
    if (!URL.canParse(`${scheme}//${hostHeader}`)) continue;
    const candidate = new URL(`${scheme}//${hostHeader}${pathAndQuery}`).href;
    if (given.has(candidate)) continue;
    given.add(candidate);
    yield candidate;
  }
}

/** A nonce's identity: the same nonce with another key or timestamp is another nonce. */
const nonceKey = (consumerKey: string, timestamp: bigint | number | string, nonce: string) =>
  `${consumerKey}\n${timestamp}\n${nonce}`;

/**
 * Records the nonces of one turn with one statement; true for each nonce it recorded, false for one recorded before,
 * or already earlier in the same batch (the later request is the replay).
 */
async function recordNoncesTogether(batch: readonly OAuthCredentials[]): Promise<boolean[]> {
  const keys = batch.map(({ consumerKey, timestamp, nonce }) => nonceKey(consumerKey, timestamp, nonce));
  const firstOf = new Map<string, number>();
  for (const [index, key] of keys.entries()) if (!firstOf.has(key)) firstOf.set(key, index);
  const unique = [...firstOf.values()].map((index) => batch[index]!);
  // A replay inserts no row (ON CONFLICT DO NOTHING), so what comes back is exactly the nonces seen first here. The
  // nonces go as three arrays, so that every batch size is one text: one prepared statement (see `directQuery`).
  const inserted = await directQuery<{ consumerKey: string; timestamp: bigint | string; nonce: string }>(
    `INSERT INTO oauth_nonces ("consumerKey", "timestamp", nonce)
     SELECT * FROM unnest($1::text[], $2::int8[], $3::text[])
     ON CONFLICT DO NOTHING RETURNING "consumerKey", "timestamp", nonce`,
    [
      unique.map(({ consumerKey }) => consumerKey),
      unique.map(({ timestamp }) => timestamp),
      unique.map(({ nonce }) => nonce),
    ],
  );
  const recorded = new Set(inserted.map((row) => nonceKey(row.consumerKey, row.timestamp, row.nonce)));
  return keys.map((key, index) => firstOf.get(key) === index && recorded.has(key));
}

/**
 * Records nonces in the database, the nonces of every request that reaches this point in one turn of the event loop
 * with one statement (see `perTurnLoader`).
 */
function databaseNonceRecorder(): (credentials: OAuthCredentials) => Promise<boolean> {
  const nonces = perTurnLoader(recordNoncesTogether);
  return (credentials) => nonces.load(credentials);
}

export function createAuthenticator(options: AuthenticatorOptions) {
  const recordInDatabase = databaseNonceRecorder();
  /** Counts the failure before answering 401, so that the next attempt from the address or with the key sees it. */
  async function refused(attempt: AuthAttempt, reason: AuthFailureReason, message: string): Promise<GraphQLError> {
    countAuthFailure(reason);
    await options.failures.recordFailure(attempt);
    return rejected(message);
  }

  async function fromOAuth(request: Request, credentials: OAuthCredentials, address: string): Promise<Viewer> {
    // Three legs: an app's key with an access token a user approved. A token that is no app's falls through to the
    // API clients, which sign with an empty token secret whatever token they send.
    if (credentials.token !== '') {
      const granted = await options.credentials.appToken(credentials.consumerKey, credentials.token, () =>
        loadAppToken(credentials, options.secretKey),
      );
      if (granted) {
        const attempt = { address, consumerKey: credentials.consumerKey };
        await assertSigned(request, credentials, attempt, granted.consumerSecret, granted.tokenSecret);
        return new Viewer(granted.user, {
          kind: 'app',
          consumerKey: credentials.consumerKey,
          accessTokenId: granted.tokenId,
        });
      }
    }
    const client = await options.credentials.client(credentials.consumerKey, async () => {
      const found = await db().apiClient.findUnique({
        where: { consumerKey: credentials.consumerKey, ...ofActiveUser },
        select: { encryptedSecret: true, user: { select: viewerUserSelection } },
      });
      return (
        found && { secret: decryptSecret(found.encryptedSecret, options.secretKey), user: toViewerUser(found.user) }
      );
    });
    if (!client) throw await refused({ address, consumerKey: null }, 'unknown_consumer_key', 'Unknown consumer key');
    await assertSigned(request, credentials, { address, consumerKey: credentials.consumerKey }, client.secret);
    return new Viewer(client.user, { kind: 'oauth', consumerKey: credentials.consumerKey });
  }

  /**
   * The signature (with the consumer's secret and the token's), then the timestamp, then the nonce; each failure is
   * counted before its 401.
   */
  async function assertSigned(
    request: Request,
    credentials: OAuthCredentials,
    attempt: AuthAttempt,
    consumerSecret: string,
    tokenSecret = '',
  ): Promise<void> {
    if (!signedBy(consumerSecret, tokenSecret, credentials, request))
      throw await refused(attempt, 'bad_signature', 'Invalid OAuth signature');
    try {
      assertFreshTimestamp(credentials.timestamp, Math.floor(Date.now() / 1000), options.oauthSkewSeconds);
    } catch (error) {
      throw error instanceof OAuthError ? await refused(attempt, 'stale_timestamp', error.message) : error;
    }
    // The nonce is recorded only for a valid signature, so nobody can burn another client's nonces.
    if (!(await recordNonce(credentials))) {
      throw await refused(
        attempt,
        'replayed_nonce',
        'Duplicate timestamp/nonce combination, possible replay attack. Request rejected.',
      );
    }
  }

  /** Whether the signature is the secrets' for one of the URLs the client may have signed. */
  function signedBy(secret: string, tokenSecret: string, credentials: OAuthCredentials, request: Request): boolean {
    for (const url of signedUrls(request, options.publicUrl))
      if (verifySignature(credentials, { method: request.method, url }, secret, tokenSecret)) return true;
    return false;
  }

  /**
   * For the three-legged token endpoints (src/auth/oauth1-endpoints.ts), which are not API requests: the request's
   * OAuth credentials and what `lookup` found for them, once the signature (with the secrets it names), timestamp
   * and nonce hold, with the same failure counting and 401s as every signed request. `lookup` refuses an unknown
   * consumer key or token, or a token the step does not take, with the text of the 401.
   */
  async function signedForTokenStep<Found>(
    request: Request,
    address: string,
    lookup: (
      credentials: OAuthCredentials,
    ) => Promise<{ secrets: TokenStepSecrets; found: Found } | { refused: string }>,
  ): Promise<{ credentials: OAuthCredentials; found: Found }> {
    let credentials: OAuthCredentials | null;
    try {
      credentials = parseOAuthHeader(request.headers.get('authorization'));
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      await options.failures.assertNotBlocked({ address, consumerKey: null });
      throw await refused({ address, consumerKey: null }, 'malformed_oauth', error.message);
    }
    if (!credentials) {
      await options.failures.assertNotBlocked({ address, consumerKey: null });
      throw await refused({ address, consumerKey: null }, 'malformed_oauth', 'OAuth authorization required');
    }
    const attempt = { address, consumerKey: credentials.consumerKey };
    await options.failures.assertNotBlocked(attempt);
    const looked = await lookup(credentials);
    if ('refused' in looked) {
      const unknownKey = looked.refused === unknownConsumerKey;
      throw await refused(
        unknownKey ? { address, consumerKey: null } : attempt,
        unknownKey ? 'unknown_consumer_key' : 'invalid_oauth_token',
        looked.refused,
      );
    }
    const { consumerSecret, tokenSecret } = looked.secrets;
    await assertSigned(request, credentials, attempt, consumerSecret, tokenSecret);
    return { credentials, found: looked.found };
  }

  /**
   * Records the nonce; false when it was seen before with the same key and timestamp. In Redis when there is one (a
   * key that expires once the timestamp can no longer pass the freshness check, so every instance sees every nonce
   * and no statement is spent), in the database otherwise, and in the database too while Redis does not answer.
   */
  async function recordNonce(credentials: OAuthCredentials): Promise<boolean> {
    if (options.redis) {
      const secondsLeft = credentials.timestamp + options.oauthSkewSeconds - Math.floor(Date.now() / 1000) + 1;
      const key = `lectern-nonce:${credentials.consumerKey}:${credentials.timestamp}:${credentials.nonce}`;
      try {
        const set = await breakerOf(options.redis).call((redis) =>
          redis.set(key, '1', 'EX', Math.max(1, secondsLeft), 'NX'),
        );
        return set === 'OK';
      } catch {
        // Redis is down or did not answer within its budget: the database keeps the record instead.
      }
    }
    return recordInDatabase(credentials);
  }

  async function fromBearer(token: string, address: string): Promise<Viewer> {
    const tokenHash = hashToken(token);
    const found = await options.credentials.bearer(tokenHash, async () => {
      const row = await db().accessToken.findUnique({
        where: { tokenHash, ...ofActiveUser },
        select: { id: true, expiresAt: true, user: { select: viewerUserSelection } },
      });
      if (row) return { tokenId: row.id, expiresAt: row.expiresAt?.getTime() ?? null, user: toViewerUser(row.user) };
      // Not one of Lectern's own tokens: an OAuth 2.0 access token (src/oauth2/), stored under the same hash.
      const [issued] = await liveOAuth2AccessTokens([tokenHash]);
      return (
        issued && {
          tokenId: { oauth2RecordId: issued.id },
          expiresAt: issued.expiresAt?.getTime() ?? null,
          user: toViewerUser(issued.user),
        }
      );
    });
    if (!found || (found.expiresAt !== null && found.expiresAt <= Date.now())) {
      throw await refused({ address, consumerKey: null }, 'invalid_bearer_token', 'Invalid or expired bearer token');
    }
    return new Viewer(
      found.user,
      typeof found.tokenId === 'number'
        ? { kind: 'bearer', tokenId: found.tokenId }
        : { kind: 'oauth2', recordId: found.tokenId.oauth2RecordId },
    );
  }

  /**
   * The request's viewer, null when it carries no credential, or a 401 GraphQLError for a bad one; a 429 instead,
   * before the credential is looked at, when its client address or consumer key has failed too often.
   */
  async function authenticate(request: Request, address: string): Promise<Viewer | null> {
    const header = request.headers.get('authorization');
    if (header && /^bearer\s+/i.test(header)) {
      await options.failures.assertNotBlocked({ address, consumerKey: null });
      return fromBearer(header.replace(/^bearer\s+/i, '').trim(), address);
    }
    let credentials: OAuthCredentials | null;
    try {
      credentials = parseOAuthHeader(header);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      await options.failures.assertNotBlocked({ address, consumerKey: null });
      throw await refused({ address, consumerKey: null }, 'malformed_oauth', error.message);
    }
    if (!credentials) {
      await options.failures.admitAnonymous(address);
      return null;
    }
    await options.failures.assertNotBlocked({ address, consumerKey: credentials.consumerKey });
    return fromOAuth(request, credentials, address);
  }
  return Object.assign(authenticate, { signedForTokenStep });
}

export type Authenticator = ReturnType<typeof createAuthenticator>;

/** The secrets a token step's signature is made with: the app's, and the request token's (empty at request_token). */
export interface TokenStepSecrets {
  consumerSecret: string;
  tokenSecret: string;
}

/** What a token step's 401 says for a consumer key that is no app's (counted per address, as any unknown key). */
export const unknownConsumerKey = 'Unknown consumer key';

/**
 * The app access token the credentials name, when it was issued to the app whose key signs and its user is active;
 * null otherwise (the API-client path then reads the key). Its secret and the app's, decrypted.
 */
async function loadAppToken(credentials: OAuthCredentials, secretKey: Buffer): Promise<CachedAppToken | null> {
  const found = await db().appAccessToken.findUnique({
    where: { tokenHash: hashToken(credentials.token), authorization: { user: { deactivatedAt: null } } },
    select: {
      id: true,
      encryptedSecret: true,
      authorization: {
        select: {
          app: { select: { consumerKey: true, encryptedSecret: true } },
          user: { select: viewerUserSelection },
        },
      },
    },
  });
  if (!found || found.authorization.app.consumerKey !== credentials.consumerKey) return null;
  return {
    tokenId: found.id,
    consumerSecret: decryptSecret(found.authorization.app.encryptedSecret, secretKey),
    tokenSecret: decryptSecret(found.encryptedSecret, secretKey),
    user: toViewerUser(found.authorization.user),
  };
}

/**
 * Forgets nonces whose timestamps can no longer pass the freshness check; any instance may run it. It goes by the
 * client's timestamp on this server's clock, the same pair the check compares: `createdAt` comes from the database's
 * clock, and a database clock behind ours would forget nonces that could still be replayed.
 */
export async function pruneNonces(skewSeconds: number): Promise<number> {
  const oldestAcceptable = Math.floor(Date.now() / 1000) - skewSeconds;
  const { count } = await db().oAuthNonce.deleteMany({ where: { timestamp: { lt: oldestAcceptable } } });
  return count;
}

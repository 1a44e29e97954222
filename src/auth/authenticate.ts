import { Prisma } from '../generated/prisma/client';
import { db } from '../db/database';
import { httpError } from '../core/errors';
import { OAuthError, type OAuthCredentials, assertFreshTimestamp, parseOAuthHeader, verifySignature } from './oauth';
import { decryptSecret, hashToken } from './secrets';
import { Viewer, type ViewerUser } from './viewer';

export interface AuthenticatorOptions {
  /** Key that decrypts consumer secrets. */
  secretKey: Buffer;
  /** Base URL clients sign against when a proxy or a fixed Host header hides it from us. */
  publicUrl: URL | null;
  oauthSkewSeconds: number;
}

/** The challenge every 401 carries (RFC 9110 §11.6.1). */
export const authenticationChallenge = 'OAuth realm="Lectern"';

const rejected = (message: string) =>
  httpError(401, 'UNAUTHENTICATED', message, { 'www-authenticate': authenticationChallenge });

const userSelection = {
  id: true,
  role: true,
  schoolId: true,
  buildingId: true,
  triggerAdmin: true,
  school: { select: { districtId: true } },
} satisfies Prisma.UserSelect;

function toViewerUser(user: Prisma.UserGetPayload<{ select: typeof userSelection }>): ViewerUser {
  return {
    id: user.id,
    role: user.role,
    districtId: user.school.districtId,
    schoolId: user.schoolId,
    buildingId: user.buildingId,
    triggerAdmin: user.triggerAdmin,
  };
}

/** The URL the client signed: PUBLIC_URL's origin and path prefix with the request's path and query. */
function signedUrl(request: Request, publicUrl: URL | null): string {
  const url = new URL(request.url);
  if (!publicUrl) return url.href;
  return `${publicUrl.origin}${publicUrl.pathname.replace(/\/$/, '')}${url.pathname}${url.search}`;
}

export function createAuthenticator(options: AuthenticatorOptions) {
  function oauthFailure(error: unknown): never {
    throw error instanceof OAuthError ? rejected(error.message) : error;
  }

  async function fromOAuth(request: Request, credentials: OAuthCredentials): Promise<Viewer> {
    const client = await db().apiClient.findUnique({
      where: { consumerKey: credentials.consumerKey },
      select: { encryptedSecret: true, user: { select: userSelection } },
    });
    if (!client) throw rejected('Unknown consumer key');
    const secret = decryptSecret(client.encryptedSecret, options.secretKey);
    if (!verifySignature(credentials, { method: request.method, url: signedUrl(request, options.publicUrl) }, secret)) {
      throw rejected('Invalid OAuth signature');
    }
    try {
      assertFreshTimestamp(credentials.timestamp, Math.floor(Date.now() / 1000), options.oauthSkewSeconds);
    } catch (error) {
      oauthFailure(error);
    }
    // The nonce is recorded only for a valid signature, so nobody can burn another client's nonces.
    try {
      await db().oAuthNonce.create({
        data: { consumerKey: credentials.consumerKey, timestamp: credentials.timestamp, nonce: credentials.nonce },
      });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        throw rejected('Duplicate timestamp/nonce combination, possible replay attack. Request rejected.');
      }
      throw error;
    }
    return new Viewer(toViewerUser(client.user), { kind: 'oauth', consumerKey: credentials.consumerKey });
  }

  async function fromBearer(token: string): Promise<Viewer> {
    const found = await db().accessToken.findUnique({
      where: { tokenHash: hashToken(token) },
      select: { id: true, expiresAt: true, user: { select: userSelection } },
    });
    if (!found || (found.expiresAt && found.expiresAt.getTime() <= Date.now())) {
      throw rejected('Invalid or expired bearer token');
    }
    return new Viewer(toViewerUser(found.user), { kind: 'bearer', tokenId: found.id });
  }

  /** The request's viewer, null when it carries no credential, or a 401 GraphQLError for a bad one. */
  return async function authenticate(request: Request): Promise<Viewer | null> {
    const header = request.headers.get('authorization');
    if (header && /^bearer\s+/i.test(header)) return fromBearer(header.replace(/^bearer\s+/i, '').trim());
    let credentials: OAuthCredentials | null = null;
    try {
      credentials = parseOAuthHeader(header);
    } catch (error) {
      oauthFailure(error);
    }
    return credentials ? fromOAuth(request, credentials) : null;
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

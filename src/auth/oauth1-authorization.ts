// Three-legged OAuth 1.0a (RFC 5849 §2) as the platform speaks it, past the signature: request tokens, the user's
// approval (called by the /oauth/authorize page), and the exchange for an access token. docs/oauth1.md tells the flow.
import { db } from '../db/database';
import type { Prisma } from '../generated/prisma/client';
import { recordEvent, writeTransaction } from '../outbox/record';
import { appEvents } from '../modules/apps/app.events';
import { encryptSecret, hashToken, randomToken } from './secrets';

/** How long a request token may wait for its user's approval and then for its exchange. */
export const requestTokenMinutes = 15;

/** The callback value that means "no redirect": the app shows or asks for the outcome itself (RFC 5849 §2.1). */
export const outOfBand = 'oob';

/** A callback the app did not register, or a request token that is unknown, expired, already approved or used. */
export class OAuth1FlowError extends Error {
  constructor(
    message: string,
    readonly reason: 'callback_not_registered' | 'token_unusable',
  ) {
    super(message);
    this.name = 'OAuth1FlowError';
  }
}

/**
 * Whether an app may be sent back to `callback`: `oob` always, otherwise only a URL equal to one it registered (an app
 * that registered none can use `oob` only). Exact comparison, as OAuth 2.0's redirect URIs: no prefix or pattern lets
 * a token leak to a page the app did not name.
 */
export function callbackAllowed(callback: string, redirectUris: readonly string[]): boolean {
  return callback === outOfBand || redirectUris.includes(callback);
}

/** A callback as stored: null for none or `oob` (both mean no redirect). */
const storedCallback = (callback: string | null | undefined) =>
  callback === undefined || callback === null || callback === outOfBand ? null : callback;

export interface IssuedRequestToken {
  token: string;
  secret: string;
  /** Whether the app named a callback (OAuth 1.0a): the answer then confirms it, and the exchange needs a verifier. */
  callbackConfirmed: boolean;
}

/**
 * A request token for the app, after its signature was checked. `callback` is oauth_callback as sent at this step
 * (OAuth 1.0a; `oob` included), undefined when the client sent none (the platform's OAuth 1.0 flow, which names the
 * callback on the authorize URL instead). The token is stored hashed, its secret encrypted (signatures need it back).
 */
export async function issueRequestToken(
  app: { id: number; redirectUris: readonly string[] },
  callback: string | undefined,
  serverKey: Buffer,
): Promise<IssuedRequestToken> {
  if (callback !== undefined && !callbackAllowed(callback, app.redirectUris)) {
    throw new OAuth1FlowError(
      'oauth_callback is not a redirect URI registered for this app',
      'callback_not_registered',
    );
  }
  const token = randomToken(24);
  const secret = randomToken(24);
  await db().oAuthRequestToken.create({
    data: {
      appId: app.id,
      tokenHash: hashToken(token),
      encryptedSecret: encryptSecret(secret, serverKey),
      callback: storedCallback(callback),
      callbackConfirmed: callback !== undefined,
      expiresAt: new Date(Date.now() + requestTokenMinutes * 60_000),
    },
  });
  return { token, secret, callbackConfirmed: callback !== undefined };
}

const requestTokenSelection = {
  id: true,
  callback: true,
  callbackConfirmed: true,
  approvedById: true,
  expiresAt: true,
  app: { select: { id: true, name: true, redirectUris: true } },
} as const;

/** The request token, unless it was approved already (a page reloaded after approval finds nothing to approve). */
const pendingRequestToken = (token: string) =>
  db().oAuthRequestToken.findFirst({
    where: { tokenHash: hashToken(token), approvedById: null },
    select: requestTokenSelection,
  });

type PendingRequestToken = NonNullable<Awaited<ReturnType<typeof pendingRequestToken>>>;

/**
 * Where the user goes back to: the callback the app named at request_token (OAuth 1.0a), or else the one on the
 * authorize URL (the platform's OAuth 1.0 flow, as schoolopy sends it); null for none or `oob`.
 */
function callbackFor(found: PendingRequestToken, urlCallback: string | null | undefined): string | null {
  if (found.callbackConfirmed) return found.callback;
  if (urlCallback === undefined || urlCallback === null) return null;
  if (!callbackAllowed(urlCallback, found.app.redirectUris)) {
    throw new OAuth1FlowError(
      'oauth_callback is not a redirect URI registered for this app',
      'callback_not_registered',
    );
  }
  return storedCallback(urlCallback);
}

/**
 * What the consent page shows for a request token: the app, where approval leads, and whether the token expired (the
 * page then says so instead of asking). Null for a token that is unknown or already approved. `urlCallback` is the
 * authorize URL's oauth_callback; one the app did not register is an OAuth1FlowError (the page answers 400).
 */
export async function requestTokenForApproval(
  token: string,
  urlCallback?: string | null,
): Promise<{ appName: string; appId: number; callback: string | null; expired: boolean } | null> {
  const found = await pendingRequestToken(token);
  if (!found) return null;
  return {
    appName: found.app.name,
    appId: found.app.id,
    callback: callbackFor(found, urlCallback),
    expired: found.expiresAt.getTime() <= Date.now(),
  };
}

/** Whether the user approved the app before and has not revoked it since: the consent page may then be skipped. */
export async function hasAuthorized(userId: number, appId: number): Promise<boolean> {
  const found = await db().appAuthorization.findUnique({ where: { userId_appId: { userId, appId } } });
  return found !== null;
}

/**
 * Remembers that the user approves the app (OAuth 1.0a and 2.0 alike), with its event, unless they approved it before.
 */
export async function rememberApproval(tx: Prisma.TransactionClient, userId: number, appId: number): Promise<void> {
  const existing = await tx.appAuthorization.findUnique({
    where: { userId_appId: { userId, appId } },
    select: { id: true },
  });
  if (existing) return;
  const user = await tx.user.findUniqueOrThrow({
    where: { id: userId },
    select: { schoolId: true, school: { select: { districtId: true } } },
  });
  const created = await tx.appAuthorization.create({ data: { userId, appId }, select: { id: true } });
  await recordEvent(tx, appEvents.authorize, {
    realm: { type: 'USER', id: userId },
    objectId: created.id,
    actorId: userId,
    scope: { districtId: user.school.districtId, schoolId: user.schoolId },
  });
}

/** The callback with the answer's parameters added; null when there is nowhere to go. */
function redirectTo(callback: string | null, parameters: Record<string, string>): string | null {
  if (callback === null) return null;
  const url = new URL(callback);
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return url.href;
}

/**
 * Records that the user approves the app and marks the request token approved, in one transaction; the consent is
 * remembered per user and app (hasAuthorized). Answers where to send the user (the callback with oauth_token, and
 * oauth_verifier for an OAuth 1.0a token) and the verifier, which a client without a callback (`oob`) has the user
 * copy. An OAuth 1.0 token (no callback at request_token, as schoolopy asks) needs no verifier: null.
 */
export async function approveRequestToken(
  token: string,
  userId: number,
  urlCallback?: string | null,
): Promise<{ redirectTo: string | null; verifier: string | null }> {
  const found = await pendingRequestToken(token);
  if (!found || found.expiresAt.getTime() <= Date.now()) {
    throw new OAuth1FlowError('The request token is unknown, expired or already approved', 'token_unusable');
  }
  const callback = callbackFor(found, urlCallback);
  const verifier = found.callbackConfirmed ? randomToken(16) : null;
  await writeTransaction(async (tx) => {
    // Conditional, so that of two approvals racing for one token only the first counts.
    const { count } = await tx.oAuthRequestToken.updateMany({
      where: { id: found.id, approvedById: null },
      data: { approvedById: userId, verifierHash: verifier && hashToken(verifier), callback },
    });
    if (count === 0) throw new OAuth1FlowError('The request token was approved already', 'token_unusable');
    await rememberApproval(tx, userId, found.app.id);
  });
  return {
    redirectTo: redirectTo(callback, { oauth_token: token, ...(verifier ? { oauth_verifier: verifier } : {}) }),
    verifier,
  };
}

/**
 * The user declines: the request token is deleted (its exchange then fails as for any unknown token) and the user
 * goes back to the callback with `denied=<token>`, as Twitter's OAuth 1.0a does (RFC 5849 names no refusal).
 */
export async function denyRequestToken(
  token: string,
  urlCallback?: string | null,
): Promise<{ redirectTo: string | null }> {
  const found = await pendingRequestToken(token);
  if (!found) throw new OAuth1FlowError('The request token is unknown or already approved', 'token_unusable');
  const callback = callbackFor(found, urlCallback);
  await db().oAuthRequestToken.deleteMany({ where: { id: found.id, approvedById: null } });
  return { redirectTo: redirectTo(callback, { denied: token }) };
}

/**
 * Forgets request tokens past their lifetime, approved or not; any instance may run it (beside pruneNonces).
 */
export async function pruneRequestTokens(): Promise<number> {
  const { count } = await db().oAuthRequestToken.deleteMany({ where: { expiresAt: { lte: new Date() } } });
  return count;
}

import { hashToken, randomToken } from '../auth/secrets';
import { db } from '../db/database';

/** Who a browser's session cookie signs in, and the token its forms carry (src/signin/csrf.ts). */
export interface SignedIn {
  userId: number;
  sessionId: string;
  csrfToken: string;
}

export const sessionCookie = 'lectern_session';

interface SessionSettings {
  /** How long a session lasts from sign-in (SESSION_LIFETIME). */
  lifetimeMs: number;
  /** Cookies only over HTTPS: PUBLIC_URL is https. */
  secure: boolean;
}

let settings: SessionSettings = { lifetimeMs: 7 * 86_400_000, secure: false };

/** Set once by the app (useSignInPages) from its configuration. */
export function configureSessions(next: SessionSettings): void {
  settings = next;
}

/** The value of the cookie `name` a request sends, or null. */
export function cookieOf(request: Request, name: string): string | null {
  for (const pair of (request.headers.get('cookie') ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return null;
}

/** A Set-Cookie value with the attributes every cookie of these pages has; `maxAgeSeconds` 0 removes it. */
export function cookieHeader(name: string, value: string, maxAgeSeconds?: number): string {
  return [
    `${name}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    ...(maxAgeSeconds === undefined ? [] : [`Max-Age=${maxAgeSeconds}`]),
    ...(settings.secure ? ['Secure'] : []),
  ].join('; ');
}

/** The Set-Cookie value that signs the browser out. */
export const endedSessionCookie = () => cookieHeader(sessionCookie, '', 0);

// A cookie value randomToken() made: 43 base64url characters. Anything else is not looked up.
const cookieValue = /^[A-Za-z0-9_-]{43}$/;

/**
 * The session a request's cookie names; null without a cookie, or when the session is unknown, expired, signed out,
 * or its user is inactive. Read from the database on every call, so a sign-out or a deactivation counts at once.
 */
export async function sessionOf(request: Request): Promise<SignedIn | null> {
  const value = cookieOf(request, sessionCookie);
  if (!value || !cookieValue.test(value)) return null;
  const session = await db().session.findUnique({
    where: { id: hashToken(value) },
    select: { id: true, userId: true, csrfToken: true, expiresAt: true, user: { select: { deactivatedAt: true } } },
  });
  if (!session || session.expiresAt <= new Date() || session.user.deactivatedAt !== null) return null;
  return { userId: session.userId, sessionId: session.id, csrfToken: session.csrfToken };
}

/** The sign-in page, coming back to `returnTo` (a path on this server) once signed in. */
export function signInUrl(returnTo: string): string {
  return `/sign-in?${new URLSearchParams({ return_to: returnTo })}`;
}

/**
 * Signs `userId` in: a new session, answered as the Set-Cookie value to send. Only the cookie's hash is stored, so
 * the table signs nobody in; the user's expired sessions are removed on the way.
 */
export async function startSession(userId: number): Promise<string> {
  const value = randomToken();
  const now = new Date();
  await db().$transaction([
    db().session.deleteMany({ where: { userId, expiresAt: { lte: now } } }),
    db().session.create({
      data: {
        id: hashToken(value),
        userId,
        csrfToken: randomToken(),
        expiresAt: new Date(now.getTime() + settings.lifetimeMs),
      },
    }),
  ]);
  return cookieHeader(sessionCookie, value, Math.floor(settings.lifetimeMs / 1000));
}

/** Signs a session out. */
export async function endSession(sessionId: string): Promise<void> {
  await db().session.deleteMany({ where: { id: sessionId } });
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomToken } from '../auth/secrets';
import { cookieHeader, cookieOf } from './session';
import type { SignedIn } from './session';

/** The form field every page's form carries its CSRF token in. */
export const csrfField = 'csrf';

function sameText(sent: FormDataEntryValue | null, expected: string): boolean {
  if (typeof sent !== 'string') return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether a form posted by a signed-in browser carries its session's CSRF token (compared in constant time). */
export function hasValidCsrf(signedIn: SignedIn, form: FormData): boolean {
  return sameText(form.get(csrfField), signedIn.csrfToken);
}

/**
 * Forms shown before anyone is signed in (sign-in, choosing a password) are bound to a cookie of their own: the form
 * carries an HMAC of the cookie's random value under the server key, which another site can neither read nor make.
 */
export const formCookie = 'lectern_csrf';

const formCookieValue = /^[A-Za-z0-9_-]{43}$/;

const formToken = (serverKey: Buffer, cookie: string) =>
  createHmac('sha256', serverKey).update(`sign-in-form:${cookie}`).digest('base64url');

/** The token to put in a pre-session form, and the Set-Cookie value to send when the browser has no cookie yet. */
export function preSessionCsrf(serverKey: Buffer, request: Request): { token: string; setCookie: string | null } {
  const sent = cookieOf(request, formCookie);
  if (sent && formCookieValue.test(sent)) return { token: formToken(serverKey, sent), setCookie: null };
  const cookie = randomToken();
  return { token: formToken(serverKey, cookie), setCookie: cookieHeader(formCookie, cookie) };
}

/** Whether a pre-session form carries the token of the cookie its browser sends. */
export function hasValidPreSessionCsrf(serverKey: Buffer, request: Request, form: FormData): boolean {
  const cookie = cookieOf(request, formCookie);
  if (!cookie || !formCookieValue.test(cookie)) return false;
  return sameText(form.get(csrfField), formToken(serverKey, cookie));
}

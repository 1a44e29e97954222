import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Redis } from 'ioredis';
import { type AuthAttempt, createAuthFailureGuard } from '../auth/auth-failures';
import { clientAddress } from '../auth/client-address';
import type { Config } from '../config';
import { db } from '../db/database';
import { configureSignInLinks, openSignInLink, useSignInLink } from '../modules/sign-in-links/sign-in-link.service';
import { hasValidCsrf, hasValidPreSessionCsrf, preSessionCsrf } from './csrf';
import { choosePasswordForm, fieldText, messagePage, readForm, signInForm, signedInPage } from './forms';
import { hashIsOutdated, hashPassword, passwordProblem, verifyPassword } from './password';
import { configureSessions, endSession, endedSessionCookie, sessionOf, startSession } from './session';
import {
  accountFailureKey,
  assertAccountNotBlocked,
  configureAccountFailures,
  recordWrongPassword,
  unknownNameFailureKey,
} from './account-failures';

/**
 * Where to go once signed in: a path on this server only (`/groups?x=1`), so that the sign-in page cannot send people
 * elsewhere (an open redirect). A scheme, a host (`//host`), a backslash or a control character, or anything else
 * that would leave this origin, falls back to `/`.
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2000 || !value.startsWith('/')) return '/';
  // Browsers read `/\host` as `//host`, and strip tabs and newlines inside URLs.
  if (value.startsWith('//') || value.includes('\\') || [...value].some((c) => c < ' ' || c === '\u007f')) return '/';
  const base = 'http://lectern.invalid';
  try {
    const url = new URL(value, base);
    if (url.origin !== base) return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}

const redirect = (location: string, cookies: string[] = []) => {
  const headers = new Headers({ location, 'cache-control': 'no-store' });
  for (const cookie of cookies) headers.append('set-cookie', cookie);
  return new Response(null, { status: 303, headers });
};

const genericRefusal = 'That email or username and password do not match an account that can sign in.';

const linkPath = /^\/sign-in\/link\/([A-Za-z0-9_-]{43})$/;

/**
 * The account a person names on the sign-in page: the one user with a password whose username is exactly the text,
 * or whose email address is the text in any case. Usernames are unique within a school only, so a name several
 * accounts share (or an email address they share) names nobody: those people sign in with what is theirs alone
 * (docs/sign-in.md#who-signs-in).
 */
async function accountNamed(identifier: string) {
  const accounts = await db().user.findMany({
    where: {
      passwordHash: { not: null },
      OR: [{ username: identifier }, { email: { equals: identifier, mode: 'insensitive' } }],
    },
    select: { id: true, passwordHash: true, deactivatedAt: true },
    take: 2,
  });
  return accounts.length === 1 ? accounts[0]! : null;
}

/** The 429 page for a refusal the failure guard threw, with its Retry-After; anything else is rethrown. */
export function tooManyAttempts(error: unknown): Response {
  const http =
    error instanceof GraphQLError ? (error.extensions.http as { status?: number; headers?: HeadersInit }) : null;
  if (http?.status !== 429) throw error;
  const wait = Number(new Headers(http.headers).get('retry-after') ?? 60);
  const minutes = Math.max(1, Math.ceil(wait / 60));
  return messagePage(
    'Too many attempts',
    `Signing in failed too often. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    429,
    http.headers,
  );
}

const refusedForm = () =>
  messagePage(
    'This form has expired',
    'The form was not sent from this page, or it is too old. Open the page again and send it from there.',
    403,
  );

/**
 * The sign-in pages (docs/sign-in.md): `GET|POST /sign-in`, `POST /sign-out`, and `GET|POST /sign-in/link/{token}`
 * where a person chooses their password with the link an administrator made (createSignInLink). Server-rendered HTML
 * that works without JavaScript; every form is CSRF-protected, and failed sign-ins are counted per account and per
 * address with the same machinery as failed API authentications.
 */
export function useSignInPages(options: {
  config: Pick<
    Config,
    | 'publicUrl'
    | 'trustProxyHops'
    | 'authFailureLimits'
    | 'signInFailuresPerAccount'
    | 'sessionLifetimeMs'
    | 'signInLinkLifetimeMs'
    | 'oidcProviders'
  >;
  serverKey: Buffer;
  redis: Redis | null;
}): Plugin {
  const { config, serverKey } = options;
  // Offered on the form beside the password (src/signin/oidc-upstream.http.ts).
  const providers = config.oidcProviders.map(({ id, name }) => ({ id, name }));
  configureSessions({ lifetimeMs: config.sessionLifetimeMs, secure: config.publicUrl?.protocol === 'https:' });
  configureSignInLinks({ lifetimeMs: config.signInLinkLifetimeMs });
  configureAccountFailures(config.signInFailuresPerAccount, options.redis);
  // Per address, the count is the one failed API authentications go to (AUTH_FAILURES_PER_ADDRESS): a guesser gains
  // nothing by switching between the API and the page. Per account, the count changePassword shares.
  const addressFailures = createAuthFailureGuard(
    { perAddress: config.authFailureLimits.perAddress, perConsumerKey: null, anonymousPerAddress: null },
    options.redis,
  );

  async function showSignIn(request: Request, url: URL): Promise<Response> {
    const returnTo = safeReturnTo(url.searchParams.get('return_to'));
    const signedIn = await sessionOf(request);
    if (signedIn) {
      const user = await db().user.findUniqueOrThrow({
        where: { id: signedIn.userId },
        select: { nameFirst: true, nameLast: true, username: true },
      });
      return signedInPage({
        name: `${user.nameFirst} ${user.nameLast} (${user.username})`,
        csrfToken: signedIn.csrfToken,
        returnTo,
      });
    }
    const csrf = preSessionCsrf(serverKey, request);
    return signInForm({
      csrfToken: csrf.token,
      returnTo,
      providers,
      headers: csrf.setCookie ? { 'set-cookie': csrf.setCookie } : {},
    });
  }

  async function signIn(request: Request, address: string): Promise<Response> {
    const form = await readForm(request);
    if (form instanceof Response) return form;
    if (!hasValidPreSessionCsrf(serverKey, request, form)) return refusedForm();
    const returnTo = safeReturnTo(form.get('return_to'));
    const identifier = fieldText(form, 'identifier').trim().slice(0, 320);
    const password = fieldText(form, 'password');
    const again = (error: string, status: number, headers?: HeadersInit) =>
      signInForm({
        csrfToken: preSessionCsrf(serverKey, request).token,
        returnTo,
        providers,
        identifier,
        error,
        status,
        headers,
      });
    if (!identifier || !password) return again('Enter your email or username and your password.', 400);

    const account = await accountNamed(identifier);
    const attempt: AuthAttempt = { address, consumerKey: null };
    const accountKey = account ? accountFailureKey(account.id) : unknownNameFailureKey(identifier);
    try {
      await addressFailures.assertNotBlocked(attempt);
      await assertAccountNotBlocked(accountKey);
    } catch (error) {
      return tooManyAttempts(error);
    }
    // Checked against a made-up hash when there is no account, so the answer takes as long as a wrong password.
    const verified = await verifyPassword(account?.passwordHash ?? null, password);
    if (!account || !verified || account.deactivatedAt !== null) {
      await Promise.all([addressFailures.recordFailure(attempt), recordWrongPassword(accountKey)]);
      return again(genericRefusal, 400);
    }
    if (hashIsOutdated(account.passwordHash!))
      await db().user.update({ where: { id: account.id }, data: { passwordHash: await hashPassword(password) } });
    return redirect(returnTo, [await startSession(account.id)]);
  }

  async function signOut(request: Request): Promise<Response> {
    const form = await readForm(request);
    if (form instanceof Response) return form;
    const signedIn = await sessionOf(request);
    if (!signedIn) return redirect('/sign-in', [endedSessionCookie()]);
    if (!hasValidCsrf(signedIn, form)) return refusedForm();
    await endSession(signedIn.sessionId);
    return redirect('/sign-in', [endedSessionCookie()]);
  }

  async function link(request: Request, token: string): Promise<Response> {
    const opening = await openSignInLink(token);
    if (opening.state === 'unknown')
      return messagePage('This link does not work', 'Check that it was copied whole, or ask for a new one.', 404);
    if (opening.state === 'gone')
      return messagePage(
        'This link no longer works',
        'It was used already or it has expired. Ask your school’s administrator for a new one.',
        410,
      );
    const action = `/sign-in/link/${token}`;
    if (request.method === 'GET' || request.method === 'HEAD') {
      const csrf = preSessionCsrf(serverKey, request);
      return choosePasswordForm({
        action,
        csrfToken: csrf.token,
        user: opening.user,
        headers: csrf.setCookie ? { 'set-cookie': csrf.setCookie } : {},
      });
    }
    const form = await readForm(request);
    if (form instanceof Response) return form;
    if (!hasValidPreSessionCsrf(serverKey, request, form)) return refusedForm();
    const password = fieldText(form, 'password');
    const confirmation = fieldText(form, 'confirmation');
    const problem = passwordProblem(password, opening.user);
    const mismatch = !problem && password !== confirmation ? 'The two passwords are not the same.' : undefined;
    if (problem || mismatch)
      return choosePasswordForm({
        action,
        csrfToken: preSessionCsrf(serverKey, request).token,
        user: opening.user,
        problems: { password: problem ?? undefined, confirmation: mismatch },
        status: 400,
      });
    if (!(await useSignInLink(opening.linkId, opening.user.id, password)))
      return messagePage('This link no longer works', 'It was used already or it has expired.', 410);
    return redirect('/sign-in', [await startSession(opening.user.id)]);
  }

  const methodNotAllowed = (allow: string) =>
    new Response('Method Not Allowed', {
      status: 405,
      headers: { allow, 'content-type': 'text/plain; charset=utf-8' },
    });

  async function route(request: Request, url: URL, address: string): Promise<Response> {
    const { pathname } = url;
    const method = request.method;
    if (pathname === '/sign-in') {
      if (method === 'GET' || method === 'HEAD') return showSignIn(request, url);
      if (method === 'POST') return signIn(request, address);
      return methodNotAllowed('GET, HEAD, POST');
    }
    if (pathname === '/sign-out') return method === 'POST' ? signOut(request) : methodNotAllowed('POST');
    const token = linkPath.exec(pathname)?.[1];
    if (!token) return messagePage('This link does not work', 'Check that it was copied whole.', 404);
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') return methodNotAllowed('GET, HEAD, POST');
    return link(request, token);
  }

  return {
    async onRequest({ request, url, endResponse, serverContext }) {
      const { pathname } = url;
      if (pathname !== '/sign-in' && pathname !== '/sign-out' && !pathname.startsWith('/sign-in/')) return;
      const address = clientAddress(request, serverContext as Record<string, unknown>, config.trustProxyHops);
      const response = await route(request, url, address);
      endResponse(request.method === 'HEAD' ? new Response(null, response) : response);
    },
  };
}

import type { Plugin } from 'graphql-yoga';
import type { Redis } from 'ioredis';
import * as client from 'openid-client';
import type { Logger } from 'pino';
import { type AuthAttempt, createAuthFailureGuard } from '../auth/auth-failures';
import { clientAddress } from '../auth/client-address';
import type { Config, OidcProviderSettings } from '../config';
import { createLinkOrigin } from '../rest/link-origin';
import { messagePage } from './forms';
import {
  type PendingSignIn,
  createIssuerDirectory,
  isUnreachable,
  openPending,
  pendingCookie,
  pendingLifetimeSeconds,
  sealPending,
  userForClaims,
} from './oidc-upstream';
import { cookieHeader, cookieOf, startSession } from './session';
import { safeReturnTo, tooManyAttempts } from './sign-in.http';

const providerPath = /^\/sign-in\/oidc\/([a-z0-9-]+)(\/callback)?$/;

/** Where a provider sends the browser back: registered at the provider as the app's redirect URI. */
const callbackPath = (providerId: string) => `/sign-in/oidc/${providerId}/callback`;

const redirect = (location: string, cookies: string[]) => {
  const headers = new Headers({ location, 'cache-control': 'no-store' });
  for (const cookie of cookies) headers.append('set-cookie', cookie);
  return new Response(null, { status: 303, headers });
};

const unavailable = (provider: OidcProviderSettings, headers?: HeadersInit) =>
  messagePage(
    `${provider.name} does not answer`,
    `Signing in with ${provider.name} is not possible right now. Try again later, or sign in with your password.`,
    502,
    headers,
  );

const incomplete = (provider: OidcProviderSettings, headers: HeadersInit) =>
  messagePage(
    'Sign-in did not complete',
    `Signing in with ${provider.name} was cancelled, took too long, or was not started here. ` +
      'Start again from the sign-in page.',
    400,
    headers,
  );

// One answer for every identity Lectern will not sign in, so that the page tells nobody which accounts exist.
const noAccount = (provider: OidcProviderSettings, headers: HeadersInit) =>
  messagePage(
    'No account matches',
    `No account of this school matches the account you signed in with at ${provider.name}. ` +
      'Ask your school’s administrator.',
    403,
    headers,
  );

/**
 * Signing in with a school's identity provider (OIDC_PROVIDERS, docs/sign-in.md): `GET /sign-in/oidc/{id}` sends the
 * browser to the provider (authorization code with PKCE, state and nonce, sealed in a short-lived cookie), and
 * `GET /sign-in/oidc/{id}/callback` exchanges the code with openid-client, which checks the ID token, then signs in
 * the one active user of the provider's district with the verified email address. Refusals count against the client
 * address like failed password sign-ins.
 */
export function useUpstreamSignIn(options: {
  config: Pick<
    Config,
    'oidcProviders' | 'publicUrl' | 'allowedHosts' | 'host' | 'port' | 'trustProxyHops' | 'authFailureLimits'
  >;
  serverKey: Buffer;
  redis: Redis | null;
  logger: Logger;
}): Plugin {
  const { config, serverKey, logger } = options;
  const providers = new Map(config.oidcProviders.map((provider) => [provider.id, provider]));
  const issuerOf = createIssuerDirectory();
  const linkOrigin = createLinkOrigin(config);
  // The per-address count failed password sign-ins and API authentications go to (AUTH_FAILURES_PER_ADDRESS).
  const failures = createAuthFailureGuard(
    { perAddress: config.authFailureLimits.perAddress, perConsumerKey: null, anonymousPerAddress: null },
    options.redis,
  );
  const endedPending = () => cookieHeader(pendingCookie, '', 0);

  async function discovered(provider: OidcProviderSettings): Promise<client.Configuration | null> {
    try {
      return await issuerOf(provider);
    } catch (error) {
      logger.warn(
        { provider: provider.id, issuer: provider.issuer.href, reason: (error as Error).message },
        'identity provider discovery failed',
      );
      return null;
    }
  }

  async function start(provider: OidcProviderSettings, url: URL, redirectUri: string): Promise<Response> {
    const configuration = await discovered(provider);
    if (!configuration) return unavailable(provider);
    const codeVerifier = client.randomPKCECodeVerifier();
    const pending = {
      provider: provider.id,
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier,
      returnTo: safeReturnTo(url.searchParams.get('return_to')),
      expiresAt: Date.now() + pendingLifetimeSeconds * 1000,
    };
    const authorization = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return redirect(authorization.href, [
      cookieHeader(pendingCookie, sealPending(pending, serverKey), pendingLifetimeSeconds),
    ]);
  }

  /** The claims of the signed-in person: the ID token's, or the UserInfo endpoint's when it carries no email. */
  async function claimsOf(configuration: client.Configuration, currentUrl: URL, pending: PendingSignIn) {
    const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims: Record<string, unknown> = { ...tokens.claims() };
    if (typeof claims.email === 'string') return claims;
    return { ...claims, ...(await client.fetchUserInfo(configuration, tokens.access_token, String(claims.sub))) };
  }

  async function callback(
    request: Request,
    url: URL,
    provider: OidcProviderSettings,
    redirectUri: string,
    address: string,
  ): Promise<Response> {
    const attempt: AuthAttempt = { address, consumerKey: null };
    try {
      await failures.assertNotBlocked(attempt);
    } catch (error) {
      return tooManyAttempts(error);
    }
    // The cookie is used up whatever the outcome: a callback opened again finds nothing to finish.
    const headers = { 'set-cookie': endedPending() };
    const refused = async (response: Response) => {
      await failures.recordFailure(attempt);
      return response;
    };
    const pending = openPending(cookieOf(request, pendingCookie), serverKey);
    if (!pending || pending.provider !== provider.id) return refused(incomplete(provider, headers));
    const configuration = await discovered(provider);
    if (!configuration) return unavailable(provider, headers);
    let claims: Record<string, unknown>;
    try {
      // The provider's answer as it reached the redirect URI, whatever address a proxy forwarded it to.
      claims = await claimsOf(configuration, new URL(`${redirectUri}${url.search}`), pending);
    } catch (error) {
      // Codes and tokens stay out of the log: the reason is openid-client's error name and code, or the provider's.
      const reason = error as { name?: string; code?: string; error?: string };
      logger.info(
        { provider: provider.id, reason: reason.error ?? reason.code ?? reason.name },
        'upstream sign-in failed',
      );
      if (isUnreachable(error)) return unavailable(provider, headers);
      return refused(incomplete(provider, headers));
    }
    const userId = await userForClaims(claims, provider.districtId);
    if (userId === null) return refused(noAccount(provider, headers));
    return redirect(pending.returnTo, [endedPending(), await startSession(userId)]);
  }

  return {
    async onRequest({ request, url, endResponse, serverContext }) {
      const match = providerPath.exec(url.pathname);
      if (!match) return;
      const provider = providers.get(match[1]!);
      if (!provider) return endResponse(messagePage('No such sign-in', 'This server has no such sign-in.', 404));
      // No HEAD: starting sets a cookie, and finishing signs in.
      if (request.method !== 'GET')
        return endResponse(
          new Response('Method Not Allowed', {
            status: 405,
            headers: { allow: 'GET', 'content-type': 'text/plain; charset=utf-8' },
          }),
        );
      const context = serverContext as Record<string, unknown>;
      const redirectUri = `${linkOrigin(request, context)}${callbackPath(provider.id)}`;
      if (!match[2]) return endResponse(await start(provider, url, redirectUri));
      const address = clientAddress(request, context, config.trustProxyHops);
      endResponse(await callback(request, url, provider, redirectUri, address));
    },
  };
}

// Lectern as an OAuth 2.0 authorization server and OpenID provider, on oidc-provider (a certified implementation):
// docs/oauth2.md. It is a Node (Koa) handler, so src/http/server.ts hands it the requests under its paths before yoga.
import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { format } from 'node:util';
import type Provider from 'oidc-provider';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from 'pino';
import { hasAuthorized } from '../auth/oauth1-authorization';
import type { Config } from '../config';
import { db } from '../db/database';
import { sessionOf } from '../signin/session';
import { messagePage } from '../signin/forms';
import { accountIdOf, findAccount, userIdOfAccount } from './accounts';
import { recordAdapter } from './adapter';
import { firstPartyGrantOf, isFirstPartyClient } from './first-party';
import { signingKeys } from './keys';

/** The provider's endpoints; discovery is at the issuer's well-known paths. */
export const oauth2Routes = {
  authorization: '/oauth2/authorize',
  token: '/oauth2/token',
  revocation: '/oauth2/revoke',
  jwks: '/oauth2/jwks',
  userinfo: '/oauth2/userinfo',
};
/** Where the provider sends the browser to sign in and approve (src/oauth2/interaction.ts). */
export const interactionPath = '/oauth2/interaction/';

/** Every scope: an app acts for its user in everything (there are no finer scopes), so a grant holds them all. */
export const scopes = ['openid', 'offline_access', 'profile', 'email'];

/** Lifetimes, in seconds (docs/oauth2.md#lifetimes). */
export const lifetimes = {
  accessToken: 60 * 60,
  authorizationCode: 60,
  refreshToken: 14 * 24 * 60 * 60,
  idToken: 60 * 60,
  interaction: 60 * 60,
  grant: 365 * 24 * 60 * 60,
};

/** A fetch Request with a Node request's URL and headers (no body), for the sign-in module's readers. */
export const headersOnly = (request: IncomingMessage, origin: string) => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers))
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  return new Request(new URL(request.url ?? '/', origin), { headers });
};

type OidcProviderModule = typeof import('oidc-provider');

/**
 * The provider's own session never stands in for Lectern's: every authorization asks for the login prompt unless the
 * browser's Lectern session is live and names the provider session's user, so a sign-out, a password change or a
 * deactivation (all of which end Lectern sessions) stops new codes at once.
 */
function policy({ interactionPolicy }: OidcProviderModule) {
  const { Check } = interactionPolicy;
  const lecternSessionCheck = new Check(
    'lectern_session',
    'The Lectern sign-in ended or is another user’s',
    async (ctx: KoaContextWithOIDC) => {
      if (ctx.oidc.result?.login) return Check.NO_NEED_TO_PROMPT;
      const signedIn = await sessionOf(headersOnly(ctx.req, new URL(ctx.href).origin));
      return signedIn && accountIdOf(signedIn.userId) === ctx.oidc.session?.accountId
        ? Check.NO_NEED_TO_PROMPT
        : Check.REQUEST_PROMPT;
    },
  );
  const prompts = interactionPolicy.base();
  prompts.get('login')!.checks.push(lecternSessionCheck);
  return prompts;
}

/**
 * oidc-provider writes its notices as plain text with console.warn and console.info: when it is loaded (it warns about
 * Node 20, which `engines` still allows) and when a provider is built (defaults it points out). The server's output is
 * JSON lines, so it is loaded and built with those two sent to the log instead.
 */
async function withNoticesLogged<T>(logger: Logger, build: () => Promise<T>): Promise<T> {
  const { warn, info } = console;
  console.warn = (...args: unknown[]) => logger.warn(format(...args));
  console.info = (...args: unknown[]) => logger.info(format(...args));
  try {
    return await build();
  } finally {
    Object.assign(console, { warn, info });
  }
}

/**
 * Consent is remembered per user and app (AppAuthorization, shared with OAuth 1.0a): once the user approved the app,
 * the grant (all scopes) is found or made here and the consent page is skipped. Without the approval there is no
 * grant, whatever the provider's session remembers, so a revoked app asks again.
 */
async function loadExistingGrant(ctx: KoaContextWithOIDC) {
  const { Grant } = ctx.oidc.provider;
  const accountId = ctx.oidc.session?.accountId;
  const clientId = ctx.oidc.client?.clientId;
  const userId = accountId ? userIdOfAccount(accountId) : null;
  if (!accountId || !clientId || userId === null) return undefined;
  if (isFirstPartyClient(clientId)) return firstPartyGrantOf(ctx, accountId, clientId);
  const app = await db().app.findUnique({ where: { consumerKey: clientId }, select: { id: true } });
  if (!app || !(await hasAuthorized(userId, app.id))) return undefined;
  const stored = await db().oAuth2Record.findFirst({
    where: { kind: 'Grant', userId, appId: app.id, expiresAt: { gt: new Date() } },
    select: { payload: true },
  });
  const grantId = ctx.oidc.result?.consent?.grantId ?? (stored?.payload as { jti?: string } | null)?.jti;
  const grant = (grantId && (await Grant.find(grantId))) || new Grant({ accountId, clientId });
  grant.addOIDCScope(scopes.join(' '));
  // Saved at each authorization, so a grant in use keeps living.
  await grant.save();
  return grant;
}

export interface OAuth2Options {
  config: Pick<Config, 'trustProxyHops'>;
  serverKey: Buffer;
  /** The issuer: PUBLIC_URL, else the address the server listens on (src/http/server.ts). */
  issuer: string;
  logger: Logger;
}

/** The configured provider; its signing key is read (or made, once) from the database. */
export async function createProvider({ config, serverKey, issuer, logger }: OAuth2Options): Promise<Provider> {
  const oidcProvider = await withNoticesLogged(logger, () => import('oidc-provider'));
  const cookieKey = createHmac('sha256', serverKey).update('oauth2-cookies').digest('base64url');
  const configuration: Configuration = {
    adapter: recordAdapter(serverKey, issuer),
    findAccount,
    jwks: { keys: await signingKeys(serverKey) },
    routes: oauth2Routes,
    scopes,
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email'] },
    // The ID token carries the profile and email claims its scopes ask for, not only sub (front ends read the name).
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    pkce: { required: () => true },
    // A redirect URI must be sent and equal one the app registered.
    allowOmittingSingleRegisteredRedirectUri: false,
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    // Tokens live by their own lifetime and their grant, not the provider's browser session.
    expiresWithSession: () => false,
    ttl: {
      AccessToken: lifetimes.accessToken,
      AuthorizationCode: lifetimes.authorizationCode,
      IdToken: lifetimes.idToken,
      Interaction: lifetimes.interaction,
      Session: lifetimes.refreshToken,
      Grant: lifetimes.grant,
      // A public client's rotated token keeps its chain's end: a browser app signs in again every 14 days.
      RefreshToken: (
        ctx: { oidc?: { entities: { RotatedRefreshToken?: { remainingTTL: number } } } } | undefined,
        _token: unknown,
        client: { clientAuthMethod: string },
      ) =>
        (client.clientAuthMethod === 'none' && ctx?.oidc?.entities.RotatedRefreshToken?.remainingTTL) ||
        lifetimes.refreshToken,
    },
    features: {
      devInteractions: { enabled: false },
      // Only the app a token was issued to may revoke it.
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx: unknown, client: { clientId: string }, token: { clientId?: string }) =>
          token.clientId === client.clientId,
      },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      // Access tokens are plain bearer tokens on /graphql and /v1, which do not check DPoP proofs.
      dPoP: { enabled: false },
    },
    interactions: {
      policy: policy(oidcProvider),
      url: (_ctx: unknown, interaction: { uid: string }) => `${interactionPath}${interaction.uid}`,
    },
    loadExistingGrant,
    // A browser app calls the token and revocation endpoints from the origin of one of its redirect URIs.
    clientBasedCORS: (_ctx: unknown, origin: string, client: { redirectUris: string[] }) =>
      client.redirectUris.some((uri) => URL.canParse(uri) && new URL(uri).origin === origin),
    cookies: {
      keys: [cookieKey],
      names: { session: 'lectern_oauth2', interaction: 'lectern_oauth2_interaction', resume: 'lectern_oauth2_resume' },
      long: { httpOnly: true, sameSite: 'lax', secure: issuer.startsWith('https:') },
      short: { httpOnly: true, sameSite: 'lax', secure: issuer.startsWith('https:') },
    },
    // Errors the browser sees (an unknown client, a redirect URI not registered) are a page like the sign-in pages'.
    renderError: async (
      ctx: { status: number; type: string; body: string; set(name: string, value: string): void },
      out: { error: string; error_description?: string },
    ) => {
      const page = messagePage(
        'This app cannot sign you in',
        out.error_description ? `${out.error}: ${out.error_description}` : out.error,
        ctx.status,
      );
      for (const [name, value] of page.headers) ctx.set(name, value);
      ctx.body = await page.text();
    },
  };
  const provider = await withNoticesLogged(logger, async () => new oidcProvider.default(issuer, configuration));
  // Behind a proxy (TRUST_PROXY_HOPS), endpoint URLs follow X-Forwarded-Proto and -Host, as links do.
  provider.proxy = config.trustProxyHops > 0;
  return provider;
}

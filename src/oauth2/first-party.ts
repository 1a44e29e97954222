// Clients built into Lectern rather than registered as apps: they exist on every installation, under fixed ids.
import type Provider from 'oidc-provider';
import type { ClientMetadata, KoaContextWithOIDC } from 'oidc-provider';
import { scopes } from './provider';

/** GraphiQL's "Sign in" button (src/http/graphiql.ts): a public client, code + PKCE, on the page at /graphql. */
export const graphiqlClientId = 'lectern-graphiql';

export const isFirstPartyClient = (clientId: string | undefined) => clientId === graphiqlClientId;

/**
 * The first-party client with this id, or undefined. Its only redirect URI is the issuer's own GraphiQL page; it has
 * no secret (the page is public code) and no refresh token: it keeps its access token in memory, for the page's life.
 */
export function firstPartyClient(clientId: string, issuer: string): ClientMetadata | undefined {
  if (!isFirstPartyClient(clientId)) return undefined;
  return {
    client_id: graphiqlClientId,
    client_name: 'GraphiQL',
    redirect_uris: [`${new URL(issuer).origin}/graphql`],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    application_type: 'web',
    token_endpoint_auth_method: 'none',
  };
}

/**
 * The grant of a first-party client: Lectern itself acting for the signed-in user in their own browser, so it asks
 * no consent and records no approval (it is not among `viewer.authorizedApps`). The grant named (the provider
 * session's, or the interaction's) is reused when it is this user's, so repeated sign-ins do not pile up grants.
 */
export async function firstPartyGrant(provider: Provider, accountId: string, clientId: string, grantId?: string) {
  const found = grantId ? await provider.Grant.find(grantId) : undefined;
  const grant = found?.accountId === accountId ? found : new provider.Grant({ accountId, clientId });
  grant.addOIDCScope(scopes.join(' '));
  await grant.save();
  return grant;
}

/** `loadExistingGrant` for a first-party client: the interaction's grant, or the provider session's. */
export const firstPartyGrantOf = (ctx: KoaContextWithOIDC, accountId: string, clientId: string) =>
  firstPartyGrant(
    ctx.oidc.provider,
    accountId,
    clientId,
    ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(clientId),
  );

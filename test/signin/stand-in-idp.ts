import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** The claims an account of the stand-in provider has besides `sub`. */
export type StandInClaims = { email?: string; email_verified?: boolean; name?: string; xms_edov?: boolean };

export interface StandInIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts by the login typed at the provider's dev sign-in page (any password). */
  accounts: Map<string, StandInClaims>;
  /** Registers Lectern's redirect URIs, once Lectern's port is known; the provider answers from then on. */
  register(redirectUris: string[]): void;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (`oidc-provider`) on a loopback port, standing in for Google Workspace or Entra: discovery,
 * authorization with its development login and consent pages, code exchange, signed ID tokens and UserInfo. Its
 * default `conformIdTokenClaims` keeps `email` out of the ID token, so Lectern reads it from UserInfo, as it must for
 * providers that do the same.
 */
export async function startStandInIdp(): Promise<StandInIdp> {
  let handle: ((request: IncomingMessage, response: ServerResponse) => unknown) | null = null;
  const listener = createServer((request, response) => {
    if (handle) return handle(request, response);
    response.statusCode = 503;
    response.end();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  const accounts = new Map<string, StandInClaims>();
  const idp: StandInIdp = {
    issuer,
    clientId: 'lectern',
    clientSecret: 'stand-in-client-secret-0123456789',
    accounts,
    register(redirectUris) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: idp.clientId,
            client_secret: idp.clientSecret,
            redirect_uris: redirectUris,
            response_types: ['code'],
            grant_types: ['authorization_code'],
            token_endpoint_auth_method: 'client_secret_post',
          },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified', 'xms_edov'], profile: ['name'] },
        cookies: { keys: ['stand-in-cookie-signing-key'] },
        // In seconds; set, so that the provider does not warn about its defaults on every sign-in.
        ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
        async findAccount(_context, sub) {
          const claims = accounts.get(sub);
          return claims ? { accountId: sub, claims: async () => ({ sub, ...claims }) } : undefined;
        },
      });
      handle = provider.callback();
    },
    async close() {
      listener.closeAllConnections();
      await new Promise((resolve) => listener.close(resolve));
    },
  };
  return idp;
}

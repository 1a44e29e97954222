/**
 * The part of oidc-provider (an OpenID provider, the stand-in for a school's identity provider in tests; it ships no
 * types) that test/signin/stand-in-idp.ts uses.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface ClientMetadata {
    client_id: string;
    client_secret?: string;
    redirect_uris: string[];
    response_types?: string[];
    grant_types?: string[];
    token_endpoint_auth_method?: string;
  }

  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  interface Configuration {
    clients?: ClientMetadata[];
    /** Claims by the scope that releases them. */
    claims?: Record<string, string[]>;
    cookies?: { keys: string[] };
    ttl?: Record<string, number>;
    findAccount?(context: unknown, sub: string): Promise<Account | undefined>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (request: IncomingMessage, response: ServerResponse) => unknown;
  }
}

// The part of oidc-provider (which ships no types) that src/oauth2/ uses, and test/signin/stand-in-idp.ts (the stand-in
// for a school's identity provider in tests).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /** A stored model as oidc-provider hands it to the adapter; `consumed` is set by the adapter's find. */
  export interface AdapterPayload {
    [key: string]: unknown;
    accountId?: string;
    clientId?: string;
    grantId?: string;
    uid?: string;
    consumed?: number;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface ClientMetadata {
    client_id: string;
    client_secret?: string;
    client_name?: string;
    redirect_uris: string[];
    grant_types?: string[];
    response_types?: string[];
    token_endpoint_auth_method?: string;
    application_type?: 'web' | 'native';
  }

  export interface Account {
    accountId: string;
    claims(): Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  export interface Grant {
    readonly jti: string;
    readonly accountId?: string;
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export interface GrantConstructor {
    new (properties: { accountId: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }

  export interface OIDCContext {
    readonly client?: { clientId: string };
    readonly session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
    readonly result?: { login?: unknown; consent?: { grantId?: string } };
    readonly provider: Provider;
  }

  export interface KoaContextWithOIDC {
    readonly req: IncomingMessage;
    readonly href: string;
    readonly oidc: OIDCContext;
  }

  export interface Interaction {
    readonly uid: string;
    readonly prompt: { name: string };
    readonly params: Record<string, unknown>;
    readonly session?: { accountId?: string };
    readonly grantId?: string;
  }

  export interface InteractionResults {
    login?: { accountId: string };
    consent?: { grantId: string };
    error?: string;
    error_description?: string;
  }

  export type CheckResult = boolean;

  export class Check {
    static readonly REQUEST_PROMPT: CheckResult;
    static readonly NO_NEED_TO_PROMPT: CheckResult;
    constructor(
      reason: string,
      description: string,
      check: (ctx: KoaContextWithOIDC) => CheckResult | Promise<CheckResult>,
    );
  }

  export interface Prompt {
    readonly name: string;
    readonly checks: Check[];
  }

  export const interactionPolicy: {
    Check: typeof Check;
    base(): Prompt[] & { get(name: string): Prompt | undefined };
  };

  /** The options named here are typed; the others pass through as oidc-provider documents them (it checks them). */
  export interface Configuration {
    [option: string]: unknown;
    clients?: ClientMetadata[];
    /** Claims by the scope that releases them. */
    claims?: Record<string, string[]>;
    cookies?: { keys: string[]; [option: string]: unknown };
    findAccount?(context: unknown, sub: string): Promise<Account | undefined>;
  }

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    proxy: boolean;
    readonly issuer: string;
    readonly Grant: GrantConstructor;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<Interaction>;
    interactionResult(
      request: IncomingMessage,
      response: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export default Provider;
}

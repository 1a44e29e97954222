import { createHmac } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import { issueAccessToken, issueApiClient } from '../../src/modules/access/access.service';
import type { TestServer } from './harness';
import { testOrigin } from './wire';

export type Format = 'json' | 'xml';

export interface RequestOptions {
  /** JSON object, an XML/raw string sent as is, or raw bytes (an upload's content). */
  body?: unknown;
  /** Request body notation (Content-Type); defaults to json for objects, xml for strings starting with '<'. */
  contentType?: string;
  /** Response notation asked for with Accept. */
  accept?: Format;
  signatureMethod?: 'HMAC-SHA1' | 'PLAINTEXT';
  headers?: Record<string, string>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, when the response is JSON. */
  json: any;
}

/** A legacy REST client: signs every request with two-legged OAuth 1.0a, as real platform client libraries do. */
export class RestClient {
  constructor(
    private readonly server: TestServer,
    readonly consumerKey: string,
    readonly consumerSecret: string,
  ) {}

  authorization(method: string, url: string, signatureMethod: 'HMAC-SHA1' | 'PLAINTEXT' = 'HMAC-SHA1'): string {
    const oauth = new OAuth({
      consumer: { key: this.consumerKey, secret: this.consumerSecret },
      signature_method: signatureMethod,
      // oauth-1.0a calls hash_function for PLAINTEXT too: there the signature is the key itself.
      hash_function:
        signatureMethod === 'PLAINTEXT'
          ? (_base, key) => key
          : (base, key) => createHmac('sha1', key).update(base).digest('base64'),
      realm: 'Schoology API',
    });
    return oauth.toHeader(oauth.authorize({ method, url }, { key: '', secret: '' })).Authorization;
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const url = new URL(`/v1${path}`, testOrigin).href;
    const headers: Record<string, string> = {
      authorization: this.authorization(method, url, options.signatureMethod),
      accept: options.accept === 'xml' ? 'text/xml' : 'application/json',
      ...options.headers,
    };
    let body: BodyInit | undefined;
    if (options.body instanceof Uint8Array) {
      body = options.body as Uint8Array<ArrayBuffer>;
      headers['content-type'] = options.contentType ?? 'application/octet-stream';
    } else if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] =
        options.contentType ??
        (typeof options.body === 'string' && body.trimStart().startsWith('<') ? 'text/xml' : 'application/json');
    }
    const response = await this.server.app.fetch(new Request(url, { method, headers, body }));
    const text = await response.text();
    const isJson = response.headers.get('content-type')?.includes('json');
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: isJson && text ? JSON.parse(text) : undefined,
    };
  }

  get = (path: string, options?: RequestOptions) => this.request('GET', path, options);
  post = (path: string, body: unknown, options?: RequestOptions) => this.request('POST', path, { ...options, body });
  put = (path: string, body: unknown, options?: RequestOptions) => this.request('PUT', path, { ...options, body });
  delete = (path: string, options?: RequestOptions) => this.request('DELETE', path, options);
}

/** Issues consumer credentials for a user and returns a signing client for them. */
export async function restClientFor(server: TestServer, user: { id: number }): Promise<RestClient> {
  const issued = await issueApiClient(server.serverKey, { userId: user.id, name: 'test' });
  return new RestClient(server, issued.consumerKey, issued.consumerSecret);
}

export interface GraphQLResponse<T = any> {
  status: number;
  data?: T;
  errors?: { message: string; extensions?: any }[];
}

/** A GraphQL front end authenticated with a bearer token. */
export async function graphqlClientFor(server: TestServer, user: { id: number }) {
  const { token } = await issueAccessToken({ userId: user.id, name: 'test' });
  return async function graphql<T = any>(
    query: string,
    variables: Record<string, unknown> = {},
  ): Promise<GraphQLResponse<T>> {
    const response = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, ...((await response.json()) as Omit<GraphQLResponse<T>, 'status'>) };
  };
}

export type GraphQLClient = Awaited<ReturnType<typeof graphqlClientFor>>;

/** The parts of a refused GraphQL request that tests compare. */
export const refusal = (response: GraphQLResponse) => ({
  status: response.status,
  data: response.data ?? null,
  code: response.errors?.[0]?.extensions?.code,
  message: response.errors?.[0]?.message,
});

/**
 * A field refused for want of permission, as `refusal` reports it: 200, as GraphQL over HTTP answers partial data
 * (callers name the null field in `data`).
 */
export const forbidden = (message: string) => ({ status: 200, data: null, code: 'FORBIDDEN', message });

type User = { id: number };

export interface Clients {
  /** The user's signed REST client: issued on first use, the same one after. */
  rest(user: User): Promise<RestClient>;
  /** The user's GraphQL client (bearer token): issued on first use, the same one after. */
  graphql(user: User): Promise<GraphQLClient>;
  /** The REST clients of the cast, issued now (or reused), keyed by person. */
  restFor<P extends string>(cast: readonly P[], people: Record<NoInfer<P>, User>): Promise<Record<P, RestClient>>;
  /** The GraphQL clients of the cast, issued now (or reused), keyed by person. */
  graphqlFor<P extends string>(cast: readonly P[], people: Record<NoInfer<P>, User>): Promise<Record<P, GraphQLClient>>;
}

/**
 * The per-user clients of one test file, issued once per user. Issuing a credential records a domain event, so a file
 * that compares the events a request records issues the clients its tests use in `beforeAll` (`restFor`,
 * `graphqlFor`): a test then reuses them and no credential event slips in among the ones it expects.
 */
export function clientsFor(server: TestServer): Clients {
  const memo = <C>(issue: (server: TestServer, user: User) => Promise<C>) => {
    const issued = new Map<number, Promise<C>>();
    const one = (user: User) => {
      if (!issued.has(user.id)) issued.set(user.id, issue(server, user));
      return issued.get(user.id)!;
    };
    const each = async <P extends string>(cast: readonly P[], people: Record<P, User>) =>
      Object.fromEntries(await Promise.all(cast.map(async (person) => [person, await one(people[person])]))) as Record<
        P,
        C
      >;
    return [one, each] as const;
  };
  const [rest, restFor] = memo(restClientFor);
  const [graphql, graphqlFor] = memo(graphqlClientFor);
  return { rest, graphql, restFor, graphqlFor };
}

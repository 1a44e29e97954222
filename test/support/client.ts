import { createHmac } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import { issueAccessToken, issueApiClient } from '../../src/modules/access/access.service';
import { type TestServer, testOrigin } from './harness';

export type Format = 'json' | 'xml';

export interface RequestOptions {
  /** JSON object, or an XML/raw string sent as is. */
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
        signatureMethod === 'PLAINTEXT' ? (_base, key) => key : (base, key) => createHmac('sha1', key).update(base).digest('base64'),
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
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] =
        options.contentType ?? (typeof options.body === 'string' && body.trimStart().startsWith('<') ? 'text/xml' : 'application/json');
    }
    const response = await this.server.app.fetch(new Request(url, { method, headers, body }));
    const text = await response.text();
    const isJson = response.headers.get('content-type')?.includes('json');
    return { status: response.status, headers: response.headers, text, json: isJson && text ? JSON.parse(text) : undefined };
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

/** A GraphQL front end authenticated with a bearer token. */
export async function graphqlClientFor(server: TestServer, user: { id: number }) {
  const { token } = await issueAccessToken({ userId: user.id, name: 'test' });
  return async function graphql<T = any>(query: string, variables: Record<string, unknown> = {}) {
    const response = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, ...((await response.json()) as { data?: T; errors?: { message: string; extensions?: any }[] }) };
  };
}

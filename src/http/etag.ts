import { createHash } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';

/** Bodies answered to GET that are validated rather than cached: GraphQL results and /v1 JSON or XML. */
const validatedTypes = /^(application\/(graphql-response\+)?json|application\/xml|text\/xml)\b/i;

/** Whether an If-None-Match header names this entity tag (weak comparison, as RFC 9110 asks for If-None-Match). */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

const entityTagOf = (body: string | Uint8Array) => `"${createHash('sha256').update(body).digest('base64url')}"`;

/**
 * A 200 answer to a GET whose body its maker holds as text (the /v1 facade): tagged here rather than read back from
 * the Response by `useEntityTags`, or a 304 when the client holds that body already.
 */
export function taggedAnswer(
  request: Request,
  text: string,
  headers: Record<string, string>,
  Response: typeof globalThis.Response,
): Response {
  const etag = entityTagOf(text);
  const tagged: Record<string, string> = { ...headers, etag, 'cache-control': headers['cache-control'] ?? 'private, no-cache' };
  if (!matches(request.headers.get('if-none-match'), etag)) return new Response(text, { status: 200, headers: tagged });
  const { 'content-type': _type, ...notModified } = tagged;
  return new Response(null, { status: 304, headers: notModified });
}

/**
 * ETag and `304 Not Modified` for GET on the GraphQL endpoint and /v1: the request still runs (nothing is cached on the
 * server), the tag only spares sending an unchanged body again. `Cache-Control: private, no-cache` lets a browser keep
 * the body and makes it revalidate each time, and keeps shared caches from storing one user's answer.
 */
export function useEntityTags(graphqlEndpoint: string): Plugin {
  return {
    async onResponse({ request, response, setResponse, fetchAPI }) {
      if (request.method !== 'GET' || response.status !== 200 || response.headers.has('etag')) return;
      const { pathname } = new URL(request.url);
      if (pathname !== graphqlEndpoint && pathname !== '/v1' && !pathname.startsWith('/v1/')) return;
      // Files and streams (content-disposition, server-sent events) keep their own headers.
      if (!validatedTypes.test(response.headers.get('content-type') ?? '') || response.headers.has('content-disposition')) return;
      const body = new Uint8Array(await response.arrayBuffer());
      const etag = entityTagOf(body);
      const headers = new Headers(response.headers);
      headers.set('etag', etag);
      if (!headers.has('cache-control')) headers.set('cache-control', 'private, no-cache');
      if (matches(request.headers.get('if-none-match'), etag)) {
        headers.delete('content-length');
        headers.delete('content-type');
        return setResponse(new fetchAPI.Response(null, { status: 304, headers }));
      }
      // The adapter's own Response, which it writes out as it is (Node's global one would be read back as a stream).
      setResponse(new fetchAPI.Response(body, { status: 200, statusText: response.statusText, headers }));
    },
  };
}

import { createHash } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import { unencodedEntityTag } from './compression';

/** Bodies answered to GET that are validated rather than cached: GraphQL results and /v1 JSON or XML. */
const validatedTypes = /^(application\/(graphql-response\+)?json|application\/xml|text\/xml)\b/i;

/**
 * The tag of an If-None-Match header that names this entity, in any of its content codings (weak comparison, as RFC
 * 9110 asks for If-None-Match), without `W/`; null when none does. `etag` is the unencoded answer's.
 */
export function matchingTag(ifNoneMatch: string | null, etag: string): string | null {
  if (!ifNoneMatch) return null;
  if (ifNoneMatch.trim() === '*') return etag;
  const tag = ifNoneMatch.split(',').find((tag) => unencodedEntityTag(tag) === etag);
  return tag ? tag.trim().replace(/^W\//, '') : null;
}

/**
 * A 200 answer to a GET with its entity tag, or a 304 when the client holds that body already, in whichever content
 * coding: the 304 names the tag the client holds, the one a 200 in that coding would carry (src/http/compression.ts
 * suffixes the tag of a compressed 200). The /v1 facade calls it with the text it has just rendered; `useEntityTags`
 * with the body it reads back from other answers.
 */
export function taggedAnswer(
  request: Request,
  body: string | Uint8Array<ArrayBuffer>,
  init: HeadersInit,
  Response: typeof globalThis.Response,
): Response {
  const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
  const headers = new Headers(init);
  headers.set('etag', etag);
  if (!headers.has('cache-control')) headers.set('cache-control', 'private, no-cache');
  const held = matchingTag(request.headers.get('if-none-match'), etag);
  if (!held) return new Response(body, { status: 200, headers });
  headers.set('etag', held);
  headers.delete('content-length');
  headers.delete('content-type');
  return new Response(null, { status: 304, headers });
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
      if (
        !validatedTypes.test(response.headers.get('content-type') ?? '') ||
        response.headers.has('content-disposition')
      )
        return;
      // The adapter's own Response, which it writes out as it is (Node's global one would be read back as a stream).
      setResponse(
        taggedAnswer(request, new Uint8Array(await response.arrayBuffer()), response.headers, fetchAPI.Response),
      );
    },
  };
}

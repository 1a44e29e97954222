import { type Plugin, createGraphQLError } from 'graphql-yoga';

const tooLarge = () =>
  createGraphQLError('Request body too large', {
    extensions: { http: { status: 413 }, code: 'REQUEST_ENTITY_TOO_LARGE' },
  });

/**
 * BODY_LIMIT for /graphql, in place of yoga's `maxRequestBodySize`, which meters every body through a TransformStream
 * and a stream pipeline (a new Request, an AbortController and a DOMException per request: about 7% of the CPU of a
 * small query). A declared Content-Length is checked before anything is read, and Node's HTTP parser never hands on
 * more than it declares, so such a body is not metered again; a chunked body, which declares no length, is counted
 * as it is read and refused once over the limit.
 */
export function useGraphQLBodyLimit(limit: number): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      const declared = request.headers.get('content-length');
      if (declared !== null) {
        // One non-negative integer; anything else (a list, as request smuggling sends) is refused, not skipped.
        if (!/^\d+$/.test(declared)) {
          throw createGraphQLError('Content-Length header is invalid.', {
            extensions: { http: { status: 400 }, code: 'BAD_REQUEST' },
          });
        }
        if (Number(declared) > limit) throw tooLarge();
        return;
      }
      if (!requestParser || !request.body) return;
      const parse = requestParser;
      setRequestParser((unmetered) => {
        let received = 0;
        // A native body (an in-process `fetch`) needs the native TransformStream, as in yoga's own limit.
        const Transform =
          unmetered.body instanceof ReadableStream ? globalThis.TransformStream : fetchAPI.TransformStream;
        const metered = unmetered.body!.pipeThrough(
          new Transform<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              received += chunk.byteLength;
              if (received > limit) controller.error(tooLarge());
              else controller.enqueue(chunk);
            },
          }),
        );
        const { url, method, headers, signal } = unmetered;
        return parse(
          new fetchAPI.Request(url, { method, headers, signal, body: metered, duplex: 'half' } as RequestInit),
        );
      });
    },
  };
}

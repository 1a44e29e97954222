import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { Plugin } from 'graphql-yoga';

/** The content codings answers are sent in. */
export type ContentCoding = 'br' | 'gzip' | 'identity';

/** In order of preference when a client accepts several with the same q-value: brotli is the smaller. */
const preference: ContentCoding[] = ['br', 'gzip', 'identity'];

export interface Negotiated {
  /** The coding to answer in. */
  coding: ContentCoding;
  /** Whether the client refused an unencoded answer (`identity;q=0`, or `*;q=0` without naming identity). */
  identityRefused: boolean;
}

/**
 * The content coding an Accept-Encoding header asks for (RFC 9110, 12.5.3): the one with the highest q-value among
 * br, gzip and identity, br first on a tie. A coding not named takes `*`'s q-value; identity is acceptable unless
 * refused, after the codings named; br and gzip only when named (or `*`). Without the header, identity: most
 * clients that accept a coding say so.
 */
export function negotiateEncoding(acceptEncoding: string | null): Negotiated {
  if (acceptEncoding === null) return { coding: 'identity', identityRefused: false };
  const qualities = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!name) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    qualities.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(quality) ? quality : 0);
  }
  const any = qualities.get('*');
  // Identity not named is acceptable, after every coding the client named (which it asks for by naming it).
  const qualityOf = (coding: ContentCoding) =>
    qualities.get(coding) ?? any ?? (coding === 'identity' ? Number.MIN_VALUE : 0);
  let coding: ContentCoding = 'identity';
  let best = 0;
  for (const candidate of preference) {
    if (qualityOf(candidate) > best) {
      coding = candidate;
      best = qualityOf(candidate);
    }
  }
  return { coding, identityRefused: qualityOf('identity') <= 0 };
}

/**
 * The entity tag of an answer in `coding`: the unencoded answer's with the coding appended inside the quotes, so that
 * a compressed and an uncompressed answer never share a strong tag (RFC 9110, 8.8.3), while `matchingTag`
 * (src/http/etag.ts) recognises any of them when a client revalidates.
 */
export function encodedEntityTag(etag: string, coding: ContentCoding): string {
  return coding === 'identity' ? etag : etag.replace(/"$/, `-${coding}"`);
}

const codingSuffix = /-(br|gzip)"$/;

/** The unencoded answer's tag of a tag a client holds: without `W/` and without a coding suffix. */
export function unencodedEntityTag(etag: string): string {
  return etag.trim().replace(/^W\//, '').replace(codingSuffix, '"');
}

/** Adds `Accept-Encoding` to a Vary header, keeping what it names (Origin, from the CORS answer). */
export function varyOnEncoding(headers: Headers): void {
  const vary = headers.get('vary');
  if (!vary) headers.set('vary', 'accept-encoding');
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) headers.set('vary', `${vary}, accept-encoding`);
}

const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);

/**
 * Compression of answers computed per request: brotli at quality 4 and gzip at level 6, the levels that cost a
 * fraction of a millisecond per 100 KiB while giving most of what the slowest levels give (docs/performance.md has the
 * measurements). GraphiQL's fixed assets take the slowest, once.
 */
export const dynamicLevels = { brotliQuality: 4, gzipLevel: 6 };

/** The smallest brotli window (2^bits bytes, 10 to 24) that holds `bytes`. */
const brotliWindowBits = (bytes: number) =>
  Math.min(zlib.BROTLI_MAX_WINDOW_BITS, Math.max(zlib.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(bytes + 1))));

export function compress(
  body: Uint8Array,
  coding: Exclude<ContentCoding, 'identity'>,
  levels: { brotliQuality: number; gzipLevel: number } = dynamicLevels,
): Promise<Buffer> {
  return coding === 'br'
    ? compressBrotli(body, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: levels.brotliQuality,
          // A window no larger than the answer: brotli's default (4 MiB) makes each answer allocate and fault in
          // megabytes it never uses.
          [zlib.BROTLI_PARAM_LGWIN]: brotliWindowBits(body.byteLength),
          [zlib.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
          [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        },
      })
    : compressGzip(body, { level: levels.gzipLevel });
}

/**
 * Answers smaller than this go unencoded: below about a kilobyte the whole answer fits one TCP segment (1,460 bytes of
 * a 1,500-byte MTU) either way, so compressing saves no round trip and no packet, only costs CPU on both ends, and
 * gzip's and brotli's framing eat much of the little they save.
 */
export const compressionThresholdBytes = 1024;

/** Bodies compressed: GraphQL results and /v1 JSON or XML (the same that carry entity tags, src/http/etag.ts). */
const compressibleTypes = /^(application\/(graphql-response\+)?json|application\/xml|text\/xml)\b/i;

/**
 * Compresses answers of the GraphQL endpoint and /v1 (JSON and XML) in the coding the client's Accept-Encoding asks
 * for, when they are at least `compressionThresholdBytes` long, through `yoga.fetch` and over HTTP alike. Left alone:
 * server-sent event streams and incremental delivery (other media types), file downloads (Content-Disposition, ranges)
 * and answers already encoded (GraphiQL's assets, compressed ahead). Every answer it considers names Accept-Encoding in
 * Vary, as another Accept-Encoding could have had another body; a compressed one has its Content-Length and an entity
 * tag of its own (`encodedEntityTag`). Registered after `useEntityTags`, whose 304 it leaves as it is.
 */
export function useCompression(graphqlEndpoint: string): Plugin {
  return {
    async onResponse({ request, response, setResponse, fetchAPI }) {
      const { pathname } = new URL(request.url);
      if (pathname !== graphqlEndpoint && pathname !== '/v1' && !pathname.startsWith('/v1/')) return;
      // A 304 has no body and no type: it names the tag the client holds, in the coding it holds (src/http/etag.ts).
      if (response.status === 304 && response.headers.has('etag')) {
        varyOnEncoding(response.headers);
        return;
      }
      if (
        !compressibleTypes.test(response.headers.get('content-type') ?? '') ||
        response.headers.has('content-encoding') ||
        response.headers.has('content-disposition') ||
        response.headers.has('content-range')
      )
        return;
      varyOnEncoding(response.headers);
      if (request.method === 'HEAD' || response.status === 204) return;
      const { coding, identityRefused } = negotiateEncoding(request.headers.get('accept-encoding'));
      if (coding === 'identity') return;
      const body = new Uint8Array(await response.arrayBuffer());
      const headers = new Headers(response.headers);
      const init = { status: response.status, statusText: response.statusText, headers };
      // The adapter's own Response, which it writes out as it is (Node's global one would be read back as a stream).
      if (body.byteLength < compressionThresholdBytes && !identityRefused) {
        setResponse(new fetchAPI.Response(body, init));
        return;
      }
      const compressed = await compress(body, coding);
      headers.set('content-encoding', coding);
      headers.set('content-length', String(compressed.byteLength));
      const etag = headers.get('etag');
      if (etag) headers.set('etag', encodedEntityTag(etag, coding));
      setResponse(
        new fetchAPI.Response(
          new Uint8Array(compressed.buffer as ArrayBuffer, compressed.byteOffset, compressed.byteLength),
          init,
        ),
      );
    },
  };
}

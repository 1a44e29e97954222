import type { YogaServerOptions } from 'graphql-yoga';

/** Response headers a script on another origin may read: the request id to quote, caching and rate-limit state. */
export const exposedHeaders = [
  'x-request-id',
  'etag',
  'retry-after',
  'www-authenticate',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
];
/** How long a browser may reuse a preflight's answer, in seconds. */
export const preflightMaxAgeSeconds = 86_400;

type CorsOption = NonNullable<YogaServerOptions<Record<string, unknown>, Record<string, unknown>>['cors']>;

/**
 * Yoga's CORS answers for /graphql and /v1 alike (the facade keeps these headers on its OPTIONS answers): any origin
 * by default, or only the listed ones (CORS_ORIGINS), which get no CORS headers otherwise, so the browser refuses.
 * Never with credentials: clients send a bearer token or an OAuth signature, no cookie.
 */
export function corsPolicy(origins: ReadonlySet<string> | null): CorsOption {
  const common = { credentials: false, exposedHeaders, maxAge: preflightMaxAgeSeconds };
  if (!origins) return { ...common, origin: '*' };
  return (request: Request) => {
    const origin = request.headers.get('origin');
    return origin && origins.has(origin) ? { ...common, origin: [origin] } : false;
  };
}

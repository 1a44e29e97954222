/**
 * `/metrics` and the request measurements behind it. The scrape is served behind METRICS_TOKEN on the main port and/or
 * on a listener of its own (METRICS_PORT); without either, metrics are off and `/metrics` is an unknown path (404).
 * prom-client rather than envelop's Prometheus plugin: that plugin measures GraphQL phases only, where the /v1 facade,
 * authentication and the non-GraphQL paths need the request as a whole; and most values (statements, webhooks, the
 * event log) are produced outside GraphQL altogether.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import { type DocumentNode, getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isAsyncIterable } from 'graphql-yoga';
import type { MetricsSettings } from '../config';
import {
  type RequestLabels,
  type SubscriptionTransport,
  enableMetrics,
  observeRequest,
  openSubscription,
} from '../ops/metrics';
import '../ops/metrics-probes';
import type { RestRoute } from '../rest/route';

export const metricsPath = '/metrics';

/**
 * How many GraphQL operation names `/graphql` may add as label values; later names count as `other`. Clients choose
 * names, so without a cap any authenticated client could add series without end. A deployment with TRUSTED_DOCUMENTS
 * has its manifest's names only; /v1 routes' own documents are not counted against the cap.
 */
export const maxOperationNames = 100;
const maxOperationNameLength = 64;

/** Paths whose text is their own label; any other path outside /v1 and /graphql is labelled by a template or `unmatched`. */
const fixedPaths = new Set(['/graphql', '/v1/openapi.json', '/v1/docs']);
const pathTemplates: [RegExp, string][] = [
  [/^\/calendar\//, '/calendar/{token}.ics'],
  [/^\/web-packages\//, '/web-packages/{id}/{grant}/*'],
];

interface RequestState {
  started: number;
  pathname: string;
  /** The /v1 route the facade matched (`GET /v1/groups/{id}`). */
  route: string | null;
  operation: string | null;
  operationType: string | null;
}

const states = new WeakMap<Request, RequestState>();

/** The operation a measured request runs, once it has passed authentication and validation. */
function noteOperation(args: { contextValue: unknown; document: unknown; operationName?: string | null }) {
  const request = (args.contextValue as { request?: Request } | undefined)?.request;
  const state = request && states.get(request);
  if (!state) return;
  const operation = getOperationAST(args.document as DocumentNode, args.operationName);
  state.operationType = operation?.operation ?? 'none';
  const name = operation?.name?.value;
  state.operation = !name ? 'anonymous' : state.route ? name : boundedOperationName(name);
}

/** The facade tells which route a /v1 request matched; nothing is kept while metrics are off. */
export function noteRestRoute(request: Request, route: Pick<RestRoute, 'method' | 'path'>): void {
  const state = states.get(request);
  if (state) state.route = `${route.method} /v1${route.path}`;
}

const operationNames = new Set<string>();

function boundedOperationName(name: string): string {
  if (operationNames.has(name)) return name;
  if (operationNames.size >= maxOperationNames || name.length > maxOperationNameLength) return 'other';
  operationNames.add(name);
  return name;
}

function routeOf(state: RequestState): { surface: RequestLabels['surface']; route: string } {
  const { pathname } = state;
  if (pathname === '/graphql') return { surface: 'graphql', route: pathname };
  const rest = pathname === '/v1' || pathname.startsWith('/v1/');
  if (state.route) return { surface: 'rest', route: state.route };
  if (fixedPaths.has(pathname)) return { surface: rest ? 'rest' : 'other', route: pathname };
  if (rest) return { surface: 'rest', route: 'unmatched' };
  for (const [pattern, template] of pathTemplates)
    if (pattern.test(pathname)) return { surface: 'other', route: template };
  return { surface: 'other', route: 'unmatched' };
}

function authSchemeOf(request: Request): RequestLabels['auth'] {
  const header = request.headers.get('authorization');
  if (!header) return 'none';
  if (/^oauth\s/i.test(header)) return 'oauth1';
  if (/^bearer\s/i.test(header)) return 'bearer';
  return 'none';
}

/** graphql-ws operations carry the socket's context (`extra`, src/http/server.ts); over HTTP, SSE or multipart. */
function transportOf(contextValue: unknown): SubscriptionTransport {
  const context = contextValue as { extra?: unknown; request?: Request };
  if (context.extra) return 'graphql-ws';
  return context.request?.headers.get('accept')?.includes('text/event-stream') ? 'sse' : 'http';
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The scrape's answer: 401 without a bearer token, 403 with a wrong one (compared in constant time), when a token is
 * configured.
 */
export async function scrape(
  settings: MetricsSettings,
  authorization: string | null | undefined,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  if (settings.token) {
    const sent = /^bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim();
    if (!sent)
      return {
        status: 401,
        headers: { 'www-authenticate': 'Bearer realm="metrics"', 'content-type': 'text/plain; charset=utf-8' },
        body: 'A bearer token (METRICS_TOKEN) is required\n',
      };
    if (!timingSafeEqual(digest(sent), digest(settings.token)))
      return { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Wrong metrics token\n' };
  }
  const { registry } = enableMetrics();
  return {
    status: 200,
    headers: { 'content-type': registry.contentType, 'cache-control': 'no-store' },
    body: await registry.metrics(),
  };
}

/**
 * Measures every request but the health checks and the scrape (lectern_http_request_duration_seconds), counts open
 * subscriptions, and serves `/metrics` on the main port when METRICS_TOKEN is set. First among the app's plugins, so
 * the time covers the others.
 */
export function useMetrics(settings: MetricsSettings): Plugin {
  enableMetrics();
  return {
    async onRequest({ request, url, endResponse, fetchAPI }) {
      const { pathname } = url;
      if (pathname === metricsPath && settings.token) {
        const answer = await scrape(settings, request.headers.get('authorization'));
        return endResponse(new fetchAPI.Response(answer.body, answer));
      }
      if (pathname === '/healthz' || pathname === '/readyz') return;
      states.set(request, { started: performance.now(), pathname, route: null, operation: null, operationType: null });
    },
    onExecute: ({ args }) => noteOperation(args),
    onSubscribe({ args }) {
      // Over SSE the subscription is the request's operation; over graphql-ws there is no request to label.
      noteOperation(args);
      return {
        onSubscribeResult({ args, result }) {
          if (!isAsyncIterable(result)) return;
          return { onEnd: openSubscription(transportOf(args.contextValue)) };
        },
      };
    },
    onResponse({ request, response }) {
      const state = states.get(request);
      if (!state) return;
      states.delete(request);
      observeRequest(
        {
          ...routeOf(state),
          // Requests refused before execution (authentication, validation, rate limit) ran no operation.
          operation: state.operation ?? 'none',
          operation_type: state.operationType ?? 'none',
          status_class: `${Math.floor(response.status / 100)}xx`,
          auth: authSchemeOf(request),
        },
        performance.now() - state.started,
      );
    },
  };
}

/** METRICS_PORT's listener: `GET /metrics` and nothing else, with METRICS_TOKEN required when it is set. */
export function createMetricsServer(settings: MetricsSettings): Server {
  enableMetrics();
  return createServer((request, response) => {
    const pathname = (request.url ?? '/').split('?')[0];
    if (pathname !== metricsPath || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    scrape(settings, request.headers.authorization).then(
      (answer) => response.writeHead(answer.status, answer.headers).end(answer.body),
      (error: Error) =>
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`${error.message}\n`),
    );
  });
}

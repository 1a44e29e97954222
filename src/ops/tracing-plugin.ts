import { type Span, SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { loggedPath, requestIdOf } from '../http/logging';
import { routeTemplateOf } from '../rest/route-template';
import { incomingContext, tracer } from './tracing';

/** Polled by load balancers every few seconds: a trace each would bury the requests worth reading. */
const untracedPaths = new Set(['/healthz', '/readyz']);

/** Operation spans already named by their /v1 route, which the GraphQL operation's name must not replace. */
const routeNamed = new WeakSet<Span>();

/** Ends `span` when `wrapped` has finished, whether it returned at once or a promise. */
function runWithin(span: Span, wrapped: () => Promise<void> | void): Promise<void> | void {
  let result: Promise<void> | void;
  try {
    result = context.with(trace.setSpan(context.active(), span), wrapped);
  } catch (error) {
    span.end();
    throw error;
  }
  if (!result) {
    span.end();
    return result;
  }
  return result.finally(() => span.end());
}

/**
 * The request's server span and the GraphQL operation's span, on yoga's instrumentation hooks, which wrap the whole
 * handling of a request (the /v1 facade included: it runs in an `onRequest` hook) and each execution, so that the spans
 * made beneath (SQL statements, Redis commands) have them as parents.
 *
 * - The server span continues the trace of the request's `traceparent`, and is named by method and route: `POST
 *   /graphql`, `GET /v1/groups/{id}` (the matched route's template), or the method alone for other paths.
 * - The operation span is named by the route's template on /v1 (whose operations are the facade's, not the client's),
 *   and as `query groups` (type and operation name) on /graphql. Field resolvers get no span: the I/O they do is
 *   already visible as the statements under the operation, and a span per field would cost more than the query.
 *
 * Installed last among the app's plugins, so that the status its `onResponse` reads is the final one.
 */
export function useTracing(): Plugin {
  const serverSpans = new WeakMap<Request, Span>();
  return {
    instrumentation: {
      request({ request }, wrapped) {
        const url = new URL(request.url);
        if (untracedPaths.has(url.pathname)) return wrapped();
        const parent = incomingContext(request.headers);
        const span = tracer().startSpan(request.method, { kind: SpanKind.SERVER }, parent);
        // A trace sampled out still runs within its span's context, which its children need, but its attributes
        // would be work for nothing.
        if (span.isRecording()) {
          span.setAttributes({
            'http.request.method': request.method,
            'url.scheme': url.protocol.replace(':', ''),
            'url.path': loggedPath(url.pathname),
            'user_agent.original': request.headers.get('user-agent') ?? undefined,
            'lectern.request_id': requestIdOf(request),
          });
          serverSpans.set(request, span);
        }
        return context.with(parent, () => runWithin(span, wrapped));
      },
      execute({ context: initial }, wrapped) {
        // Under a request sampled out the operation would not be recorded either (the samplers follow the parent).
        if (trace.getSpan(context.active())?.isRecording() === false) return wrapped();
        const route = (initial as { request?: Request }).request
          ? routeTemplateOf((initial as { request: Request }).request)
          : undefined;
        const span = tracer().startSpan(route ?? 'graphql operation', {
          kind: SpanKind.INTERNAL,
          attributes: route ? { 'http.route': route.slice(route.indexOf(' ') + 1) } : {},
        });
        if (route) routeNamed.add(span);
        return runWithin(span, wrapped);
      },
    },
    onExecute({ args }) {
      const span = trace.getActiveSpan();
      if (!span?.isRecording()) return;
      const operation = getOperationAST(args.document, args.operationName);
      if (!operation) return;
      const name = operation.name?.value;
      span.setAttribute('graphql.operation.type', operation.operation);
      if (name) span.setAttribute('graphql.operation.name', name);
      if (!routeNamed.has(span)) span.updateName(name ? `${operation.operation} ${name}` : operation.operation);
    },
    onResponse({ request, response }) {
      const span = serverSpans.get(request);
      if (!span) return;
      const route = routeTemplateOf(request);
      const path = route ? route.slice(route.indexOf(' ') + 1) : new URL(request.url).pathname;
      if (route || path === '/graphql') {
        span.setAttribute('http.route', path);
        span.updateName(`${request.method} ${path}`);
      }
      span.setAttribute('http.response.status_code', response.status);
      if (response.status >= 500) {
        span.setAttribute('error.type', String(response.status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
    },
  };
}

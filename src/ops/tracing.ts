import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  context,
  propagation,
  trace,
} from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * OpenTelemetry traces (docs/operations.md#traces). Off unless the environment asks for them: the SDK is then never
 * loaded, the app gets no tracing plugin, and every hook here returns after one test of a boolean.
 *
 * Spans are made by hand at our own boundaries (the app's request handling, the driver adapter, the Redis connection,
 * the webhook sender) rather than by require-hook instrumentation: the server is an ES module bundle that imports `pg`
 * and `ioredis` before any code of ours runs, so `@opentelemetry/instrumentation-pg` would only see them with a loader
 * hook registered by a flag on the node command line, and PGlite, the embedded database, has no instrumentation at all.
 */

const tracerName = 'lectern';
let tracing = false;

/** Whether traces are being made: the SDK started in this process. */
export const isTracing = () => tracing;

const tracer = () => trace.getTracer(tracerName);

/**
 * Traces are on when the environment names where they go: `OTEL_TRACES_EXPORTER` (other than `none`), or an OTLP
 * endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`). `OTEL_SDK_DISABLED=true` wins.
 */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = env.OTEL_TRACES_EXPORTER?.split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (exporters?.length) return !exporters.every((name) => name === 'none');
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

export interface Tracing {
  /** Exports the spans still queued and unregisters the SDK, so that the process makes no more. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** Instead of the exporter the `OTEL_*` variables configure (the tests' in-memory exporter). */
  spanProcessors?: SpanProcessor[];
}

/**
 * Starts the official Node SDK, which reads the exporter, the sampler (`OTEL_TRACES_SAMPLER`, `_ARG`), the service's
 * name and the propagators from the `OTEL_*` variables. Only traces: metrics are Prometheus' at /metrics and logs are
 * JSON lines on stdout, so the SDK's own metric and log exporters (OTLP by default) are not started.
 */
export async function startTracing(options: TracingOptions = {}): Promise<Tracing> {
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ? undefined : 'lectern',
    metricReaders: [],
    logRecordProcessors: [],
    ...(options.spanProcessors ? { spanProcessors: options.spanProcessors } : {}),
  });
  sdk.start();
  tracing = true;
  return {
    async shutdown() {
      tracing = false;
      await sdk.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** Starts tracing when the environment asks for it (`tracingRequested`); null otherwise. */
export async function startTracingFromEnvironment(env: NodeJS.ProcessEnv, logger: Logger): Promise<Tracing | null> {
  if (!tracingRequested(env)) return null;
  const started = await startTracing();
  logger.info(
    {
      exporter: env.OTEL_TRACES_EXPORTER ?? 'otlp',
      sampler: env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on',
      samplerArg: env.OTEL_TRACES_SAMPLER_ARG,
    },
    'OpenTelemetry traces on',
  );
  return started;
}

/**
 * Statements and commands get a span only under a recorded one: those of background work (the event log's follower
 * polls every second, the sweeps) would otherwise each be a trace of their own, and the children of a trace sampled
 * out would not be recorded anyway.
 */
const withinRecordedSpan = () => trace.getSpan(context.active())?.isRecording() === true;

const childSpan = (name: string, kind: SpanKind, attributes: Attributes): Span =>
  tracer().startSpan(name, { kind, attributes });

function endWithError(span: Span, error: unknown): void {
  const failure = error instanceof Error ? error : new Error(String(error));
  span.recordException(failure);
  span.setAttribute('error.type', (failure as { code?: string }).code ?? failure.name);
  span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
  span.end();
}

/** Ends `span` when `work` settles, with the error it rejects with; `work`'s own outcome is passed on. */
function endWith<T>(span: Span, work: Promise<T>, onValue?: (value: T) => void): Promise<T> {
  return work.then(
    (value) => {
      onValue?.(value);
      span.end();
      return value;
    },
    (error: unknown) => {
      endWithError(span, error);
      throw error;
    },
  );
}

/** `SELECT ... FROM "public"."Group"` -> SELECT, Group: a statement's verb and first table, for its span's name. */
const statementShape = /^\s*(\w+)(?:[\s\S]*?\b(?:FROM|INTO|UPDATE)\s+(?:"?\w+"?\.)?"?(\w+)"?)?/i;

/**
 * One span per SQL statement, at the driver-adapter boundary that every statement of Prisma passes (src/db/database.ts)
 * and around the direct statements of the pool: on PGlite and PostgreSQL alike. The text is the parameterised one, so
 * no value a user sent is in it. On PostgreSQL the time includes waiting for a pooled connection.
 */
export function traceStatement<T>(sql: string, run: () => Promise<T>): Promise<T> {
  if (!tracing || !withinRecordedSpan()) return run();
  const [, verb = 'SQL', table] = statementShape.exec(sql) ?? [];
  const operation = verb.toUpperCase();
  const span = childSpan(table ? `${operation} ${table}` : operation, SpanKind.CLIENT, {
    'db.system.name': 'postgresql',
    'db.operation.name': operation,
    ...(table ? { 'db.collection.name': table } : {}),
    'db.query.text': sql,
  });
  return endWith(span, run());
}

/**
 * One span per command sent on a Redis connection (rate-limit counts, OAuth nonces, persisted queries, commit
 * announcements): ioredis sends every command, scripts and transactions included, through `sendCommand`. Only the
 * command's name is recorded, never its keys or values (nonces, query texts).
 */
export function traceRedisCommands(client: Redis): void {
  if (!tracing) return;
  const send = client.sendCommand.bind(client);
  client.sendCommand = ((command, stream) => {
    if (!withinRecordedSpan()) return send(command, stream);
    const name = command.name.toUpperCase();
    const span = childSpan(name, SpanKind.CLIENT, { 'db.system.name': 'redis', 'db.operation.name': name });
    const result = send(command, stream);
    void endWith(span, command.promise).catch(() => {});
    return result;
  }) as Redis['sendCommand'];
}

export interface WebhookAttemptFacts {
  deliveryId: bigint | number;
  eventId: bigint | number;
  targetId: number;
  /** 1 for the first attempt. */
  attempt: number;
  url: string;
}

/**
 * A client span for one webhook attempt, the root of a trace of its own: an attempt runs seconds to days after the
 * write that caused it, possibly on another instance, and retries are hours apart. The receiver gets the span's
 * `traceparent` (and `tracestate`) beside the signature headers, so its own spans join the attempt's trace. Only the
 * target's host and port are recorded: receivers put tokens in paths and query strings.
 */
export async function traceWebhookAttempt<T extends { statusCode: number | null; error: string | null }>(
  facts: WebhookAttemptFacts,
  send: (traceHeaders: Record<string, string>) => Promise<T>,
): Promise<T> {
  if (!tracing) return send({});
  const target = new URL(facts.url);
  const span = tracer().startSpan(
    'webhook attempt',
    {
      kind: SpanKind.CLIENT,
      root: true,
      attributes: {
        'http.request.method': 'POST',
        'server.address': target.hostname,
        'server.port': Number(target.port) || (target.protocol === 'https:' ? 443 : 80),
        'lectern.webhook.delivery_id': String(facts.deliveryId),
        'lectern.webhook.event_id': String(facts.eventId),
        'lectern.webhook.target_id': facts.targetId,
        'lectern.webhook.attempt': facts.attempt,
      },
    },
    ROOT_CONTEXT,
  );
  const headers: Record<string, string> = {};
  const within = trace.setSpan(ROOT_CONTEXT, span);
  propagation.inject(within, headers);
  return endWith(
    span,
    context.with(within, () => send(headers)),
    (outcome) => {
      if (outcome.statusCode !== null) span.setAttribute('http.response.status_code', outcome.statusCode);
      if (outcome.error !== null || outcome.statusCode === null || outcome.statusCode >= 400) {
        span.setAttribute('error.type', outcome.statusCode === null ? 'no answer' : String(outcome.statusCode));
        span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error ?? undefined });
      }
    },
  );
}

/** Reads a trace context from a fetch `Headers` (the incoming request's `traceparent` and `tracestate`). */
const headersGetter: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/** The context an incoming request continues: its `traceparent`'s trace, or a new one. */
export const incomingContext = (headers: Headers): Context => propagation.extract(ROOT_CONTEXT, headers, headersGetter);

export { tracer };

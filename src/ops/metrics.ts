/**
 * Prometheus metrics (prom-client): the registry, its instruments, and the small hooks the code that produces each
 * value calls. Metrics are off until `enableMetrics()` (METRICS_PORT or METRICS_TOKEN, see createApp): until then every
 * hook returns at its first line, so a server that is not scraped pays nothing for them. Label values come from fixed
 * sets (route templates, reasons, outcomes) and never hold an id or a raw path. docs/operations.md, "Metrics", lists
 * them.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Why a request was refused before it ran for lack of budget: lectern_rate_limit_rejections_total's `reason`. */
export type RejectionReason =
  | 'rate_limit'
  | 'cost_exceeds_budget'
  | 'auth_failures_per_address'
  | 'auth_failures_per_consumer_key'
  | 'anonymous_per_address';

/** Why a credential was refused (401): lectern_auth_failures_total's `reason`. */
export type AuthFailureReason =
  | 'malformed_oauth'
  | 'unknown_consumer_key'
  | 'bad_signature'
  | 'stale_timestamp'
  | 'replayed_nonce'
  | 'invalid_bearer_token'
  | 'invalid_oauth_token';

/** A finished webhook attempt's verdict (src/webhooks/worker.ts); `released` attempts were never sent. */
export type WebhookVerdict = 'delivered' | 'retry' | 'failed' | 'gone';

export type SubscriptionTransport = 'graphql-ws' | 'sse' | 'http';

export type RequestLabels = {
  surface: 'graphql' | 'rest' | 'other';
  route: string;
  operation: string;
  operation_type: string;
  status_class: string;
  auth: 'oauth1' | 'bearer' | 'none';
};

const seconds = (ms: number) => ms / 1000;

function createInstruments(registry: Registry) {
  const registers = [registry];
  return {
    registry,
    requestDuration: new Histogram({
      name: 'lectern_http_request_duration_seconds',
      help: 'Time from a request to its response headers, by surface, route template, GraphQL operation, status class and auth scheme',
      labelNames: ['surface', 'route', 'operation', 'operation_type', 'status_class', 'auth'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    rejections: new Counter({
      name: 'lectern_rate_limit_rejections_total',
      help: 'Requests refused by a rate limit (429) or as costlier than the whole budget (400), by reason',
      labelNames: ['reason'] as const,
      registers,
    }),
    authFailures: new Counter({
      name: 'lectern_auth_failures_total',
      help: 'Credentials refused with 401, by reason',
      labelNames: ['reason'] as const,
      registers,
    }),
    statementDuration: new Histogram({
      name: 'lectern_db_statement_duration_seconds',
      help: 'Time of one SQL statement as the database driver ran it (queueing for a connection included)',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
      registers,
    }),
    statementsInFlight: new Gauge({
      name: 'lectern_db_statements_in_flight',
      help: 'SQL statements sent and not yet answered (on PGlite, which runs one at a time, those past the first wait)',
      registers,
    }),
    webhookAttempts: new Counter({
      name: 'lectern_webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome: delivered (2xx), retry (will be sent again), failed (given up), gone (410)',
      labelNames: ['outcome'] as const,
      registers,
    }),
    webhookAttemptDuration: new Histogram({
      name: 'lectern_webhook_attempt_duration_seconds',
      help: "Time of one webhook attempt, until the receiver's answer or the timeout",
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    webhookTargetsDisabledTotal: new Counter({
      name: 'lectern_webhook_targets_disabled_total',
      help: 'Webhook targets this instance disabled after they failed every attempt for too long',
      registers,
    }),
    subscriptionsOpen: new Gauge({
      name: 'lectern_subscriptions_open',
      help: 'GraphQL subscriptions open in this instance, by transport',
      labelNames: ['transport'] as const,
      registers,
    }),
    uploadBytes: new Counter({
      name: 'lectern_upload_bytes_total',
      help: 'Bytes of uploaded files received, by outcome: stored, or refused (size, checksum, storage)',
      labelNames: ['outcome'] as const,
      registers,
    }),
  };
}

export type Instruments = ReturnType<typeof createInstruments>;

/** The process's instruments; null while metrics are off. */
let instruments: Instruments | null = null;
const onEnable: ((instruments: Instruments) => void)[] = [];

/**
 * Turns metrics on for the process (idempotent) and returns its registry. One process serves one app, so one registry:
 * the hooks below are called from code that has no app at hand (the database driver, the webhook worker).
 */
export function enableMetrics(): Instruments {
  if (instruments) return instruments;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  instruments = createInstruments(registry);
  for (const extend of onEnable) extend(instruments);
  return instruments;
}

/** Runs `extend` with the instruments once metrics are on: gauges read at scrape time register this way. */
export function whenMetricsEnabled(extend: (instruments: Instruments) => void): void {
  onEnable.push(extend);
  if (instruments) extend(instruments);
}

export const metricsEnabled = (): boolean => instruments !== null;

export function observeRequest(labels: RequestLabels, durationMs: number): void {
  instruments?.requestDuration.observe(labels, seconds(durationMs));
}

export function countRejection(reason: RejectionReason): void {
  instruments?.rejections.inc({ reason });
}

export function countAuthFailure(reason: AuthFailureReason): void {
  instruments?.authFailures.inc({ reason });
}

/** Times one statement; the promise itself when metrics are off. */
export function timeStatement<T>(statement: Promise<T>): Promise<T> {
  const on = instruments;
  if (!on) return statement;
  const started = performance.now();
  on.statementsInFlight.inc();
  const done = () => {
    on.statementsInFlight.dec();
    on.statementDuration.observe(seconds(performance.now() - started));
  };
  statement.then(done, done);
  return statement;
}

export function countWebhookAttempt(verdict: WebhookVerdict, latencyMs: number): void {
  if (!instruments) return;
  instruments.webhookAttempts.inc({ outcome: verdict });
  instruments.webhookAttemptDuration.observe(seconds(latencyMs));
}

export function countWebhookTargetDisabled(): void {
  instruments?.webhookTargetsDisabledTotal.inc();
}

/** Counts a subscription open until the returned function is called (once). */
export function openSubscription(transport: SubscriptionTransport): () => void {
  const on = instruments;
  if (!on) return () => {};
  on.subscriptionsOpen.inc({ transport });
  let open = true;
  return () => {
    if (!open) return;
    open = false;
    on.subscriptionsOpen.dec({ transport });
  };
}

export function countUploadBytes(outcome: 'stored' | 'refused', bytes: number): void {
  if (bytes > 0) instruments?.uploadBytes.inc({ outcome }, bytes);
}

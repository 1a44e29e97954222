import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { createLogger } from '../../src/http/logging';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { type Tracing, isTracing, startTracing, traceRedisCommands, tracingRequested } from '../../src/ops/tracing';
import { requestConnectionOptions } from '../../src/redis/breaker';
import { createWebhookWorker } from '../../src/webhooks/worker';
import { clientsFor } from '../support/client';
import { createGroup, createUser, createWorld } from '../support/factories';
import { listenOnLoopback, testOrigin, useTestServer } from '../support/harness';

// Tracing starts before the test server's app is built (hooks run in the order they are registered), so the app gets
// its tracing plugin, as it does in a process started with OTEL_* set.
const exporter = new InMemorySpanExporter();
const logger = createLogger({ logLevel: 'silent' });
let tracing: Tracing;
beforeAll(async () => {
  tracing = await startTracing({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
});
// The worker process keeps its modules for the next test file, which must find traces off again.
afterAll(() => tracing.shutdown());

const server = useTestServer({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_ALLOW_HTTP: 'on' });
const clients = clientsFor(server);

const incomingTraceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const incomingSpanId = '00f067aa0ba902b7';
const traceparent = `00-${incomingTraceId}-${incomingSpanId}-01`;

const spansOf = (traceId: string) =>
  exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
const childrenOf = (spans: ReadableSpan[], parent: ReadableSpan) =>
  spans.filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);

let token: string;
let world: Awaited<ReturnType<typeof createWorld>>;
beforeAll(async () => {
  world = await createWorld();
  ({ token } = await issueAccessToken({ userId: world.districtAdmin.id, name: 'tracing' }));
});

describe('traces (OpenTelemetry)', () => {
  it('continues the traceparent of a /v1 request: server span, operation named by route, SQL beneath', async () => {
    const group = await createGroup(world.school.id);
    const listener = await listenOnLoopback(server);
    try {
      exporter.reset();
      const response = await fetch(`http://127.0.0.1:${listener.port}/v1/groups/${group.id}`, {
        headers: { authorization: `Bearer ${token}`, traceparent, accept: 'application/json' },
      });
      expect(response.status).toBe(200);
      await response.text();
    } finally {
      await listener.close();
    }
    await expect.poll(() => spansOf(incomingTraceId).some((span) => span.kind === SpanKind.SERVER)).toBe(true);
    const spans = spansOf(incomingTraceId);

    const [serverSpan] = spans.filter((span) => span.kind === SpanKind.SERVER);
    expect(serverSpan.name).toBe('GET /v1/groups/{id}');
    expect(serverSpan.parentSpanContext?.spanId).toBe(incomingSpanId);
    expect(serverSpan.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/v1/groups/{id}',
      'http.response.status_code': 200,
      'url.path': `/v1/groups/${group.id}`,
    });

    const [operation, ...others] = childrenOf(spans, serverSpan).filter((span) => span.kind === SpanKind.INTERNAL);
    expect(others).toEqual([]);
    expect(operation.name).toBe('GET /v1/groups/{id}');
    expect(operation.attributes).toMatchObject({ 'graphql.operation.type': 'query', 'http.route': '/v1/groups/{id}' });

    const statements = childrenOf(spans, operation);
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      expect(statement.kind).toBe(SpanKind.CLIENT);
      expect(statement.attributes['db.system.name']).toBe('postgresql');
      expect(statement.attributes['db.query.text']).toEqual(expect.any(String));
    }
    // The group itself is read by one of them, named by verb and table; its id is a parameter, not in the text.
    const read = statements.find((span) => /^SELECT /.test(span.name) && /group/i.test(span.name));
    expect(read?.attributes['db.operation.name']).toBe('SELECT');
    expect(read?.attributes['db.query.text']).toMatch(/\$1\b/);
    // Every span of the request is in the incoming trace, under its server span.
    expect(spans.every((span) => span === serverSpan || span.parentSpanContext?.spanId)).toBe(true);
  });

  it('names a /graphql operation by its type and name, and realm routes by their OpenAPI path', async () => {
    exporter.reset();
    const gql = await clients.graphql(world.districtAdmin);
    expect((await gql('query SchoolsOfMine { schools(limit: 1) { total } }')).status).toBe(200);
    const rest = await clients.rest(world.districtAdmin);
    expect((await rest.get(`/schools/${world.school.id}/posts`)).status).toBe(200);

    const names = exporter.getFinishedSpans().map((span) => `${SpanKind[span.kind]} ${span.name}`);
    expect(names).toContain('SERVER POST /graphql');
    expect(names).toContain('INTERNAL query SchoolsOfMine');
    expect(names).toContain('SERVER GET /v1/schools/{school_id}/posts');
    expect(names).toContain('INTERNAL GET /v1/schools/{school_id}/posts');
  });

  it('records nothing of a request whose caller sampled its trace out', async () => {
    exporter.reset();
    const unsampled = `00-${'5'.repeat(32)}-${incomingSpanId}-00`;
    const rest = await clients.rest(world.districtAdmin);
    expect((await rest.get('/groups', { headers: { traceparent: unsampled } })).status).toBe(200);
    expect((await rest.get('/groups')).status).toBe(200);
    // The request without a traceparent is sampled (the default sampler): it shows the exporter was listening.
    expect(exporter.getFinishedSpans().some((span) => span.name === 'GET /v1/groups')).toBe(true);
    expect(spansOf('5'.repeat(32))).toEqual([]);
  });

  it('sends a traceparent on a webhook attempt, the trace of its client span', async () => {
    const received: IncomingHttpHeaders[] = [];
    let targetId = 0;
    const receiver = createServer((request, response) => {
      received.push(request.headers);
      request.resume().on('end', () => response.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const admin = await clients.rest(await createUser(world.school.id, 'SCHOOL_ADMIN', { triggerAdmin: true }));
      const target = await admin.post('/triggers/targets', {
        target: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      });
      expect(target.status).toBe(201);
      targetId = target.json.id;
      await admin.put('/triggers/subscriptions', {
        subscription: [{ target_id: targetId, trigger: 'group', subscribed: 1 }],
      });
      expect((await admin.post('/groups', { title: 'Traced club' })).status).toBe(201);

      exporter.reset();
      const worker = createWebhookWorker({ serverKey: server.serverKey, linkBase: testOrigin });
      await expect
        .poll(async () => {
          await worker.runOnce();
          return received.length;
        })
        .toBeGreaterThan(0);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
    const [sent] = received;
    const [, traceId, parentId, flags] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(
      String(sent.traceparent),
    )!;
    expect(flags).toBe('01');
    const attempt = exporter.getFinishedSpans().find((span) => span.spanContext().spanId === parentId)!;
    expect(attempt.name).toBe('webhook attempt');
    expect(attempt.kind).toBe(SpanKind.CLIENT);
    expect(attempt.spanContext().traceId).toBe(traceId);
    expect(attempt.parentSpanContext).toBeUndefined();
    expect(attempt.attributes).toMatchObject({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'http.response.status_code': 204,
      'lectern.webhook.target_id': targetId,
      'lectern.webhook.attempt': 1,
    });
  });

  it('records each Redis command a request sends as a span under it, by command name only', async () => {
    const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', {
      lazyConnect: true,
      ...requestConnectionOptions,
    });
    await redis.connect();
    try {
      traceRedisCommands(redis);
      // Rate limits counted in Redis: a command on every request.
      const config = { ...server.config, rateLimit: { points: 1000, windowSeconds: 1 } };
      const app = createApp({ config, database: server.database, serverKey: server.serverKey, logger, redis });
      exporter.reset();
      const response = await app.fetch(
        new Request(new URL('/v1/users/me', testOrigin), {
          headers: { authorization: `Bearer ${token}`, traceparent },
        }),
      );
      expect(response.status).toBeLessThan(400);
    } finally {
      redis.disconnect();
    }
    const spans = spansOf(incomingTraceId);
    const serverSpan = spans.find((span) => span.kind === SpanKind.SERVER)!;
    const commands = spans.filter((span) => span.attributes['db.system.name'] === 'redis');
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      expect(command.parentSpanContext?.spanId).toBe(serverSpan.spanContext().spanId);
      expect(command.name).toBe(command.attributes['db.operation.name']);
      expect(Object.keys(command.attributes).sort()).toEqual(['db.operation.name', 'db.system.name']);
    }
  });
});

describe('when traces are on', () => {
  it('is what OTEL_* ask for: an exporter other than none, or an OTLP endpoint, unless the SDK is disabled', () => {
    expect(isTracing()).toBe(true);
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_SERVICE_NAME: 'lectern', OTEL_TRACES_SAMPLER: 'always_on' })).toBe(false);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'none, zipkin' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(
      false,
    );
  });
});

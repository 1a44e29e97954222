import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parse as parseYaml } from 'yaml';
import { createApp } from '../../src/app';
import { ConfigError, loadConfig } from '../../src/config';
import { createMetricsServer, maxOperationNames } from '../../src/http/metrics';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { subscriptionActivity } from '../../src/modules/subscriptions/event.quota';
import { forgetProbe } from '../../src/ops/metrics-probes';
import { createWebhookWorker } from '../../src/webhooks/worker';
import { type RestClient, restClientFor } from '../support/client';
import { type World, createGroup, createUser, createWorld } from '../support/factories';
import { listenOnLoopback, testOrigin, useTestServer } from '../support/harness';
import { plainBytes, uploadFile } from '../support/uploads';

const token = 'metrics-token-for-tests-0123456789';
const server = useTestServer({
  METRICS_TOKEN: token,
  RATE_LIMIT: '150/1m',
  WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
  WEBHOOK_ALLOW_HTTP: 'on',
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses Prometheus' text format (what a scrape returns) into samples. */
function parseExposition(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels: Record<string, string> = {};
      for (const [, name, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[name!] = value!;
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

async function scrapeText(): Promise<string> {
  forgetProbe();
  const response = await server.fetch('/metrics', { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain; version=0.0.4');
  return response.text();
}

const scrape = async () => parseExposition(await scrapeText());

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
  );
const total = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  find(samples, name, labels).reduce((sum, sample) => sum + sample.value, 0);

/** A webhook receiver on a loopback port that answers 200 and counts what it received. */
function createReceiver() {
  const bodies: string[] = [];
  const http = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(200).end('ok');
    });
  });
  return {
    bodies,
    url: () => `http://127.0.0.1:${(http.address() as AddressInfo).port}/hook`,
    listen: () => new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve)),
    close: () => new Promise((resolve) => http.close(resolve)),
  };
}

const receiver = createReceiver();
let world: World;
let teacher: RestClient;
let bearer: string;
let groupId: number;
let listening: { port: number; close(): Promise<void> };
/** `A`, `B`, ... `BA`: distinct operation names without digits, which the label check below would take for ids. */
const lettersOf = (index: number): string =>
  (index >= 26 ? lettersOf(Math.floor(index / 26)) : '') + String.fromCharCode(65 + (index % 26));

const graphql = (query: string, authorization = `Bearer ${bearer}`, operationName?: string) =>
  server.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify({ query, operationName }),
  });

beforeAll(async () => {
  await receiver.listen();
  world = await createWorld();
  teacher = await restClientFor(server, world.teacher);
  ({ token: bearer } = await issueAccessToken({ userId: world.student.id }));
  groupId = (await createGroup(world.school.id, { admins: [world.teacher.id], members: [world.student.id] })).id;
  listening = await listenOnLoopback(server);
});
afterAll(async () => {
  await listening.close();
  await receiver.close();
});

describe('/metrics after a scripted workload', () => {
  it('has request durations by route template, operation, status class and auth scheme', async () => {
    expect((await teacher.get(`/users/${world.teacher.id}`)).status).toBe(200);
    expect((await teacher.get('/users/987654321')).status).toBe(404);
    expect((await teacher.get('/no-such-endpoint/12345')).status).toBe(404);
    expect((await graphql('query Viewer { viewer { databaseId } }')).status).toBe(200);
    expect((await graphql('{ viewer { databaseId } }')).status).toBe(200);
    const samples = await scrape();

    const count = 'lectern_http_request_duration_seconds_count';
    expect(
      total(samples, count, {
        surface: 'rest',
        route: 'GET /v1/users/{id}',
        status_class: '2xx',
        auth: 'oauth1',
        operation_type: 'query',
      }),
    ).toBe(1);
    expect(total(samples, count, { surface: 'rest', route: 'GET /v1/users/{id}', status_class: '4xx' })).toBe(1);
    expect(total(samples, count, { surface: 'rest', route: 'unmatched', status_class: '4xx', operation: 'none' })).toBe(
      1,
    );
    expect(
      total(samples, count, {
        surface: 'graphql',
        route: '/graphql',
        operation: 'Viewer',
        operation_type: 'query',
        status_class: '2xx',
        auth: 'bearer',
      }),
    ).toBe(1);
    expect(total(samples, count, { surface: 'graphql', operation: 'anonymous' })).toBe(1);
    // Buckets, sum and count of one series.
    expect(find(samples, 'lectern_http_request_duration_seconds_bucket', { operation: 'Viewer', le: '+Inf' })).toEqual([
      expect.objectContaining({ value: 1 }),
    ]);
    expect(total(samples, 'lectern_http_request_duration_seconds_sum', { operation: 'Viewer' })).toBeGreaterThan(0);
  });

  it('collapses operation names past the cap into `other`', async () => {
    // The cap counts names across the process; the names sent here fill whatever is left of it, and more.
    for (let index = 0; index <= maxOperationNames; index++) {
      expect((await graphql(`query Named${lettersOf(index)} { viewer { databaseId } }`)).status).toBe(200);
    }
    const samples = await scrape();
    const names = new Set(
      find(samples, 'lectern_http_request_duration_seconds_count', { surface: 'graphql' }).map(
        (sample) => sample.labels.operation,
      ),
    );
    expect(names.has('other')).toBe(true);
    // The cap, and the fixed values besides it.
    expect(names.size).toBeLessThanOrEqual(maxOperationNames + 3);
  });

  it('counts rate-limit and authentication refusals by reason', async () => {
    const before = await scrape();
    expect((await graphql('{ viewer { databaseId } }', 'Bearer not-a-token')).status).toBe(401);
    expect(
      (await teacher.get('/users/me', { headers: { authorization: 'OAuth oauth_consumer_key="nobody"' } })).status,
    ).toBe(401);
    const limited = await restClientFor(server, await createUser(world.school.id, 'STUDENT'));
    let status = 200;
    for (let request = 0; request < 200 && status !== 429; request++) status = (await limited.get('/users/me')).status;
    expect(status).toBe(429);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      total(after, name, labels) - total(before, name, labels);
    expect(delta('lectern_auth_failures_total', { reason: 'invalid_bearer_token' })).toBe(1);
    expect(delta('lectern_auth_failures_total', { reason: 'malformed_oauth' })).toBe(1);
    expect(delta('lectern_rate_limit_rejections_total', { reason: 'rate_limit' })).toBe(1);
    expect(
      total(after, 'lectern_http_request_duration_seconds_count', { route: 'GET /v1/users/me', status_class: '4xx' }),
    ).toBeGreaterThanOrEqual(2);
  });

  it('has statement durations, the database probe and, on PostgreSQL, the pool', async () => {
    const samples = await scrape();
    expect(total(samples, 'lectern_db_statement_duration_seconds_count')).toBeGreaterThan(10);
    expect(find(samples, 'lectern_database_up')).toEqual([expect.objectContaining({ value: 1 })]);
    expect(find(samples, 'lectern_db_statements_in_flight')).toHaveLength(1);
    const pool = find(samples, 'lectern_db_pool').map((sample) => sample.labels.state);
    // The embedded database has no pool: nothing is made up for it.
    expect(pool.sort()).toEqual(server.database.kind === 'postgresql' ? ['idle', 'in_use', 'waiting'] : []);
  });

  it('counts upload bytes', async () => {
    const before = total(await scrape(), 'lectern_upload_bytes_total', { outcome: 'stored' });
    await uploadFile(teacher, plainBytes(1234));
    expect(total(await scrape(), 'lectern_upload_bytes_total', { outcome: 'stored' }) - before).toBe(1234);
  });

  it('has webhook deliveries, their latency, the queue and the follower lag', async () => {
    const admin = await createUser(world.school.id, 'SCHOOL_ADMIN', { triggerAdmin: true });
    const client = await restClientFor(server, admin);
    const target = await client.post('/triggers/targets', { target: receiver.url() });
    expect(target.status).toBe(201);
    const subscribed = await client.put('/triggers/subscriptions', {
      subscription: [{ target_id: target.json.id, trigger: 'group', subscribed: 1 }],
    });
    expect(subscribed.status).toBe(200);
    const worker = createWebhookWorker({ serverKey: server.serverKey, linkBase: testOrigin });
    // Whatever earlier events are waiting is fanned out first, so the one below is the only delivery.
    const caughtUp = async () => {
      await worker.runOnce();
      return worker.caughtUp();
    };
    await expect.poll(caughtUp, { interval: 20 }).toBe(true);
    const before = total(await scrape(), 'lectern_webhook_attempts_total', { outcome: 'delivered' });
    expect((await teacher.post('/groups', { title: 'Metrics club' })).status).toBe(201);
    const received = async () => {
      await worker.runOnce();
      return receiver.bodies.length;
    };
    await expect.poll(received, { interval: 20 }).toBe(1);
    const samples = await scrape();
    expect(total(samples, 'lectern_webhook_attempts_total', { outcome: 'delivered' }) - before).toBe(1);
    expect(total(samples, 'lectern_webhook_attempt_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(find(samples, 'lectern_webhook_queue_depth')).toHaveLength(1);
    expect(find(samples, 'lectern_webhook_oldest_due_age_seconds')).toEqual([expect.objectContaining({ value: 0 })]);
    expect(find(samples, 'lectern_webhook_targets_disabled')).toHaveLength(1);
    expect(total(samples, 'lectern_webhook_targets_disabled_total')).toBe(0);
    // The fan-out has read every event: nothing older waits for it.
    const webhooksLag = async () => {
      await worker.runOnce();
      return total(await scrape(), 'lectern_event_follower_lag_seconds', { follower: 'webhooks' });
    };
    await expect.poll(webhooksLag).toBe(0);
  });

  it('counts subscriptions open by transport, and the subscription follower', async () => {
    const subscription = `subscription GroupEvents { realmEvents(realm: { type: GROUP, id: "${groupId}" }) { id type } }`;
    const listens = new Promise<void>((resolve) => subscriptionActivity.once('listening', () => resolve()));
    const sse = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${bearer}` },
      body: JSON.stringify({ query: subscription }),
    });
    expect(sse.status).toBe(200);
    // The stream starts its subscription when it is read.
    const reader = sse.body!.getReader();
    void reader.read().catch(() => {});
    await listens;
    const ws = createClient({
      url: `ws://127.0.0.1:${listening.port}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${bearer}` },
    });
    const wsListens = new Promise<void>((resolve) => subscriptionActivity.once('listening', () => resolve()));
    const events = ws.iterate({ query: subscription });
    const next = events.next();
    await wsListens;

    const open = await scrape();
    expect(total(open, 'lectern_subscriptions_open', { transport: 'sse' })).toBe(1);
    expect(total(open, 'lectern_subscriptions_open', { transport: 'graphql-ws' })).toBe(1);
    expect(find(open, 'lectern_event_follower_lag_seconds', { follower: 'subscriptions' })).toHaveLength(1);
    expect(
      // Its name is `GroupEvents`, or `other` once the cap test above used up the names.
      total(open, 'lectern_http_request_duration_seconds_count', {
        surface: 'graphql',
        operation_type: 'subscription',
        status_class: '2xx',
      }),
    ).toBe(1);

    await reader.cancel();
    await events.return?.();
    await ws.dispose();
    void next.catch(() => {});
    await expect
      .poll(async () => {
        const samples = await scrape();
        return [
          total(samples, 'lectern_subscriptions_open', { transport: 'sse' }),
          total(samples, 'lectern_subscriptions_open', { transport: 'graphql-ws' }),
        ];
      })
      .toEqual([0, 0]);
  });

  it('has process metrics, and no label value holds an id or a raw path', async () => {
    const samples = await scrape();
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds'])
      expect(find(samples, name).length, name).toBeGreaterThan(0);
    const values = samples
      .filter((sample) => sample.name.startsWith('lectern_'))
      .flatMap((sample) => Object.entries(sample.labels).filter(([label]) => label !== 'le'))
      .map(([, value]) => value);
    expect(values.length).toBeGreaterThan(50);
    // The workload's ids (the users, the group, 987654321, 12345) have several digits; a status class has one, and
    // route templates name their parameters.
    for (const value of new Set(values)) expect(value, value).not.toMatch(/\d{2,}|\/\d/);
  });
});

describe('access to /metrics', () => {
  it('wants the token on the main port: 401 without it, 403 with another', async () => {
    const without = await server.fetch('/metrics');
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    const wrong = await server.fetch('/metrics', { headers: { authorization: 'Bearer not-the-token-at-all' } });
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).not.toContain('lectern_');
  });

  it('is an unknown path (404) without METRICS_TOKEN, and with METRICS_PORT alone', async () => {
    for (const metrics of [null, { port: 9464, host: '127.0.0.1', token: null }]) {
      const app = createApp({
        config: { ...server.config, metrics },
        database: server.database,
        serverKey: server.serverKey,
      });
      const response = await app.fetch(new Request(new URL('/metrics', testOrigin)));
      expect(response.status).toBe(404);
    }
  });

  it('is served on its own port, with or without a token', async () => {
    const serve = async (metricsToken: string | null) => {
      const http = createMetricsServer({ port: 0, host: '127.0.0.1', token: metricsToken });
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
      return { base, close: () => new Promise((resolve) => http.close(resolve)) };
    };
    const open = await serve(null);
    try {
      const response = await fetch(`${open.base}/metrics`);
      expect(response.status).toBe(200);
      expect(parseExposition(await response.text()).some((sample) => sample.name === 'lectern_database_up')).toBe(true);
      expect((await fetch(`${open.base}/graphql`)).status).toBe(404);
    } finally {
      await open.close();
    }
    const guarded = await serve(token);
    try {
      expect((await fetch(`${guarded.base}/metrics`)).status).toBe(401);
      expect((await fetch(`${guarded.base}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
        200,
      );
    } finally {
      await guarded.close();
    }
  });

  it('is configured with clear errors', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        return error.problems;
      }
    };
    expect(loadConfig({}).metrics).toBeNull();
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ port: 9464, host: '127.0.0.1', token: null });
    expect(loadConfig({ METRICS_TOKEN: token, HOST: '0.0.0.0' }).metrics).toEqual({
      port: null,
      host: '0.0.0.0',
      token,
    });
    expect(problems({ METRICS_TOKEN: 'short' })).toEqual(['METRICS_TOKEN: must be at least 16 characters']);
    expect(problems({ METRICS_HOST: '0.0.0.0' })).toEqual(['METRICS_HOST: is only used with METRICS_PORT']);
    expect(problems({ METRICS_PORT: '4000' })).toEqual([
      'METRICS_PORT: must differ from PORT (set METRICS_TOKEN to serve /metrics on the main port)',
    ]);
    expect(problems({ METRICS_PORT: 'none' })).toEqual([expect.stringMatching(/^METRICS_PORT: /)]);
  });
});

describe('examples/monitoring', () => {
  const monitoring = new URL('../../examples/monitoring/', import.meta.url);
  /** The metric families a scrape declares (those without samples yet too), with a histogram's series. */
  const families = async () =>
    new Set(
      [...(await scrapeText()).matchAll(/^# TYPE (\w+) (\w+)$/gm)].flatMap(([, name, type]) =>
        type === 'histogram' ? [name!, `${name}_bucket`, `${name}_sum`, `${name}_count`] : [name!],
      ),
    );
  const metricsIn = (text: string) => new Set(text.match(/\b(?:lectern|process|nodejs)_\w+/g));

  it('has alert rules that parse, each naming metrics a scrape has', async () => {
    // promtool is not available here: the rules are checked as YAML and by the metrics they name.
    const rules = parseYaml(await readFile(new URL('alerts.yml', monitoring), 'utf8')) as {
      groups: { name: string; rules: { alert: string; expr: string; for?: string }[] }[];
    };
    const alerts = rules.groups.flatMap((group) => group.rules);
    expect(alerts.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining([
        'LecternDatabaseUnavailable',
        'Lectern5xxRate',
        'LecternWebhookQueueAge',
        'LecternEventFollowerLag',
      ]),
    );
    const known = await families();
    for (const rule of alerts) {
      expect(rule.expr, rule.alert).toBeTruthy();
      for (const metric of metricsIn(rule.expr)) expect(known.has(metric), `${rule.alert}: ${metric}`).toBe(true);
    }
    const scrapeConfig = parseYaml(await readFile(new URL('prometheus.yml', monitoring), 'utf8'));
    expect(scrapeConfig.rule_files).toEqual(['alerts.yml']);
  });

  it('has a dashboard whose queries name metrics a scrape has', async () => {
    const dashboard = JSON.parse(await readFile(new URL('dashboard.json', monitoring), 'utf8')) as {
      panels: { title: string; targets?: { expr: string }[] }[];
    };
    const known = await families();
    const queried = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
    expect(queried.length).toBeGreaterThan(20);
    for (const expr of queried) for (const metric of metricsIn(expr)) expect(known.has(metric), metric).toBe(true);
  });
});

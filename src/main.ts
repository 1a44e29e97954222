// First: heap settings that must hold before the rest is loaded.
import './ops/heap-tuning';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { createApp } from './app';
import { pruneNonces } from './auth/authenticate';
import { pruneRequestTokens } from './auth/oauth1-authorization';
import { pruneOAuth2Records } from './oauth2/adapter';
import { boot } from './ops/boot';
import { ConfigError, loadConfig } from './config';
import { requestConnectionOptions } from './redis/breaker';
import { DataDirInUseError } from './db/data-dir-lock';
import {
  baseUrlForPeople,
  type DemoDistrict,
  demoCredentialsText,
  seedDemoIntoEmptyDatabase,
  seedsOnFirstStart,
} from './ops/demo';
import { endSubscriptions, useRedisEventBus } from './outbox/bus';
import { createWebhookWorker, pruneDeliveryLog } from './webhooks/worker';
import { createLogger } from './http/logging';
import { sweepUploads, writePendingThumbnails } from './modules/uploads/upload.service';
import { pruneIdempotencyKeys } from './rest/idempotency';
import { createHttpServer } from './http/server';
import { createMetricsServer } from './http/metrics';
import { startTracingFromEnvironment, traceRedisCommands } from './ops/tracing';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const logger = createLogger(config);
// Before anything sends a statement, so that the app is built with its tracing plugin (off unless OTEL_* ask for it).
const tracing = await startTracingFromEnvironment(process.env, logger);
const { database, serverKey } = await boot(config, logger).catch((error) => {
  if (!(error instanceof DataDirInUseError)) throw error;
  logger.fatal(error.message);
  process.exit(1);
});
// A first start on an empty database gets the demo district, so a newcomer has credentials to try the API with. It runs
// here, in the process that holds the embedded database, after migrations and the bootstrap credential (whose district
// counts: a database with one is not empty).
let demo: DemoDistrict | null = null;
let databaseHadDistrict = false;
if (seedsOnFirstStart(config.seedDemo, database.kind)) {
  try {
    demo = await seedDemoIntoEmptyDatabase(serverKey);
  } catch (error) {
    logger.fatal({ err: error }, 'creating the demo district failed (SEED_DEMO=off skips it)');
    await database.close();
    process.exit(1);
  }
  databaseHadDistrict = !demo;
}
/**
 * Redis unreachable at start is a deployment fault the operator must see: one fatal line naming the server (not the
 * URL, which may hold a password) and exit code 1, rather than a stack trace or serving without shared counters.
 */
async function connectRedisOrExit(redisUrl: string, connections: Redis[]): Promise<void> {
  // The first connection error ends the start (ioredis would otherwise retry for seconds, and print an `error` event
  // nobody listens to with its stack).
  let failed = (_error: Error) => {};
  const firstError = new Promise<never>((_resolve, reject) => (failed = reject));
  for (const connection of connections) connection.on('error', failed);
  try {
    await Promise.race([Promise.all(connections.map((connection) => connection.connect())), firstError]);
  } catch (error) {
    const url = new URL(redisUrl);
    logger.fatal(
      { redis: `${url.hostname}:${url.port || 6379}`, reason: (error as Error).message },
      'Redis is unreachable at start (REDIS_URL)',
    );
    for (const connection of connections) connection.disconnect();
    await database.close();
    process.exit(1);
  } finally {
    for (const connection of connections) connection.off('error', failed);
  }
}
/**
 * After start, a lost Redis is survivable: ioredis reconnects by itself, rate limits are counted locally meanwhile
 * (src/auth/rate-limit.ts warns once about that), and events of other instances are heard at the log poll. Its errors become one
 * structured warning per outage (repeated attempts at debug level) instead of "[ioredis] Unhandled error event" lines.
 */
function logRedisErrors(connection: Redis, role: string, consequence: string | null): void {
  let failing = false;
  connection.on('error', (error) => {
    const level = failing || !consequence ? 'debug' : 'warn';
    logger[level](
      { redis: role, reason: error.message },
      `Redis connection failed, reconnecting${consequence ? `: ${consequence}` : ''}`,
    );
    failing = true;
  });
  connection.on('ready', () => {
    failing = false;
  });
}
// Two Redis connections: one in subscriber mode for other instances' commit announcements, one for everything else,
// which requests use within a time budget (src/redis/breaker.ts).
const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: true, ...requestConnectionOptions }) : null;
const redisSubscriber = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: true }) : null;
if (redis && redisSubscriber) {
  await connectRedisOrExit(config.redisUrl!, [redis, redisSubscriber]);
  // The commands connection only: the subscriber's are the subscription itself.
  traceRedisCommands(redis);
  logRedisErrors(redis, 'commands', null);
  logRedisErrors(
    redisSubscriber,
    'events',
    'events of other instances reach subscribers here at the once-a-second poll of the event log until it returns',
  );
  useRedisEventBus(redis, redisSubscriber);
}
const app = createApp({ config, database, serverKey, logger, redis });
const http = createHttpServer(app, { bodyLimitBytes: config.bodyLimitBytes });
const { server } = http;
// METRICS_PORT: /metrics on a listener of its own, which a firewall can keep to the Prometheus servers.
const metricsServer = config.metrics?.port ? createMetricsServer(config.metrics) : null;
metricsServer?.listen(config.metrics!.port!, config.metrics!.host, () =>
  logger.info({ metrics: `${config.metrics!.host}:${config.metrics!.port}` }, 'metrics at /metrics'),
);

/** Forgets expired rows, or finishes deferred work, now and then; any instance may, so a failure is only a warning. */
function sweep(what: string, everyMs: number, prune: () => Promise<number>) {
  const timer = setInterval(
    () => prune().catch((error) => logger.warn({ err: error }, `${what} sweep failed`)),
    everyMs,
  );
  timer.unref();
  return timer;
}
// Webhook delivery runs in every instance: on PostgreSQL the instances share the work (src/webhooks/worker.ts).
const publicBase = config.publicUrl?.href.replace(/\/$/, '') ?? `http://${config.host}:${config.port}`;
const webhooks = createWebhookWorker({
  serverKey,
  linkBase: publicBase,
  logger,
  attemptTimeoutMs: config.webhookTimeoutMs,
});
webhooks.start();

const sweeps = [
  sweep('nonce', 60_000, () => pruneNonces(config.oauthSkewSeconds)),
  sweep('OAuth request token', 15 * 60_000, pruneRequestTokens),
  sweep('OAuth 2.0 code and token', 15 * 60_000, pruneOAuth2Records),
  sweep('Idempotency-Key', 15 * 60_000, pruneIdempotencyKeys),
  sweep('unattached upload', 15 * 60_000, () => sweepUploads()),
  sweep('pending thumbnail', 5 * 60_000, writePendingThumbnails),
  sweep('webhook delivery log', 60 * 60_000, () => pruneDeliveryLog(config.webhookLogRetentionDays)),
];

server.listen(config.port, config.host, () => {
  logger.info(
    { database: database.kind, graphql: `${publicBase}/graphql`, rest: `${publicBase}/v1` },
    `Lectern listening: GraphQL at ${publicBase}/graphql, REST at ${publicBase}/v1 (${database.kind})`,
  );
  const seedLater = `npx lectern seed-demo${database.kind === 'pglite' ? ' (with the server stopped)' : ''}`;
  if (demo) {
    // For the person at the terminal, on stdout; the log (which goes to aggregators) gets the facts without secrets.
    const forPeople = baseUrlForPeople(config, (server.address() as AddressInfo).port);
    console.log(
      `\nFirst start on an empty database (SEED_DEMO=off skips this).\n${demoCredentialsText(demo, forPeople)}`,
    );
    console.log(`Lost them? ${seedLater} makes another demo district with new credentials.\n`);
    logger.info(
      {
        districtId: demo.districtId,
        userId: demo.admin.id,
        consumerKey: demo.client.consumerKey,
        accessTokenId: demo.accessToken.id,
      },
      'demo district created on first start; its credentials are printed on stdout only',
    );
  } else if (databaseHadDistrict && !config.bootstrap) {
    // Not with a bootstrap credential: its operator has a credential, and automation reads this output.
    console.log(`Demo credentials are printed on first start only; ${seedLater} makes new ones.`);
  }
});

/** How long requests still running at a stop may take before their connections are cut. */
const shutdownGraceMs = 10_000;
let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  // Before the log line, so that a request sent by anyone who read it meets a stopping server.
  const drained = http.stop(shutdownGraceMs);
  logger.info({ signal }, 'stopping: finishing in-flight requests');
  for (const timer of sweeps) clearInterval(timer);
  // Server-sent event streams complete, so their responses end.
  endSubscriptions();
  // The round in progress finishes, so its attempts are recorded rather than retried after the lease.
  const [{ cut }] = await Promise.all([drained, webhooks.stop()]);
  if (cut)
    logger.warn({ cut, graceMs: shutdownGraceMs }, 'stopping: connections still busy after the grace period were cut');
  metricsServer?.close();
  await database.close();
  // The spans still queued are exported before the exit, unless the collector does not answer within 2 s: the
  // exporter's own timeout is 10 s, longer than an orchestrator waits after its SIGTERM.
  if (tracing) await Promise.race([tracing.shutdown(), delay(2000)]);
  // Not QUIT, which would wait for a Redis that does not answer.
  redis?.disconnect();
  redisSubscriber?.disconnect();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

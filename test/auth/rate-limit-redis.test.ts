import { once } from 'node:events';
import { type AddressInfo, type Server, type Socket, connect, createServer } from 'node:net';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { createRateLimiter } from '../../src/auth/rate-limit';
import { breakerOf, requestConnectionOptions } from '../../src/redis/breaker';
import type { Viewer } from '../../src/auth/viewer';
import { useTestServer } from '../support/harness';
import { startPrivateRedis } from '../support/redis';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const server = useTestServer();

/** A viewer with a user id no other test run uses: the limiter only reads `id`. */
const viewerOf = (id: number) => ({ id }) as Viewer;
const freshUserId = () => Date.now() * 1000 + Math.floor(Math.random() * 1000);
const request = () => new Request('http://lectern.test/graphql');

describe('rate limiting with Redis (REDIS_URL)', () => {
  const first = new Redis(redisUrl, { lazyConnect: true });
  const second = new Redis(redisUrl, { lazyConnect: true });
  beforeAll(() => Promise.all([first.connect(), second.connect()]));
  afterAll(() => Promise.all([first.quit(), second.quit()]));

  it('counts a user across instances and answers 429 with Retry-After past the limit', async () => {
    // Two limiters on two connections stand for two server instances.
    const instanceA = createRateLimiter({ points: 3, windowSeconds: 5 }, first);
    const instanceB = createRateLimiter({ points: 3, windowSeconds: 5 }, second);
    const viewer = viewerOf(freshUserId());
    await instanceA.charge(viewer, undefined, request());
    await instanceB.charge(viewer, undefined, request());
    await instanceA.charge(viewer, undefined, request());
    const refused = await instanceB.charge(viewer, undefined, request()).then(
      () => null,
      (error) => error,
    );
    expect(refused?.extensions).toMatchObject({ code: 'RATE_LIMITED', http: { status: 429 } });
    const retryAfter = Number(refused.extensions.http.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(5);
    // Another user has their own count.
    await expect(instanceA.charge(viewerOf(freshUserId() + 1), undefined, request())).resolves.toBeUndefined();
  });

  /**
   * The connection's next `event`. Not `events.once`, which rejects on an `error` event: while Redis is away each
   * refused reconnection attempt (every 20 ms here) is one, and it may land before the awaited event.
   */
  const next = (connection: Redis, event: string) =>
    new Promise<void>((resolve) => connection.once(event, () => resolve()));

  it('counts locally with one warning when Redis is lost, and shares counts again when it is back', async () => {
    const proxy = await redisProxy();
    const connection = new Redis(proxy.url, {
      lazyConnect: true,
      ...requestConnectionOptions,
      retryStrategy: () => 20,
    });
    // The server attaches a listener too (src/main.ts); without one, ioredis reports each failed attempt as unhandled.
    connection.on('error', () => {});
    await connection.connect();
    const messages: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void messages.push(JSON.parse(line).msg) });
    const limiter = createRateLimiter({ points: 2, windowSeconds: 5 }, connection, logger);
    const shared = createRateLimiter({ points: 2, windowSeconds: 5 }, first);
    const viewer = viewerOf(freshUserId());
    const app = createApp({
      config: server.config,
      database: server.database,
      serverKey: server.serverKey,
      redis: connection,
    });
    const readiness = async () => {
      const response = await app.fetch('http://lectern.test/readyz');
      return { status: response.status, body: await response.json() };
    };
    try {
      expect(await readiness()).toEqual({ status: 200, body: { status: 'ready' } });
      // Redis goes away under a running server: the connection drops and reconnection attempts are refused.
      const reconnecting = next(connection, 'reconnecting');
      await proxy.stop();
      await reconnecting;
      await limiter.charge(viewer, undefined, request());
      await limiter.charge(viewer, undefined, request());
      const refused = await limiter.charge(viewer, undefined, request()).then(
        () => null,
        (error) => error,
      );
      // Answered while Redis is still away (it comes back only below), by the in-memory insurance limiter, which
      // still enforces the limit.
      expect(refused?.extensions).toMatchObject({ code: 'RATE_LIMITED', http: { status: 429 } });
      expect(messages.filter((message) => /Redis does not answer/.test(message))).toHaveLength(1);
      // Still serving, so still in the load balancer's rotation.
      expect(await readiness()).toEqual({ status: 200, body: { status: 'degraded', redis: 'unreachable' } });

      // Back: counts are shared with other instances again.
      const ready = next(connection, 'ready');
      await proxy.start();
      await ready;
      const other = viewerOf(freshUserId() + 7);
      await shared.charge(other, undefined, request());
      await shared.charge(other, undefined, request());
      await expect(limiter.charge(other, undefined, request())).rejects.toMatchObject({
        extensions: { code: 'RATE_LIMITED' },
      });
      expect(messages.filter((message) => /Redis answers again/.test(message))).toHaveLength(1);
      expect(await readiness()).toEqual({ status: 200, body: { status: 'ready' } });
    } finally {
      connection.disconnect();
      await proxy.stop();
    }
  });

  it('counts locally while Redis is frozen, and the counts it did not answer are not counted again when it resumes', async () => {
    // Two connections to a Redis of the test's own stand for two instances; the shared one is never frozen.
    const redis = await startPrivateRedis();
    const connections = [0, 1].map(() => new Redis(redis.url, { lazyConnect: true, ...requestConnectionOptions }));
    for (const connection of connections) connection.on('error', () => {});
    const [a, b] = connections as [Redis, Redis];
    await Promise.all(connections.map((connection) => connection.connect()));
    const messages: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void messages.push(JSON.parse(line).msg) });
    const limit = { points: 5, windowSeconds: 30 };
    const instanceA = createRateLimiter(limit, a, logger);
    const instanceB = createRateLimiter(limit, b);
    const app = createApp({ config: server.config, database: server.database, serverKey: server.serverKey, redis: a });
    const readiness = async () => (await (await app.fetch('http://lectern.test/readyz')).json()) as { status: string };
    const viewer = viewerOf(freshUserId());
    const outcomes = async (charges: Promise<void>[]) =>
      (await Promise.allSettled(charges)).map((outcome) =>
        outcome.status === 'fulfilled' ? 'charged' : outcome.reason.extensions.code,
      );
    try {
      redis.freeze();
      // Eight requests at once on instance A: all of them are written to Redis before any is known to be unanswered,
      // and all are then counted in memory, five charged and three refused.
      const during = await outcomes(Array.from({ length: 8 }, () => instanceA.charge(viewer, undefined, request())));
      expect(during.filter((outcome) => outcome === 'charged')).toHaveLength(5);
      expect(during.filter((outcome) => outcome === 'RATE_LIMITED')).toHaveLength(3);
      expect(breakerOf(a).available()).toBe(false);
      expect(await readiness()).toEqual({ status: 'degraded', redis: 'unreachable' });
      // Instance B meets the stall with its own first request, then counts in memory as well.
      expect(await outcomes([instanceB.charge(viewer, undefined, request())])).toEqual(['charged']);
      expect(messages.filter((message) => /Redis does not answer/.test(message))).toHaveLength(1);
    } finally {
      redis.resume();
    }
    try {
      await expect.poll(() => connections.every((connection) => breakerOf(connection).available())).toBe(true);
      expect(await readiness()).toEqual({ status: 'ready' });
      expect(messages.filter((message) => /Redis answers again/.test(message))).toHaveLength(1);
      // Redis ran the nine counts it was sent while frozen, and the undo of each right after it: the user's budget in
      // Redis is whole, where nine stale counts would have refused the next requests for the rest of the window.
      const after = await outcomes(Array.from({ length: 5 }, () => instanceB.charge(viewer, undefined, request())));
      expect(after).toEqual(Array(5).fill('charged'));
      expect(await outcomes([instanceA.charge(viewer, undefined, request())])).toEqual(['RATE_LIMITED']);
    } finally {
      for (const connection of connections) connection.disconnect();
      await redis.stop();
    }
  });
});

/** A TCP relay to the test Redis on a fixed port that can be stopped and started again, as a Redis restart would. */
async function redisProxy() {
  const target = new URL(redisUrl);
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const start = async () => {
    server = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    async stop() {
      if (!server) return;
      const closed = once(server, 'close');
      server.close();
      for (const socket of sockets) socket.destroy();
      server = null;
      await closed;
    },
  };
}

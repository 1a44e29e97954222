import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RedisUnavailableError, breakerOf, redisBudgetMs, requestConnectionOptions } from '../../src/redis/breaker';
import { type PrivateRedis, startPrivateRedis } from '../support/redis';

describe('the Redis breaker (src/redis/breaker.ts)', () => {
  let redis: PrivateRedis;
  beforeAll(async () => {
    redis = await startPrivateRedis();
  });
  afterAll(() => redis.stop());

  const connect = async () => {
    const connection = new Redis(redis.url, { lazyConnect: true, ...requestConnectionOptions });
    connection.on('error', () => {});
    await connection.connect();
    return connection;
  };

  it('does not take an answer that came while the event loop was busy for a Redis that does not answer', async () => {
    const connection = await connect();
    try {
      const breaker = breakerOf(connection);
      const answer = breaker.call((client) => client.set('breaker-busy-loop', '1'));
      // The loop is held past the budget: the answer arrives meanwhile, the deadline is due when the loop is free.
      const until = performance.now() + redisBudgetMs * 2;
      while (performance.now() < until);
      await expect(answer).resolves.toBe('OK');
      expect(breaker.available()).toBe(true);
    } finally {
      connection.disconnect();
    }
  });

  it('counts a frozen Redis as down from its first unanswered command, sends only PINGs then, and is back at the first answer', async () => {
    const connection = await connect();
    const sent = vi.spyOn(connection, 'sendCommand');
    const changes: boolean[] = [];
    const breaker = breakerOf(connection);
    breaker.onChange((available) => changes.push(available));
    redis.freeze();
    try {
      // Both were written to a connection that still looks ready; neither is answered.
      const [first, second] = await Promise.allSettled([
        breaker.call((client) => client.incr('breaker-frozen')),
        breaker.call((client) => client.incr('breaker-frozen')),
      ]);
      for (const outcome of [first, second]) {
        expect(outcome).toMatchObject({ status: 'rejected', reason: expect.any(RedisUnavailableError) });
        expect((outcome as PromiseRejectedResult).reason.sent).toBe(true);
      }
      expect(connection.status).toBe('ready');
      expect(breaker.available()).toBe(false);
      // Later commands are refused without being sent, so they do not wait.
      await expect(breaker.call((client) => client.incr('breaker-frozen'))).rejects.toMatchObject({ sent: false });
      expect(await breaker.ping()).toBe(false);
      const names = sent.mock.calls.map(([command]) => command.name);
      expect(names.filter((name) => name !== 'ping')).toEqual(['incr', 'incr']);
      expect(changes).toEqual([false]);
    } finally {
      redis.resume();
    }
    // The probe's PING is answered once Redis has run what it was sent meanwhile.
    await expect.poll(() => breaker.available()).toBe(true);
    expect(changes).toEqual([false, true]);
    expect(await connection.get('breaker-frozen')).toBe('2');
    connection.disconnect();
  });
});

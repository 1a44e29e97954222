import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../src/auth/rate-limit';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('rate limiting with Redis (REDIS_URL)', () => {
  const first = new Redis(redisUrl, { lazyConnect: true });
  const second = new Redis(redisUrl, { lazyConnect: true });
  beforeAll(() => Promise.all([first.connect(), second.connect()]));
  afterAll(() => Promise.all([first.quit(), second.quit()]));

  it('counts a credential across instances and answers 429 with Retry-After past the limit', async () => {
    // Two limiters on two connections stand for two server instances.
    const instanceA = createRateLimiter({ points: 3, windowSeconds: 5 }, first);
    const instanceB = createRateLimiter({ points: 3, windowSeconds: 5 }, second);
    const credential = { kind: 'oauth' as const, consumerKey: `key-${randomUUID()}` };
    await instanceA(credential);
    await instanceB(credential);
    await instanceA(credential);
    const refused = await instanceB(credential).then(() => null, (error) => error);
    expect(refused?.extensions).toMatchObject({ code: 'RATE_LIMITED', http: { status: 429 } });
    const retryAfter = Number(refused.extensions.http.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(5);
    // Another credential has its own count.
    await expect(instanceA({ kind: 'bearer', tokenId: Date.now() })).resolves.toBeUndefined();
  });
});

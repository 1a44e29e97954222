import type { Redis } from 'ioredis';
import { RateLimiterPrisma, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimit } from '../config';
import { db } from '../db/database';
import { httpError } from '../core/errors';
import type { Credential } from './viewer';

export type RateLimiter = (credential: Credential) => Promise<void>;

const credentialKey = (credential: Credential) =>
  credential.kind === 'oauth' ? `oauth:${credential.consumerKey}` : `bearer:${credential.tokenId}`;

/**
 * Requests per credential and window, counted in Redis when there is one and in the shared database otherwise, so
 * every instance of a scaled-out deployment sees the same count, for /v1 and /graphql together.
 */
export function createRateLimiter(limit: RateLimit | null, redis: Redis | null): RateLimiter {
  if (!limit) return async () => {};
  const options = { points: limit.points, duration: limit.windowSeconds, keyPrefix: 'lectern-rate' };
  const limiter = redis
    ? new RateLimiterRedis({ ...options, storeClient: redis })
    : new RateLimiterPrisma({ ...options, storeClient: db(), tableName: 'rateLimit' });

  return async (credential) => {
    try {
      await limiter.consume(credentialKey(credential));
    } catch (outcome) {
      if (!(outcome instanceof RateLimiterRes)) throw outcome;
      const retryAfter = Math.max(1, Math.ceil(outcome.msBeforeNext / 1000));
      throw httpError(429, 'RATE_LIMITED', `Too many requests: the limit is ${limit.points} per ${limit.windowSeconds}s`, {
        'retry-after': String(retryAfter),
      });
    }
  };
}

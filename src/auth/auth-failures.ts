import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AuthFailureLimits, RateLimit } from '../config';
import { httpError, retryAfter } from '../core/errors';
import { type RejectionReason, countRejection } from '../ops/metrics';
import { addressBucket } from './client-address';
import { type SharedCounter, sharedCounter } from './rate-limit';

/** Who is trying to authenticate: the client address, and the consumer key an OAuth request names. */
export interface AuthAttempt {
  address: string;
  /** Failures are recorded under a consumer key only once it is known to exist, so made-up keys cost no counters. */
  consumerKey: string | null;
}

export interface AuthFailureGuard {
  /** A 429 when the address or the consumer key failed too often this window; checked before any credential. */
  assertNotBlocked(attempt: AuthAttempt): Promise<void>;
  recordFailure(attempt: AuthAttempt): Promise<void>;
  /** Counts a request without a credential against its address; a 429 beyond the limit. */
  admitAnonymous(address: string): Promise<void>;
}

interface Counter {
  limit: RateLimit;
  /** The shared count, in Redis or the database. */
  limiter: SharedCounter;
  /** The blocks this instance has learned of, held until their window ends, so a blocked sender costs no store access. */
  knownBlocks: RateLimiterMemory;
  refusal: string;
  reason: RejectionReason;
}

function tooMany({ refusal, limit, reason }: Counter, msBeforeNext: number) {
  countRejection(reason);
  return httpError(
    429,
    'RATE_LIMITED',
    `${refusal}: the limit is ${limit.points} per ${limit.windowSeconds}s`,
    retryAfter(msBeforeNext),
  );
}

/**
 * Failed authentications per client address and per consumer key, and requests without a credential per address,
 * counted like the request rate limit: in Redis when there is one (locally while it does not answer), in the shared
 * database otherwise. A sender is blocked once a failure fills its window, and from then on refused before its
 * credential is looked at, from memory: no database lookup, no signature, no counter access. Another instance learns
 * of the block at the first failure it sees from the same sender. Requests that authenticate cost nothing here.
 */
export function createAuthFailureGuard(limits: AuthFailureLimits, redis: Redis | null): AuthFailureGuard {
  const counter = (
    limit: RateLimit | null,
    keyPrefix: string,
    refusal: string,
    reason: RejectionReason,
  ): Counter | null => {
    if (!limit) return null;
    const limiter = sharedCounter(limit, keyPrefix, redis);
    return {
      limit,
      limiter,
      knownBlocks: new RateLimiterMemory({ points: 1, duration: limit.windowSeconds }),
      refusal,
      reason,
    };
  };
  const perAddress = counter(
    limits.perAddress,
    'lectern-auth-failures-address',
    'Too many failed authentications from this address',
    'auth_failures_per_address',
  );
  const perConsumerKey = counter(
    limits.perConsumerKey,
    'lectern-auth-failures-key',
    'Too many failed authentications with this consumer key',
    'auth_failures_per_consumer_key',
  );
  const anonymous = counter(
    limits.anonymousPerAddress,
    'lectern-anonymous',
    'Too many requests without credentials from this address',
    'anonymous_per_address',
  );

  const countersOf = (attempt: AuthAttempt) => {
    const counted: [Counter, string][] = [];
    if (perAddress) counted.push([perAddress, addressBucket(attempt.address)]);
    if (perConsumerKey && attempt.consumerKey !== null) counted.push([perConsumerKey, attempt.consumerKey]);
    return counted;
  };

  async function assertNotKnownBlocked(c: Counter, key: string) {
    const block = await c.knownBlocks.get(key);
    if (block) throw tooMany(c, block.msBeforeNext);
  }
  // A block of no duration would be a block for ever.
  const rememberBlock = (c: Counter, key: string, msBeforeNext: number) =>
    c.knownBlocks.block(key, Math.max(1, msBeforeNext) / 1000);

  return {
    async assertNotBlocked(attempt) {
      for (const [c, key] of countersOf(attempt)) await assertNotKnownBlocked(c, key);
    },
    async recordFailure(attempt) {
      await Promise.all(
        countersOf(attempt).map(async ([c, key]) => {
          const count = await c.limiter.penalty(key);
          if (count.consumedPoints >= c.limit.points) await rememberBlock(c, key, count.msBeforeNext);
        }),
      );
    },
    async admitAnonymous(address) {
      if (!anonymous) return;
      const key = addressBucket(address);
      await assertNotKnownBlocked(anonymous, key);
      try {
        await anonymous.limiter.consume(key);
      } catch (outcome) {
        if (!(outcome instanceof RateLimiterRes)) throw outcome;
        await rememberBlock(anonymous, key, outcome.msBeforeNext);
        throw tooMany(anonymous, outcome.msBeforeNext);
      }
    },
  };
}

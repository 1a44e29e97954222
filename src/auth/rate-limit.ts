import type { Redis } from 'ioredis';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { RateLimiterMemory, RateLimiterPrisma, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimit } from '../config';
import { db } from '../db/database';
import { httpError, retryAfter } from '../core/errors';
import { countRejection } from '../ops/metrics';
import { type RedisBreaker, RedisUnavailableError, breakerOf } from '../redis/breaker';
import type { QueryCost } from '../graphql/limits';
import type { Viewer } from './viewer';

/**
 * Cost units (estimated objects, see src/graphql/limits.ts) worth one rate-limit point. A /v1 page of 200 groups with
 * their school and category costs 801, so the platform's API stays one point a request and RATE_LIMIT keeps its meaning
 * there; GraphQL documents that fetch thousands of objects, and pages of long text (200 posts with their bodies,
 * 3,201), pay more.
 */
export const costPerPoint = 1_000;

/**
 * Points a request is charged: one at least; each mutation field one (each was a request on the platform, so 12
 * aliased writes cost what 12 requests do); and one per `costPerPoint` of estimated cost.
 */
export function pointsFor(cost: QueryCost | undefined): number {
  if (!cost) return 1;
  return Math.max(1, cost.mutations, Math.ceil(cost.cost / costPerPoint));
}

/** What the client is told after a charge, in the X-RateLimit-* headers and `extensions.cost`. */
export interface RateLimitStatus {
  limit: number;
  remaining: number;
  /** When the window restarts, in Unix seconds (GitHub's convention). */
  resetAt: number;
  /** Points this request was charged. */
  charged: number;
}

export interface RateLimiter {
  /** Charges the viewer's user for one request; throws a 429 (or a 400 for a request larger than the whole budget). */
  charge(viewer: Viewer, cost: QueryCost | undefined, request: Request): Promise<void>;
  /** The outcome of this request's charge, when it was charged. */
  statusOf(request: Request): RateLimitStatus | undefined;
}

/** The two ways a count changes: a request charged, a failure recorded. */
export interface SharedCounter {
  consume(key: string, points?: number): Promise<RateLimiterRes>;
  penalty(key: string, points?: number): Promise<RateLimiterRes>;
}

/**
 * `limit` points per window under `keyPrefix`, counted in Redis when there is one and in the shared database otherwise,
 * so every instance of a scaled-out deployment sees the same count. While Redis counts as down (src/redis/breaker.ts:
 * unreachable, or not answering within its budget), each instance counts in memory, and a request waits for Redis for
 * the budget at most.
 */
export function sharedCounter(limit: RateLimit, keyPrefix: string, redis: Redis | null): SharedCounter {
  const options = { points: limit.points, duration: limit.windowSeconds, keyPrefix };
  if (!redis) return new RateLimiterPrisma({ ...options, storeClient: db(), tableName: 'rateLimit' });
  const breaker = breakerOf(redis);
  const shared = new RateLimiterRedis({ ...options, storeClient: redis });
  const local = new RateLimiterMemory(options);
  const count = async (change: 'consume' | 'penalty', key: string, points = 1) => {
    try {
      return await breaker.call(() => shared[change](key, points));
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) throw outcome;
      // A count sent but not answered still runs when a stalled Redis resumes; the undo written behind it on the same
      // connection runs right after it, so that the request is counted once, here, rather than again in a burst.
      if (outcome instanceof RedisUnavailableError && outcome.sent)
        void shared.reward(key, points).catch(() => undefined);
      return local[change](key, points);
    }
  };
  return {
    consume: (key, points) => count('consume', key, points),
    penalty: (key, points) => count('penalty', key, points),
  };
}

/** One budget per user, across all their credentials and both surfaces (see sharedCounter for where it is counted). */
export function createRateLimiter(limit: RateLimit | null, redis: Redis | null, logger?: Logger): RateLimiter {
  const statuses = new WeakMap<Request, RateLimitStatus>();
  if (!limit) return { charge: async () => {}, statusOf: () => undefined };
  const limiter = sharedCounter(limit, 'lectern-rate', redis);
  if (redis) warnWhileRedisIsDown(breakerOf(redis), logger);

  const record = (request: Request, outcome: RateLimiterRes, charged: number) => {
    const status = {
      limit: limit.points,
      remaining: Math.max(0, outcome.remainingPoints),
      resetAt: Math.ceil((Date.now() + outcome.msBeforeNext) / 1000),
      charged,
    };
    statuses.set(request, status);
    return status;
  };

  return {
    async charge(viewer, cost, request) {
      const points = pointsFor(cost);
      if (points > limit.points) {
        // Waiting would not help, so this is not a 429: as Shopify answers a query larger than its bucket.
        countRejection('cost_exceeds_budget');
        throw httpError(
          400,
          'COST_EXCEEDS_RATE_LIMIT',
          `This request costs ${points} rate-limit points, more than the whole budget of ${limit.points} per ${limit.windowSeconds}s: split it`,
        );
      }
      try {
        record(request, await limiter.consume(`user:${viewer.id}`, points), points);
      } catch (outcome) {
        if (!(outcome instanceof RateLimiterRes)) throw outcome;
        const status = record(request, outcome, points);
        countRejection('rate_limit');
        throw httpError(
          429,
          'RATE_LIMITED',
          `Too many requests: the limit is ${limit.points} points per ${limit.windowSeconds}s and this request costs ${points}`,
          { ...retryAfter(outcome.msBeforeNext), ...rateLimitHeaders(status) },
        );
      }
    },
    statusOf: (request) => statuses.get(request),
  };
}

/** One warning when Redis counts as down and one notice when it is back, not one line per failed command. */
function warnWhileRedisIsDown(breaker: RedisBreaker, logger: Logger | undefined) {
  breaker.onChange((available) => {
    if (available) logger?.info({ redis: 'ready' }, 'Redis answers again: rate limits are shared again');
    else
      logger?.warn(
        { redis: 'unreachable' },
        'Redis does not answer: rate limits are counted by this instance alone until it does',
      );
  });
}

export const rateLimitHeaders = (status: RateLimitStatus): Record<string, string> => ({
  'x-ratelimit-limit': String(status.limit),
  'x-ratelimit-remaining': String(status.remaining),
  'x-ratelimit-reset': String(status.resetAt),
});

/** Header a client sends to read its request's cost in the GraphQL response's `extensions.cost`. */
export const costHeader = 'x-lectern-cost';

/**
 * Puts the rate-limit headers on every charged response (/graphql and /v1: the facade's requests are charged through
 * the same context), and the request's cost in `extensions.cost` when the client asks with `X-Lectern-Cost: 1`.
 */
export function useRateLimitReporting(limiter: RateLimiter): Plugin {
  return {
    onExecute({ args }) {
      const context = args.contextValue as { request?: Request; queryCost?: QueryCost };
      const request = context.request;
      if (request?.headers.get(costHeader) !== '1') return;
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          const status = limiter.statusOf(request);
          const cost = {
            requestedQueryCost: context.queryCost?.cost ?? null,
            mutationFields: context.queryCost?.mutations ?? 0,
            points: pointsFor(context.queryCost),
            ...(status ? { limit: status.limit, remaining: status.remaining, resetAt: status.resetAt } : {}),
          };
          setResult({ ...result, extensions: { ...result.extensions, cost } });
        },
      };
    },
    onResponse({ request, response }) {
      const status = limiter.statusOf(request);
      if (!status) return;
      for (const [name, value] of Object.entries(rateLimitHeaders(status))) response.headers.set(name, value);
    },
  };
}

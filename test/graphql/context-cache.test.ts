import { contextCacheSymbol, createContextCache, initContextCache } from '@pothos/core';
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { useContextCacheRelease } from '../../src/graphql/context-cache';

// Pothos' per-request caches are let go when an execution ends, so that the young collector does not keep a request's
// state alive through them (src/graphql/context-cache.ts, docs/performance.md).
describe('the context-cache release', () => {
  it("lets go of an execution's context caches when it ends, and shares them while it runs", async () => {
    let made = 0;
    const perExecution = createContextCache(() => ({ made: ++made }));
    let context: Record<symbol, unknown> = {};
    let keyWhileRunning: unknown;
    const yoga = createYoga({
      schema: createSchema<Record<symbol, unknown>>({
        typeDefs: 'type Query { first: Int! second: Int! }',
        resolvers: {
          Query: {
            first: (_root, _args, executing) => {
              context = executing;
              keyWhileRunning = executing[contextCacheSymbol];
              return perExecution(executing).made;
            },
            second: async (_root, _args, executing) => perExecution(executing).made,
          },
        },
      }),
      context: (): Record<symbol, unknown> => initContextCache(),
      plugins: [useContextCacheRelease()],
      logging: false,
    });

    const answer = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ first second }' }),
    });
    expect(await answer.json()).toEqual({ data: { first: 1, second: 1 } });
    expect(context[contextCacheSymbol]).toBeDefined();
    expect(context[contextCacheSymbol]).not.toBe(keyWhileRunning);
    expect(perExecution(context).made).toBe(2);
  });
});

import { contextCacheSymbol, createContextCache, initContextCache } from '@pothos/core';
import { createDeferredPromise } from '@whatwg-node/promise-helpers';
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import '../../src/core/promise-with-resolvers';
import { useContextCacheRelease } from '../../src/graphql/context-cache';
import { useTestServer } from '../support/harness';

useTestServer();

/**
 * What keeps a request's objects from dying young on Node 20, and what Lectern does about each (docs/performance.md,
 * "Fourteenth round"): objects with getters of their own, and per-request caches in WeakMaps that refer back to their
 * keys. How many young collections a load takes is measured by `npm run bench` (its memory part), not here.
 */
describe('objects a request leaves behind', () => {
  it('gets deferred promises from the libraries as plain objects, without getters', () => {
    const deferred = createDeferredPromise<number>();
    for (const name of ['resolve', 'reject'] as const) {
      const property = Object.getOwnPropertyDescriptor(deferred, name);
      expect(property?.get).toBeUndefined();
      expect(property?.value).toBeTypeOf('function');
    }
    deferred.resolve(7);
    return expect(deferred.promise).resolves.toBe(7);
  });

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

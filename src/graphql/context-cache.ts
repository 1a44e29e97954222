import { initContextCache } from '@pothos/core';
import { type Plugin, isAsyncIterable } from 'graphql-yoga';

/**
 * Lets go of what was cached for an execution when it ends, by giving its context a new cache key (the context starts
 * with one, `initContextCache`). Pothos keeps its plugins' per-request caches, and ours made with `createContextCache`,
 * in WeakMaps keyed by the context's cache key, and their values refer back to the context (and so to the key).
 * V8's young-generation collector keeps such an entry alive, with the whole request it refers to, until the next full
 * collection: every request's context, rows and execution state are copied twice and then promoted (with
 * src/ops/heap-tuning.ts, measured in docs/performance.md, "Dependency patches and Node workarounds"). Once the context
 * holds a new key, nothing but the WeakMaps refers to the old one, and its entries go at the next young collection. An
 * incremental result lets go when its stream ends.
 */
export function useContextCacheRelease(): Plugin {
  return {
    onExecute: () => ({
      onExecuteDone: ({ args, result }) => {
        const release = () => Object.assign(args.contextValue as object, initContextCache());
        if (!isAsyncIterable(result)) return void release();
        return { onEnd: release };
      },
    }),
  };
}

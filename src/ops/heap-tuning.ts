import { setFlagsFromString } from 'node:v8';

/**
 * Turns off V8's allocation-site pretenuring for the serving process, before anything else is loaded (the entry point
 * imports this first). Pretenuring allocates the objects of a literal straight into the old generation once most of
 * them have survived a young collection. A request's objects that are values in a library's WeakMap (Pothos' per-request
 * caches) survive one young collection by design, so their literals get pretenured; each request then leaves objects
 * in the old generation that refer to the rest of it, and the young collector copies and promotes every request's
 * state until the next full collection. It pays together with the context-cache release (src/graphql/context-cache.ts),
 * which lets those entries go: measured on Node 24 in docs/performance.md, "Dependency patches and Node workarounds".
 */
setFlagsFromString('--no-allocation-site-pretenuring');

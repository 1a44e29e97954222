import { setFlagsFromString } from 'node:v8';

/**
 * Turns off V8's allocation-site pretenuring for the serving process, before anything else is loaded (the entry point
 * imports this first). Pretenuring allocates the objects of a literal straight into the old generation once most of
 * them have survived a young collection. A request's objects that are values in a library's WeakMap (Pothos' per-request
 * caches) survive one young collection by design, so their literals get pretenured; each request then leaves objects
 * in the old generation that refer to the rest of it, and the young collector copies and promotes every request's
 * state until the next full collection. With pretenuring on, a single group answered 2,092 req/s with 88 MB promoted
 * in 5 s; with it off, 3,159 req/s with 12 MB (docs/performance.md, "Fourteenth round").
 */
setFlagsFromString('--no-allocation-site-pretenuring');

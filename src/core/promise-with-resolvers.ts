/**
 * `Promise.withResolvers` where the runtime lacks it (Node 20). Without it, the libraries that make deferred promises
 * (graphql-tools' executor makes one for every execution's abort signal; whatwg-node's helpers) fall back to an object
 * literal with `resolve` and `reject` getters. On Node 20 such an object gets a hidden class of its own, which keeps the
 * promise, its reactions and so the execution's whole state from the young generation until the next full collection
 * (docs/performance.md, "Fourteenth round"). Imported for its effect, before anything makes a deferred promise.
 */
// Typed here rather than by raising the TypeScript library to ES2024, which would let code use what Node 20 lacks.
const promiseClass = Promise as PromiseConstructor & { withResolvers?: unknown };
if (!promiseClass.withResolvers) {
  promiseClass.withResolvers = function withResolvers<T>(this: PromiseConstructor) {
    let resolve!: (value: T | PromiseLike<T>) => void;
    let reject!: (reason?: unknown) => void;
    const deferred = new this<T>((resolvePromise, rejectPromise) => {
      resolve = resolvePromise;
      reject = rejectPromise;
    });
    return { promise: deferred, resolve, reject };
  };
}

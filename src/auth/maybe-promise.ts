/**
 * Values that are at hand or on their way. Permission checks answer from what a request already knows for most rows
 * of a page; handing those answers on without a promise keeps a page's fields synchronous, which the executor
 * completes without a promise and a microtask per row.
 */
export type MaybePromise<T> = T | Promise<T>;

export const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> =>
  typeof (value as Promise<T> | null)?.then === 'function';

/** `next` applied to the value: at once when it is at hand, once it settles when it is a promise. */
export const thenMaybe = <T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> =>
  isPromise(value) ? value.then(next) : next(value);

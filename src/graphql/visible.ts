import type { MaybePromise } from '../auth/maybe-promise';

/**
 * Loads an object only when the viewer may see it, answering null otherwise. Pothos' Prisma plugin treats a `query`
 * the resolver never reads as a forgotten spread (an error outside production, since it would cost N+1 queries), even
 * when the answer is null; taking the selection up front consumes it on both paths.
 */
export async function findIfVisible<Query extends object, T>(
  query: Query,
  visible: MaybePromise<boolean>,
  find: (selection: Query) => Promise<T>,
): Promise<T | null> {
  const selection = { ...query };
  return (await visible) ? find(selection) : null;
}

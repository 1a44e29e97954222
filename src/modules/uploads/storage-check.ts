import { type FileStore, type StorageCondition, storageUnavailableIn } from './file-store';

/** What readiness reports of the file store: null when a small write succeeds, else why writes fail. */
export type StorageFinding = StorageCondition | 'unwritable' | null;

/** How long a probe's finding stands: balancers poll readiness every few seconds, and each poll must not write. */
const findingMaxAgeMs = 5_000;

/**
 * The readiness check of the file store: its probe (a small write), run at most once per `maxAgeMs` and shared by the
 * polls meanwhile. A store without a probe (a bucket) is not checked.
 */
export function createStorageCheck(store: () => FileStore, maxAgeMs = findingMaxAgeMs): () => Promise<StorageFinding> {
  let last: { at: number; finding: Promise<StorageFinding> } | null = null;
  return () => {
    const now = performance.now();
    if (!last || now - last.at >= maxAgeMs) {
      const files = store();
      const finding = files.probe
        ? files.probe().then(
            () => null,
            (error: unknown) => storageUnavailableIn(error)?.condition ?? 'unwritable',
          )
        : null;
      last = { at: now, finding: Promise.resolve(finding) };
    }
    return last.finding;
  };
}

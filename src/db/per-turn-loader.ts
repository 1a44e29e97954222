import DataLoader from 'dataloader';

/**
 * A DataLoader for what concurrent requests ask in one turn of the event loop, answered with one statement: under load
 * each round trip to PostgreSQL costs the server far more CPU than the statement it carries (docs/performance.md,
 * "Mechanisms"). Its batch goes after the turn's I/O callbacks (`setImmediate`), so every request read in that turn has
 * asked; DataLoader's default waits only for the current tick, which two requests never share. Uncached: every load
 * reaches the database after its request arrived.
 */
export function perTurnLoader<Key, Value>(
  batch: DataLoader.BatchLoadFn<Key, Value>,
  options: { maxBatchSize?: number } = {},
) {
  return new DataLoader<Key, Value>(batch, {
    ...options,
    cache: false,
    batchScheduleFn: (dispatch) => setImmediate(dispatch),
  });
}

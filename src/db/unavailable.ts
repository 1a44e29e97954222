import { httpError } from '../core/errors';

/** Seconds a client should wait before retrying while the database is unreachable (a restart or failover). */
export const databaseRetryAfterSeconds = 5;

// Prisma's codes for an unreachable server, a timed-out or closed connection and an exhausted pool; the driver's codes
// for a refused or reset socket; PostgreSQL's for a server shutting down (57P0x) and a broken connection (08xxx).
const unavailableCodes = new Set([
  'P1001', 'P1002', 'P1008', 'P1017', 'P2024',
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT',
  '57P01', '57P02', '57P03', '08000', '08001', '08003', '08006',
]);
// The kinds of Prisma's driver adapter errors for the same.
const unavailableKinds = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout']);
const unavailableMessage = new RegExp(
  [
    'connection terminated', 'connection (?:is )?(?:closed|ended)', "can't reach database server", 'server closed the connection',
    // node-postgres, for a query on a pooled connection the server ended.
    'has encountered a connection error and is not queryable',
    // A database refusing connections (ALLOW_CONNECTIONS false, a server starting or stopping), code 55000/57P03.
    'is not currently accepting connections', 'the database system is (?:starting up|shutting down|in recovery mode)',
    'pglite is closed', 'database is not open',
  ].join('|'),
  'i',
);

/**
 * Whether an error, or any error it wraps, says the database cannot be reached: a failure of the service rather than
 * of the request, which a retry later may not meet. Prisma wraps the driver's error (`cause`, the driver adapter's
 * error in `meta`), GraphQL wraps a resolver's (`originalError`), so the whole chain is searched.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending = [error];
  while (pending.length) {
    const current = pending.pop();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const candidate = current as {
      code?: unknown;
      kind?: unknown;
      message?: unknown;
      cause?: unknown;
      originalError?: unknown;
      meta?: { driverAdapterError?: unknown };
    };
    if (typeof candidate.code === 'string' && unavailableCodes.has(candidate.code)) return true;
    if (typeof candidate.kind === 'string' && unavailableKinds.has(candidate.kind)) return true;
    if (typeof candidate.message === 'string' && unavailableMessage.test(candidate.message)) return true;
    pending.push(candidate.cause, candidate.originalError, candidate.meta?.driverAdapterError);
  }
  return false;
}

/** The answer for either API while the database is unreachable: 503 with Retry-After, nothing internal revealed. */
export const serviceUnavailable = () =>
  httpError(503, 'SERVICE_UNAVAILABLE', 'The service is temporarily unavailable; retry later', {
    'retry-after': String(databaseRetryAfterSeconds),
  });

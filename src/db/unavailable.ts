import { httpError } from '../core/errors';

/** Seconds a client should wait before retrying while the database is unreachable (a restart or failover). */
export const databaseRetryAfterSeconds = 5;

// Prisma's codes for an unreachable server, a timed-out or closed connection and an exhausted pool; the driver's codes
// for a refused or reset socket; PostgreSQL's for a server shutting down (57P0x) and a broken connection (08xxx).
const unavailableCodes = new Set([
  'P1001',
  'P1002',
  'P1008',
  'P1017',
  'P2024',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);
// The kinds of Prisma's driver adapter errors for the same.
const unavailableKinds = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout']);
const unavailableMessage = new RegExp(
  [
    'connection terminated',
    'connection (?:is )?(?:closed|ended)',
    "can't reach database server",
    // Prisma's P1017 as text ("Server has closed the connection."), where envelop wrapped it with the context.
    'server (?:has )?closed the connection',
    // node-postgres, for a query on a pooled connection the server ended.
    'has encountered a connection error and is not queryable',
    // PostgreSQL ending a session: an administrator (57P01), a crash (57P02), an idle timeout.
    'terminating connection',
    // A database refusing connections (ALLOW_CONNECTIONS false, a server starting or stopping), code 55000/57P03.
    'is not currently accepting connections',
    'the database system is (?:starting up|shutting down|in recovery mode)',
    // Prisma's driver adapter error as text: envelop wraps a failure to build the context (reading the credential) so.
    'DriverAdapterError: (?:DatabaseNotReachable|ConnectionClosed|SocketTimeout)',
    'pglite is closed',
    'database is not open',
  ].join('|'),
  'i',
);

/**
 * Where an error was wrapped as text (envelop does so with a failure to build the context), what is left of the
 * driver's code is Prisma's rendering of it in the message: "Database error. Code: `57P01`. Message: ...".
 */
const codeInMessage = /Code: `(\w+)`/;

/** PostgreSQL's names of the conditions above, for the log. */
const conditionNames: Record<string, string> = {
  '57P01': 'admin_shutdown',
  '57P02': 'crash_shutdown',
  '57P03': 'cannot_connect_now',
  '08000': 'connection_exception',
  '08001': 'sqlclient_unable_to_establish_sqlconnection',
  '08003': 'connection_does_not_exist',
  '08006': 'connection_failure',
};

/**
 * Why the database cannot be reached, in a few words for the log (a code such as `57P01 admin_shutdown` or
 * `ECONNREFUSED`, else the driver's words), when an error or any error it wraps says so: a failure of the service
 * rather than of the request, which a retry later may not meet. Null for any other error. Prisma wraps the driver's
 * error (`cause`, the driver adapter's error in `meta`), GraphQL wraps a resolver's (`originalError`), so the whole
 * chain is searched, a code preferred to words.
 */
export function databaseUnavailability(error: unknown): string | null {
  const seen = new Set<unknown>();
  const pending = [error];
  let words: string | null = null;
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
    const message = typeof candidate.message === 'string' ? candidate.message : '';
    const code = typeof candidate.code === 'string' ? candidate.code : codeInMessage.exec(message)?.[1];
    if (code && unavailableCodes.has(code)) return conditionNames[code] ? `${code} ${conditionNames[code]}` : code;
    if (typeof candidate.kind === 'string' && unavailableKinds.has(candidate.kind)) words ??= candidate.kind;
    words ??= unavailableMessage.exec(message)?.[0] ?? null;
    pending.push(candidate.cause, candidate.originalError, candidate.meta?.driverAdapterError);
  }
  return words;
}

/** Whether an error, or any error it wraps, says the database cannot be reached (databaseUnavailability). */
export const isDatabaseUnavailable = (error: unknown): boolean => databaseUnavailability(error) !== null;

/** The answer for either API while the database is unreachable: 503 with Retry-After, nothing internal revealed. */
export const serviceUnavailable = () =>
  httpError(503, 'SERVICE_UNAVAILABLE', 'The service is temporarily unavailable; retry later', {
    'retry-after': String(databaseRetryAfterSeconds),
  });

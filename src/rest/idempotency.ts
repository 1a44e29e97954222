import { createHash } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';
import {
  type DocumentNode,
  type ExecutionResult,
  GraphQLError,
  type GraphQLFormattedError,
  Kind,
  type OperationDefinitionNode,
  getOperationAST,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { httpError, retryAfter } from '../core/errors';
import { isUniqueViolation } from '../db/unique';
import { db } from '../db/database';
import { type WriteJoin, joinWriteTransactions } from '../outbox/record';
import type { Prisma } from '../generated/prisma/client';
import type { Context } from '../graphql/builder';
import { multigetPath } from './multiget';

/** How long a key's result is replayed; older keys are forgotten (pruneIdempotencyKeys) and may be used afresh. */
export const idempotencyWindowMs = 24 * 60 * 60 * 1000;
/**
 * How long a claim counts as running without news from its holder, which renews it every quarter of this while it
 * runs (and with each write it commits). Once it has lapsed, the holder has stopped (its process died, or recording
 * its outcome failed while the database was away): a retry may take the claim over. That is safe even when the holder
 * was only stalled: a claim whose write committed is marked so in that write's transaction and is never taken over, an
 * item of a bulk write is recorded in its own transaction, and a write of a holder whose claim was taken over rolls
 * back.
 */
export const leaseMs = 10_000;
const maxKeyLength = 255;
const header = 'idempotency-key';

type RequestContext = Context & {
  request: Request;
  params?: { query?: unknown; operationName?: unknown; variables?: unknown };
};

/** The stored result: what execution returned, as JSON (errors in their response form). */
interface StoredResult {
  data?: Record<string, unknown> | null;
  errors?: GraphQLFormattedError[];
}

type Claim =
  | { kind: 'claimed'; createdAt: Date }
  | { kind: 'replay'; result: StoredResult }
  | { kind: 'answer-lost' }
  | { kind: 'reused' }
  | { kind: 'in-flight'; waitMs: number };

/** A claim as its holder names it in every write: a retry that took it over has another `createdAt`. */
interface Mine {
  userId: number;
  key: string;
  requestHash: string;
  createdAt: Date;
}

/** Keys apply to writes: `/v1` POST and PUT, and GraphQL mutations. */
function appliesTo(request: Request, document: DocumentNode, operationName: string | null | undefined): boolean {
  const { pathname } = new URL(request.url);
  // A multiget is a POST that only reads, each of its paths an execution of its own under the one request.
  if (pathname === `/v1${multigetPath}`) return false;
  if (pathname === '/v1' || pathname.startsWith('/v1/')) return request.method === 'POST' || request.method === 'PUT';
  return getOperationAST(document, operationName)?.operation === 'mutation';
}

/** JSON with object keys sorted, so that the same variables in another order are the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * What makes two requests the same: method, path and query string, and the operation with its variables. For `/v1`
 * the variables are what the route made of the body, so the same members in JSON or XML, or in another order, match.
 */
function fingerprint(request: Request, context: RequestContext): string {
  const url = new URL(request.url);
  const params = context.params ?? {};
  return createHash('sha256')
    .update(
      canonicalJson([request.method, url.pathname + url.search, params.query, params.operationName, params.variables]),
    )
    .digest('hex');
}

async function claim(userId: number, key: string, requestHash: string): Promise<Claim> {
  const keys = db().idempotencyKey;
  // Three rounds cover losing each race once: to a concurrent first use, and to a concurrent takeover.
  for (let round = 0; round < 3; round++) {
    const now = Date.now();
    const createdAt = new Date(now);
    const leaseUntil = new Date(now + leaseMs);
    try {
      await keys.create({ data: { userId, key, requestHash, status: 'IN_FLIGHT', createdAt, leaseUntil } });
      return { kind: 'claimed', createdAt };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const existing = await keys.findUnique({ where: { userId_key: { userId, key } } });
    if (!existing) continue;
    if (now - existing.createdAt.getTime() > idempotencyWindowMs) {
      // Forgotten: deleted with its recorded items (unless someone claimed it meanwhile), then claimed afresh.
      await keys.deleteMany({ where: { userId, key, createdAt: existing.createdAt } });
      continue;
    }
    if (existing.requestHash !== requestHash) return { kind: 'reused' };
    if (existing.status === 'COMPLETED') return { kind: 'replay', result: existing.response as StoredResult };
    const waitMs = existing.leaseUntil.getTime() - now;
    if (waitMs > 0) return { kind: 'in-flight', waitMs };
    // Its holder stopped. A committed write must not run again; a request that committed nothing, or only recorded
    // items, is run again by this retry (which resumes the items). Taken over only if nobody else did meanwhile and
    // the holder did not renew its lease: the row must still be the one read.
    if (existing.status === 'COMMITTED') return { kind: 'answer-lost' };
    const { count } = await keys.updateMany({
      where: { userId, key, createdAt: existing.createdAt, status: 'IN_FLIGHT', leaseUntil: { lte: createdAt } },
      data: { createdAt, leaseUntil },
    });
    if (count === 1) return { kind: 'claimed', createdAt };
  }
  return { kind: 'in-flight', waitMs: 1000 };
}

/** Renews the claim's lease while its request runs; returns the function that stops renewing. */
function keepLease(mine: Mine, logger: Logger, requestId: unknown): () => void {
  const timer = setInterval(() => {
    db()
      .idempotencyKey.updateMany({ where: mine, data: { leaseUntil: new Date(Date.now() + leaseMs) } })
      .catch((error) => logger.warn({ err: error, requestId }, 'renewing the lease of an Idempotency-Key failed'));
  }, leaseMs / 4);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Joins the operation's writes to the claim. A write marks it committed in its own transaction; a write of items of
 * `itemByItem` or `writeItemsTogether` records the items instead, when the operation is one mutation field (items are numbered per operation,
 * and a retry must find the same ones). Both renew the lease, and fail if a retry took the claim over, or once the
 * request was answered (`close`): a write that outlives its answer (cut by the execution deadline) is left to the retry.
 */
function claimJoin(mine: Mine, resumable: boolean): WriteJoin & { recordsItems(): boolean; close(): void } {
  const { userId, key } = mine;
  let batches = 0;
  let closed = false;
  return {
    recordsItems: () => batches > 0,
    close: () => void (closed = true),
    async beforeCommit(tx, items) {
      // Rolls the write back; no client sees this error, the request's answer has gone out.
      if (closed) throw new Error('the request was answered before this write could commit');
      const leaseUntil = new Date(Date.now() + leaseMs);
      const recording = items.length > 0;
      const { count } = await tx.idempotencyKey.updateMany({
        where: mine,
        data: recording ? { leaseUntil } : { status: 'COMMITTED', leaseUntil },
      });
      if (count === 0) throw httpError(409, 'IDEMPOTENCY_KEY_IN_USE', 'A retry with this Idempotency-Key took it over');
      if (recording)
        await tx.idempotencyItem.createMany({
          data: items.map(({ batch, index, value }) => ({
            userId,
            key,
            batch,
            index,
            value: new Uint8Array(serialize(value)),
          })),
        });
    },
    async startBatch() {
      if (!resumable) return null;
      const batch = batches++;
      const rows = await db().idempotencyItem.findMany({
        where: { userId, key, batch },
        select: { index: true, value: true },
      });
      return { batch, recorded: new Map(rows.map((row) => [row.index, deserialize(row.value)])) };
    },
  };
}

/** One mutation field at the root of the operation, which every /v1 write is. */
function isOneMutationField(operation: OperationDefinitionNode | null | undefined): boolean {
  const selections = operation?.selectionSet.selections ?? [];
  return operation?.operation === 'mutation' && selections.length === 1 && selections[0]!.kind === Kind.FIELD;
}

/**
 * Claims left in flight by the previous process of the embedded database, which serves one process at a time (its
 * data folder is locked): their holder has stopped, so a retry need not wait for their leases to lapse.
 */
export async function releaseClaimsOfStoppedProcess(): Promise<number> {
  const now = new Date();
  const { count } = await db().idempotencyKey.updateMany({
    where: { status: { not: 'COMPLETED' }, leaseUntil: { gt: now } },
    data: { leaseUntil: now },
  });
  return count;
}

/**
 * A result worth replaying: success and refusals (4xx). An unexpected error or a 5xx is not stored, so that the retry
 * the client will make runs again. Errors arrive here unmasked (masking runs after this plugin).
 */
function isStorable(result: ExecutionResult): boolean {
  return !(result.errors ?? []).some((error) => {
    const status = (error.extensions?.http as { status?: number } | undefined)?.status;
    if (status !== undefined) return status >= 500;
    return (
      error.extensions?.unexpected === true ||
      (error.originalError !== undefined && !(error.originalError instanceof GraphQLError))
    );
  });
}

const toStored = (result: ExecutionResult): StoredResult => ({
  data: (result.data as Record<string, unknown> | null | undefined) ?? null,
  ...(result.errors?.length ? { errors: result.errors.map((error) => error.toJSON()) } : {}),
});

const fromStored = (stored: StoredResult): ExecutionResult => ({
  data: stored.data ?? null,
  ...(stored.errors?.length
    ? {
        errors: stored.errors.map(
          (error) => new GraphQLError(error.message, { path: error.path, extensions: error.extensions }),
        ),
      }
    : {}),
});

// With `data`, as an execution result always has once execution began; the facade relies on it.
const refusal = (error: GraphQLError): ExecutionResult => ({ data: null, errors: [error] });

/**
 * `Idempotency-Key` for writes on both APIs. It hooks execution, which `/graphql` and the `/v1` facade share, after
 * the context (and so authentication) is built: the first request with a key claims it in the database, which holds
 * across instances; a retry with the same key and the same request gets the stored result, rendered as the first was
 * (status, Location, body); the same key with another request is 422, and while the first is still running 409 with
 * `Retry-After` for the rest of its lease. A retry of a bulk write cut short finishes it (itemByItem). Keys are per
 * user. A replayed answer carries `Idempotent-Replayed: true`.
 */
export function useIdempotencyKeys(logger: Logger): Plugin {
  const replayed = new WeakSet<Request>();
  return {
    async onExecute({ args, executeFn, setExecuteFn, setResultAndStopExecution }) {
      const context = args.contextValue as unknown as RequestContext;
      const key = context.request?.headers.get(header);
      if (key === null || key === undefined || !context.viewer) return;
      if (!appliesTo(context.request, args.document, args.operationName)) return;
      if (key.length === 0 || key.length > maxKeyLength) {
        return setResultAndStopExecution(
          refusal(httpError(400, 'BAD_REQUEST', `Idempotency-Key must be 1 to ${maxKeyLength} characters`)),
        );
      }
      const userId = context.viewer.id;
      const requestHash = fingerprint(context.request, context);
      const outcome = await claim(userId, key, requestHash);
      switch (outcome.kind) {
        case 'reused':
          return setResultAndStopExecution(
            refusal(httpError(422, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request')),
          );
        case 'in-flight':
          return setResultAndStopExecution(
            refusal(
              httpError(
                409,
                'IDEMPOTENCY_KEY_IN_USE',
                'A request with this Idempotency-Key is still running; retry later',
                retryAfter(outcome.waitMs),
              ),
            ),
          );
        case 'answer-lost':
          return setResultAndStopExecution(
            refusal(
              httpError(
                409,
                'IDEMPOTENCY_KEY_ANSWER_LOST',
                'The request with this Idempotency-Key was carried out, but its answer was lost; it will not run again',
              ),
            ),
          );
        case 'replay':
          replayed.add(context.request);
          return setResultAndStopExecution(fromStored(outcome.result));
      }
      const mine: Mine = { userId, key, requestHash, createdAt: outcome.createdAt };
      const join = claimJoin(mine, isOneMutationField(getOperationAST(args.document, args.operationName)));
      setExecuteFn(async (executionArgs) => {
        const stopRenewing = keepLease(mine, logger, context.requestId);
        try {
          return await joinWriteTransactions(join, () => executeFn(executionArgs));
        } finally {
          stopRenewing();
        }
      });
      return {
        async onExecuteDone({ result }) {
          join.close();
          // The operation has run: failing to record its outcome must not turn its answer into an error. The claim
          // then stays until its lease lapses; a retry then runs it again, or resumes its items, or is refused for
          // good (answer lost) if a write of it committed.
          try {
            if (!('data' in result || 'errors' in result) || !isStorable(result as ExecutionResult)) {
              // Released for the client's retry: forgotten if nothing of it committed, and otherwise its lease ends now,
              // so that the retry resumes its recorded items at once, or learns that a committed write was not answered.
              const unwritten = { ...mine, status: 'IN_FLIGHT' as const, items: { none: {} } };
              const { count } = await db().idempotencyKey.deleteMany({ where: unwritten });
              if (count === 0) await db().idempotencyKey.updateMany({ where: mine, data: { leaseUntil: new Date() } });
            } else {
              const { count } = await db().idempotencyKey.updateMany({
                where: mine,
                data: { status: 'COMPLETED', response: toStored(result as ExecutionResult) as Prisma.InputJsonObject },
              });
              // The stored result answers retries from now on.
              if (count === 1 && join.recordsItems()) await db().idempotencyItem.deleteMany({ where: { userId, key } });
            }
          } catch (error) {
            logger.warn(
              { err: error, requestId: context.requestId },
              'recording the result of an Idempotency-Key failed',
            );
          }
        },
      };
    },
    onResponse({ request, response }) {
      if (replayed.has(request)) response.headers.set('idempotent-replayed', 'true');
    },
  };
}

/** Forgets keys older than the replay window; any instance may run it. */
export async function pruneIdempotencyKeys(): Promise<number> {
  const { count } = await db().idempotencyKey.deleteMany({
    where: { createdAt: { lt: new Date(Date.now() - idempotencyWindowMs) } },
  });
  return count;
}

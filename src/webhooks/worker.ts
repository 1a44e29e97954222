/**
 * Durable webhook delivery. Two steps, each one transaction, so that a process killed at any point loses nothing:
 *
 * 1. Fan-out (fan-out.ts): committed domain events become delivery rows, committed with the stream cursor.
 * 2. Sending (here): claims due deliveries (their targets locked with `FOR UPDATE SKIP LOCKED`) and leases them
 *    (`leasedUntil`) in one transaction, POSTs them (at most `perTargetConcurrency` of a target at once), and records
 *    the outcomes (attempt rows, and success, a retry time or giving up) in another: one statement for a batch of
 *    successes. Instances sharing a PostgreSQL database never claim the same attempt; a claim whose instance died is
 *    retried once its lease expires (at least once, never lost).
 *
 * In a server the steps run as loops (runner.ts). Time and randomness are injected, so tests drive the worker step by
 * step (`runOnce`) with a clock of their own.
 */
import type { Logger } from 'pino';
import { db } from '../db/database';
import { Prisma } from '../generated/prisma/client';
import { eventKind } from '../outbox/catalogue';
import { recordEvent, writeTransaction } from '../outbox/record';
import { type WebhookVerdict, countWebhookAttempt, countWebhookTargetDisabled } from '../ops/metrics';
import { createFanOut } from './fan-out';
import { type AttemptOutcome, postEventObject } from './post';
import { traceWebhookAttempt } from '../ops/tracing';
import { startDeliveryLoops } from './runner';
import { type SealedSecrets, signatureHeaders, signingSecrets } from './signing';

export interface WebhookWorkerOptions {
  serverKey: Buffer;
  /** Base URL of links in included objects (PUBLIC_URL, or the address the server listens on). */
  linkBase: string;
  logger?: Logger;
  now?: () => Date;
  random?: () => number;
  /** Attempts in flight per target, over all instances: one slow receiver cannot hold every sender. */
  perTargetConcurrency?: number;
  /** How long an attempt may take before it counts as failed. */
  attemptTimeoutMs?: number;
  /** How long a delivery is retried before it is given up. */
  retryForMs?: number;
  /** Pause between polls while there is nothing to do. */
  idleMs?: number;
  /** While they queue no delivery, fan-out rounds start at most this often, each taking the events since the last. */
  roundEveryMs?: number;
  /** How long a target may fail every attempt before it is disabled. */
  disableAfterMs?: number;
  /** Claimed deliveries not yet sent and recorded in this instance, over all targets (sent at most `perTargetConcurrency` per target at once). */
  concurrency?: number;
}

/** Deliveries claimed at most at once (over all targets). */
const claimBatch = 500;
/** A target nobody holds a lease on is claimed this many times its concurrency deep (queued here, sent in turn). */
const claimDepth = 16;
/** Targets locked by one claim at most. */
const targetsPerClaim = 100;
const hour = 3_600_000;

/** The log's entry for an attempt claimed by an instance that never recorded it: it may or may not have been sent. */
export const lostAttemptError =
  'no outcome recorded: the instance that claimed it stopped (or failed to record it); the receiver may have received it';

/** Exponential backoff with jitter: 10 s, 20 s, 40 s, ... up to an hour, each drawn between half and all of it. */
export function backoffMs(attempts: number, random: () => number): number {
  const ceiling = Math.min(hour, 10_000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}

interface Claimed {
  id: bigint;
  targetId: number;
  eventId: bigint;
  /** The event object as stored, sent as it is (not parsed and printed again). */
  body: string;
  createdAt: Date;
  attempts: number;
  leasedUntil: Date;
  target: SealedSecrets & { url: string; schoolId: number; failingSince: Date | null };
}

type ClaimedRow = Omit<Claimed, 'target'> & Claimed['target'];

/** Attempts in flight per target in this instance: a claim may queue more than the cap here; they go in turn. */
function createTargetSlots(perTarget: number) {
  const slots = new Map<number, { busy: number; waiting: (() => void)[] }>();
  return {
    async take(targetId: number): Promise<() => void> {
      let slot = slots.get(targetId);
      if (!slot) slots.set(targetId, (slot = { busy: 0, waiting: [] }));
      if (slot.busy >= perTarget) await new Promise<void>((resolve) => slot.waiting.push(resolve));
      else slot.busy++;
      return () => {
        const next = slot.waiting.shift();
        if (next) next();
        else if (--slot.busy === 0) slots.delete(targetId);
      };
    },
  };
}

export function createWebhookWorker(options: WebhookWorkerOptions) {
  const now = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  const perTarget = options.perTargetConcurrency ?? 4;
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 10_000;
  const retryForMs = options.retryForMs ?? 72 * hour;
  // An attempt starts only while its lease has its whole timeout and a margin left, so it has always ended (aborted at
  // the latest) before another instance may take the delivery over. Queued ones may wait one timeout for their turn.
  const leaseMarginMs = 5_000;
  const leaseMs = 2 * attemptTimeoutMs + leaseMarginMs;
  const disableAfterMs = options.disableAfterMs ?? 5 * 24 * hour;
  const slots = createTargetSlots(perTarget);

  const { fanOut, caughtUp } = createFanOut({ now, linkBase: options.linkBase });

  /**
   * Claims due deliveries. The targets with something due are locked with SKIP LOCKED, so one instance at a time
   * claims for a target and counts its leases right (the count is a statement after the lock, seeing every claim
   * committed before it); the other instances claim for the other targets meanwhile. A target nobody holds leases on
   * is claimed `claimDepth` times its cap deep, and this instance alone sends them, at most `perTarget` at once; one
   * whose leases are fewer than the cap gets what is left of it. Either way no more than `perTarget` attempts of a
   * target are in flight over all instances. A delivery whose lease ran out unrecorded (its instance stopped, or could
   * not record) gets the attempt it may have made logged by the same statement, with no outcome: the log misses none
   * the receiver may have seen. Two statements in one transaction.
   */
  async function claim(max = claimBatch): Promise<Claimed[]> {
    const at = now();
    const rows = await db().$transaction(async (tx) => {
      const due = Prisma.sql`d.status = 'PENDING' AND d."nextAttemptAt" <= ${at} AND (d."leasedUntil" IS NULL OR d."leasedUntil" <= ${at})`;
      const targets = await tx.$queryRaw<{ id: number }[]>`
        SELECT t.id FROM trigger_targets t
        WHERE t."pausedAt" IS NULL AND t."disabledAt" IS NULL AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d."targetId" = t.id AND ${due})
        ORDER BY t.id LIMIT ${targetsPerClaim}
        FOR UPDATE SKIP LOCKED`;
      if (targets.length === 0) return [];
      const targetIds = Prisma.join(targets.map((target) => target.id));
      const leasedUntil = new Date(at.getTime() + leaseMs);
      return tx.$queryRaw<ClaimedRow[]>`
        WITH leased AS (
          SELECT "targetId", count(*)::int AS n FROM webhook_deliveries
          WHERE "targetId" IN (${targetIds}) AND status = 'PENDING' AND "leasedUntil" > ${at}
          GROUP BY "targetId"),
        room AS (
          SELECT t.id, CASE WHEN coalesce(l.n, 0) = 0 THEN ${perTarget * claimDepth}::int ELSE greatest(0, ${perTarget}::int - l.n) END AS n
          FROM trigger_targets t LEFT JOIN leased l ON l."targetId" = t.id WHERE t.id IN (${targetIds})),
        chosen AS (
          SELECT picked.id, picked."leasedUntil" AS "lostLease" FROM room CROSS JOIN LATERAL (
            SELECT d.id, d."leasedUntil", row_number() OVER (ORDER BY d."nextAttemptAt", d.id) AS rank FROM webhook_deliveries d
            WHERE d."targetId" = room.id AND ${due} ORDER BY d."nextAttemptAt", d.id LIMIT room.n) picked
          ORDER BY picked.rank, room.id LIMIT ${max}),
        claimed AS (
          UPDATE webhook_deliveries d SET "leasedUntil" = ${leasedUntil}, attempts = d.attempts + 1
          FROM chosen, trigger_targets t
          WHERE d.id = chosen.id AND t.id = d."targetId" AND ${due}
          RETURNING d.id, d."targetId", d."eventId", d.payload::text AS body, d."createdAt", d.attempts, d."leasedUntil", chosen."lostLease",
            t.url, t.secret, t."previousSecret", t."previousSecretExpiresAt", t."schoolId", t."failingSince"),
        lost AS (
          INSERT INTO webhook_attempts ("deliveryId", "startedAt", "latencyMs", "statusCode", "responseBody", error)
          SELECT id, "lostLease" - ${leaseMs}::double precision * interval '1 millisecond', NULL, NULL, '', ${lostAttemptError} FROM claimed
          WHERE "lostLease" IS NOT NULL ORDER BY id)
        SELECT id, "targetId", "eventId", body, "createdAt", attempts, "leasedUntil",
          url, secret, "previousSecret", "previousSecretExpiresAt", "schoolId", "failingSince" FROM claimed`;
    });
    return rows
      .map(({ url, secret, previousSecret, previousSecretExpiresAt, schoolId, failingSince, ...delivery }) => ({
        ...delivery,
        target: { url, secret, previousSecret, previousSecretExpiresAt, schoolId, failingSince },
      }))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /** Sends one claimed delivery when its target has a free slot here, or gives it back if its lease ran short meanwhile. */
  async function attempt(delivery: Claimed): Promise<(AttemptOutcome & { startedAt: Date }) | null> {
    const free = await slots.take(delivery.targetId);
    try {
      const startedAt = now();
      if (delivery.leasedUntil.getTime() - startedAt.getTime() < attemptTimeoutMs + leaseMarginMs) return null;
      const headers = signatureHeaders(
        `evt_${delivery.eventId}`,
        startedAt,
        delivery.body,
        signingSecrets(delivery.target, options.serverKey, startedAt),
      );
      const outcome = await traceWebhookAttempt(
        {
          deliveryId: delivery.id,
          eventId: delivery.eventId,
          targetId: delivery.targetId,
          attempt: delivery.attempts,
          url: delivery.target.url,
        },
        (traceHeaders) =>
          postEventObject(
            delivery.target.url,
            delivery.body,
            { ...headers, ...traceHeaders },
            { timeoutMs: attemptTimeoutMs, now },
          ),
      );
      return { ...outcome, startedAt };
    } finally {
      free();
    }
  }

  type Verdict = 'delivered' | 'retry' | 'failed' | 'gone' | 'released';
  type Sent = { delivery: Claimed; outcome: (AttemptOutcome & { startedAt: Date }) | null };
  type Attempted = { delivery: Claimed; outcome: AttemptOutcome & { startedAt: Date }; verdict: Verdict };

  function verdictOf({ delivery, outcome }: Sent, at: Date): Verdict {
    if (!outcome) return 'released';
    if (outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300) return 'delivered';
    if (outcome.statusCode === 410) return 'gone';
    return at.getTime() - delivery.createdAt.getTime() >= retryForMs ? 'failed' : 'retry';
  }

  /**
   * One statement for a batch: every attempt's log row (a delivery deleted with its target meanwhile has none), and the
   * successes of the deliveries whose lease is still this claim's, with their targets' failing streaks cleared.
   */
  function recordAttempts(client: Pick<Prisma.TransactionClient, '$executeRaw'>, attempted: Attempted[], at: Date) {
    const rows = attempted.map(({ delivery, outcome, verdict }) => ({
      id: String(delivery.id),
      targetId: delivery.targetId,
      lease: delivery.leasedUntil.toISOString(),
      ok: verdict === 'delivered',
      startedAt: outcome.startedAt.toISOString(),
      latencyMs: outcome.latencyMs,
      statusCode: outcome.statusCode,
      responseBody: outcome.responseBody.replaceAll('\u0000', ''),
      error: outcome.error,
    }));
    return client.$executeRaw`
      WITH r AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(id bigint, "targetId" int, lease timestamp(3), ok boolean,
          "startedAt" timestamp(3), "latencyMs" int, "statusCode" int, "responseBody" text, error text)),
      delivered AS (
        UPDATE webhook_deliveries d
        SET status = 'SUCCEEDED', "deliveredAt" = ${at}, "lastStatusCode" = r."statusCode", "lastError" = NULL, "leasedUntil" = NULL
        FROM r WHERE r.ok AND d.id = r.id AND d."leasedUntil" = r.lease
        RETURNING d.id),
      recovered AS (
        UPDATE trigger_targets t SET "failingSince" = NULL
        WHERE t.id IN (SELECT r."targetId" FROM r WHERE r.ok) AND t."failingSince" IS NOT NULL
        RETURNING t.id)
      INSERT INTO webhook_attempts ("deliveryId", "startedAt", "latencyMs", "statusCode", "responseBody", error)
      SELECT r.id, r."startedAt", r."latencyMs", r."statusCode", r."responseBody", r.error FROM r
      WHERE EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = r.id)
      ORDER BY r.id`;
  }

  /**
   * Records the attempts of a batch and what follows from each, for the deliveries whose lease is still this claim's.
   * A batch of successes (the common case) is one statement; failures add their retry, give-up or 410 in the same
   * transaction. Deliveries that were never sent (their lease ran short in the queue) are given back for a next claim.
   */
  async function recordBatch(sent: Sent[]): Promise<Verdict[]> {
    const at = now();
    const verdicts = sent.map((one) => verdictOf(one, at));
    const attempted = sent.flatMap((one, index) =>
      one.outcome ? [{ ...one, outcome: one.outcome, verdict: verdicts[index]! }] : [],
    );
    const released = sent.filter((one) => !one.outcome).map(({ delivery }) => delivery);
    const failures = attempted.filter((one) => one.verdict !== 'delivered');
    if (failures.length === 0 && released.length === 0) {
      if (attempted.length) await recordAttempts(db(), attempted, at);
      countAttempts(attempted, 0);
      return verdicts;
    }
    const disabled = await writeTransaction(async (tx) => {
      if (attempted.length) await recordAttempts(tx, attempted, at);
      // One statement per claim they came from (a claim leases its deliveries until one time).
      for (const lease of new Set(released.map((delivery) => delivery.leasedUntil.getTime()))) {
        const ids = released
          .filter((delivery) => delivery.leasedUntil.getTime() === lease)
          .map((delivery) => delivery.id);
        await tx.webhookDelivery.updateMany({
          where: { id: { in: ids }, leasedUntil: new Date(lease) },
          data: { leasedUntil: null, attempts: { decrement: 1 } },
        });
      }
      for (const { delivery, outcome, verdict } of failures) {
        const mine = { id: delivery.id, leasedUntil: delivery.leasedUntil };
        const last = { lastStatusCode: outcome.statusCode, lastError: outcome.error, leasedUntil: null };
        if (verdict === 'failed') {
          await tx.webhookDelivery.updateMany({ where: mine, data: { ...last, status: 'FAILED' } });
        } else if (verdict === 'retry') {
          const wait = Math.max(backoffMs(delivery.attempts, random), Math.min(outcome.retryAfterMs ?? 0, 24 * hour));
          await tx.webhookDelivery.updateMany({
            where: mine,
            data: { ...last, nextAttemptAt: new Date(at.getTime() + wait) },
          });
        } else {
          await tx.webhookDelivery.updateMany({ where: mine, data: { ...last, status: 'CANCELLED' } });
          await unsubscribeGoneTarget(tx, delivery.targetId, delivery.target.schoolId);
        }
      }
      return trackFailing(tx, attempted, at);
    });
    countAttempts(attempted, disabled);
    return verdicts;
  }

  /** For the metrics, once the attempts and the targets they disabled are committed. */
  function countAttempts(attempted: Attempted[], disabledTargets: number) {
    for (const { outcome, verdict } of attempted) countWebhookAttempt(verdict as WebhookVerdict, outcome.latencyMs);
    for (let target = 0; target < disabledTargets; target++) countWebhookTargetDisabled();
  }

  /**
   * A success clears the target's failing streak (recordAttempts); a failure starts one, and a streak of
   * `disableAfterMs` disables the target (an event says so) until an administrator resumes it. Its deliveries wait
   * meanwhile.
   */
  async function trackFailing(tx: Prisma.TransactionClient, attempted: Attempted[], at: Date): Promise<number> {
    let disabled = 0;
    const succeeded = new Set(
      attempted.filter((one) => one.verdict === 'delivered').map(({ delivery }) => delivery.targetId),
    );
    const failing = new Map(
      attempted
        .filter(({ delivery }) => !succeeded.has(delivery.targetId))
        .map(({ delivery }) => [delivery.targetId, delivery.target]),
    );
    for (const [targetId, target] of failing) {
      await tx.triggerTarget.updateMany({ where: { id: targetId, failingSince: null }, data: { failingSince: at } });
      if (!target.failingSince || at.getTime() - target.failingSince.getTime() < disableAfterMs) continue;
      const { count } = await tx.triggerTarget.updateMany({
        where: { id: targetId, disabledAt: null },
        data: { disabledAt: at },
      });
      if (count) {
        await recordTargetEvent(tx, 'trigger_target.disable', targetId, target.schoolId);
        disabled++;
      }
    }
    return disabled;
  }

  async function recordTargetEvent(tx: Prisma.TransactionClient, type: string, objectId: number, schoolId: number) {
    const school = await tx.school.findUniqueOrThrow({ where: { id: schoolId }, select: { districtId: true } });
    await recordEvent(tx, eventKind(type)!, {
      realm: { type: 'SCHOOL', id: schoolId },
      objectId,
      actorId: null,
      scope: { districtId: school.districtId, schoolId },
    });
  }

  /** 410 Gone: the receiver wants nothing more. Its subscriptions end and what was queued for it is cancelled. */
  async function unsubscribeGoneTarget(tx: Prisma.TransactionClient, targetId: number, schoolId: number) {
    const subscriptions = await tx.triggerSubscription.findMany({ where: { targetId }, select: { id: true } });
    await tx.triggerSubscription.deleteMany({ where: { targetId } });
    await tx.webhookDelivery.updateMany({
      where: { targetId, status: 'PENDING', leasedUntil: null },
      data: { status: 'CANCELLED' },
    });
    for (const { id } of subscriptions) await recordTargetEvent(tx, 'trigger_subscription.delete', id, schoolId);
  }

  /** Sends what is due now, claim by claim, until nothing is. */
  async function sendDue(): Promise<Record<'delivered' | 'retry' | 'failed' | 'gone', number>> {
    const counts = { delivered: 0, retry: 0, failed: 0, gone: 0 };
    for (let batch = await claim(); batch.length; batch = await claim()) {
      const sent = await Promise.all(batch.map(async (delivery) => ({ delivery, outcome: await attempt(delivery) })));
      for (const verdict of await recordBatch(sent)) if (verdict !== 'released') counts[verdict]++;
    }
    return counts;
  }

  /** One full round: fan out every committed event, then send everything due. */
  async function runOnce() {
    let events = 0;
    for (let batch = await fanOut(); batch.read > 0; batch = await fanOut()) events += batch.read;
    return { events, ...(await sendDue()) };
  }

  let loops: ReturnType<typeof startDeliveryLoops> | null = null;

  return {
    runOnce,
    /** Whether every committed event has been fanned out (events wait while an older transaction runs). */
    caughtUp,
    start() {
      loops = startDeliveryLoops(
        { fanOut, claim, attempt, record: recordBatch },
        {
          idleMs: options.idleMs ?? 250,
          roundEveryMs: options.roundEveryMs ?? 50,
          concurrency: options.concurrency ?? 1_000,
          claimBatch,
          logger: options.logger,
        },
      );
    },
    /** Stops claiming, lets the attempts in flight finish and records them. */
    async stop() {
      await loops?.stop();
      loops = null;
    },
  };
}

export type WebhookWorker = ReturnType<typeof createWebhookWorker>;

/** Forgets finished deliveries (with their attempts) older than the retention; pending ones are kept whatever their age. */
export async function pruneDeliveryLog(retentionDays: number, now = new Date()): Promise<number> {
  const { count } = await db().webhookDelivery.deleteMany({
    where: { status: { not: 'PENDING' }, createdAt: { lt: new Date(now.getTime() - retentionDays * 24 * hour) } },
  });
  return count;
}

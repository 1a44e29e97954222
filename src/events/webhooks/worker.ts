/**
 * Durable webhook delivery. Two steps, each one transaction, so that a process killed at any point loses nothing:
 *
 * 1. Fan-out (fan-out.ts): committed domain events become delivery rows, committed with the stream cursor.
 * 2. Sending (here): claims due deliveries (their targets locked with `FOR UPDATE SKIP LOCKED`) and leases them
 *    (`leasedUntil`) in one transaction, POSTs them, and records the outcomes (attempt rows, and success, a retry
 *    time or giving up) in another. Instances sharing a PostgreSQL database never claim the same attempt; a claim
 *    whose instance died is retried once its lease expires (at least once, never lost).
 *
 * In a server the steps run as loops (runner.ts). Time and randomness are injected, so tests drive the worker step by
 * step (`runOnce`) with a clock of their own.
 */
import type { Logger } from 'pino';
import { db } from '../../db/database';
import { Prisma } from '../../generated/prisma/client';
import { eventKind } from '../catalogue';
import { recordEvent, writeTransaction } from '../record';
import { createFanOut } from './fan-out';
import { type AttemptOutcome, postEventObject } from './post';
import { startDeliveryLoops } from './runner';
import { signatureHeaders, signingSecrets } from './signing';

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
  /** How long a target may fail every attempt before it is disabled. */
  disableAfterMs?: number;
  /** Attempts in flight in this instance, over all targets. */
  concurrency?: number;
}

const claimBatch = 100;
const hour = 3_600_000;

/** Exponential backoff with jitter: 10 s, 20 s, 40 s, ... up to an hour, each drawn between half and all of it. */
export function backoffMs(attempts: number, random: () => number): number {
  const ceiling = Math.min(hour, 10_000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}

interface Claimed {
  id: bigint;
  targetId: number;
  eventId: bigint;
  payload: Prisma.JsonValue;
  createdAt: Date;
  attempts: number;
  leasedUntil: Date;
  target: { url: string; secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null; schoolId: number; failingSince: Date | null };
}

export function createWebhookWorker(options: WebhookWorkerOptions) {
  const now = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  const perTarget = options.perTargetConcurrency ?? 4;
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 10_000;
  const retryForMs = options.retryForMs ?? 72 * hour;
  // An attempt ends at its timeout (it is aborted), so a lease a little longer is never taken over while it runs.
  const leaseMs = attemptTimeoutMs + 5_000;
  const disableAfterMs = options.disableAfterMs ?? 5 * 24 * hour;

  const { fanOut, caughtUp } = createFanOut({ now, linkBase: options.linkBase });

  /**
   * Claims due deliveries, at most `perTarget` in flight per target over all instances. The targets with something
   * due are locked with SKIP LOCKED, so one instance at a time claims for a target and counts its leases right; the
   * other instances claim for the other targets meanwhile.
   */
  async function claim(max = claimBatch): Promise<Claimed[]> {
    const at = now();
    return db().$transaction(async (tx) => {
      const due = Prisma.sql`status = 'PENDING' AND "nextAttemptAt" <= ${at} AND ("leasedUntil" IS NULL OR "leasedUntil" <= ${at})`;
      const targets = await tx.$queryRaw<{ id: number }[]>`
        SELECT t.id FROM trigger_targets t
        WHERE t."pausedAt" IS NULL AND t."disabledAt" IS NULL AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d."targetId" = t.id AND ${due})
        ORDER BY t.id LIMIT ${claimBatch}
        FOR UPDATE SKIP LOCKED`;
      if (targets.length === 0) return [];
      const targetIds = Prisma.join(targets.map((target) => target.id));
      const [candidates, inFlight] = [
        await tx.$queryRaw<{ id: bigint; targetId: number }[]>`
          SELECT id, "targetId" FROM (
            SELECT id, "targetId", row_number() OVER (PARTITION BY "targetId" ORDER BY "nextAttemptAt", id) AS rank
            FROM webhook_deliveries WHERE "targetId" IN (${targetIds}) AND ${due}) ranked
          WHERE rank <= ${perTarget}`,
        await tx.$queryRaw<{ targetId: number; leased: number }[]>`
          SELECT "targetId", count(*)::int AS leased FROM webhook_deliveries
          WHERE "targetId" IN (${targetIds}) AND status = 'PENDING' AND "leasedUntil" > ${at}
          GROUP BY "targetId"`,
      ];
      const taken = new Map(inFlight.map((row) => [row.targetId, row.leased]));
      let chosen = 0;
      const ids = candidates.flatMap((row) => {
        const count = taken.get(row.targetId) ?? 0;
        if (count >= perTarget || chosen >= max) return [];
        chosen++;
        taken.set(row.targetId, count + 1);
        return [row.id];
      });
      if (ids.length === 0) return [];
      const leasedUntil = new Date(at.getTime() + leaseMs);
      await tx.webhookDelivery.updateMany({ where: { id: { in: ids } }, data: { leasedUntil, attempts: { increment: 1 } } });
      const claimed = await tx.webhookDelivery.findMany({
        where: { id: { in: ids } },
        select: {
          id: true, targetId: true, eventId: true, payload: true, createdAt: true, attempts: true, leasedUntil: true,
          target: { select: { url: true, secret: true, previousSecret: true, previousSecretExpiresAt: true, schoolId: true, failingSince: true } },
        },
      });
      return claimed as Claimed[];
    });
  }

  async function attempt(delivery: Claimed): Promise<AttemptOutcome & { startedAt: Date }> {
    const startedAt = now();
    const body = JSON.stringify(delivery.payload);
    const headers = signatureHeaders(`evt_${delivery.eventId}`, startedAt, body, signingSecrets(delivery.target, options.serverKey, startedAt));
    const outcome = await postEventObject(delivery.target.url, body, headers, { timeoutMs: attemptTimeoutMs, now });
    return { ...outcome, startedAt };
  }

  type Verdict = 'delivered' | 'retry' | 'failed' | 'gone';
  type Sent = { delivery: Claimed; outcome: AttemptOutcome & { startedAt: Date } };

  function verdictOf({ delivery, outcome }: Sent, at: Date): Verdict {
    if (outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300) return 'delivered';
    if (outcome.statusCode === 410) return 'gone';
    return at.getTime() - delivery.createdAt.getTime() >= retryForMs ? 'failed' : 'retry';
  }

  /**
   * Records the attempts of one claim and what follows from each, in one transaction (one commit for the batch), for
   * the deliveries whose lease is still this claim's. Successes, the common case, are one statement together.
   */
  async function recordBatch(sent: Sent[]): Promise<Verdict[]> {
    const at = now();
    const verdicts = sent.map((one) => verdictOf(one, at));
    await writeTransaction(async (tx) => {
      // A delivery deleted with its target while in flight has nothing left to record.
      const ids = sent.map(({ delivery }) => delivery.id);
      const live = new Set((await tx.webhookDelivery.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((row) => row.id));
      const recorded = sent.flatMap((one, index) => (live.has(one.delivery.id) ? [{ ...one, verdict: verdicts[index]! }] : []));
      await tx.webhookAttempt.createMany({
        data: recorded.map(({ delivery, outcome }) => ({
          deliveryId: delivery.id,
          startedAt: outcome.startedAt,
          latencyMs: outcome.latencyMs,
          statusCode: outcome.statusCode,
          responseBody: outcome.responseBody.replaceAll('\u0000', ''),
          error: outcome.error,
        })),
      });
      const delivered = recorded.filter((one) => one.verdict === 'delivered');
      // One statement per claim the successes came from (a claim leases its deliveries until one time).
      for (const lease of new Set(delivered.map(({ delivery }) => delivery.leasedUntil.getTime()))) {
        const ids = delivered.filter(({ delivery }) => delivery.leasedUntil.getTime() === lease).map(({ delivery }) => delivery.id);
        await tx.webhookDelivery.updateMany({
          where: { id: { in: ids }, leasedUntil: new Date(lease) },
          data: { status: 'SUCCEEDED', deliveredAt: at, lastStatusCode: 200, lastError: null, leasedUntil: null },
        });
      }
      if (delivered.length) {
        // The exact 2xx of each success, where it was not 200.
        for (const { delivery, outcome } of delivered.filter(({ outcome }) => outcome.statusCode !== 200)) {
          await tx.webhookDelivery.update({ where: { id: delivery.id }, data: { lastStatusCode: outcome.statusCode } });
        }
      }
      for (const { delivery, outcome, verdict } of recorded.filter((one) => one.verdict !== 'delivered')) {
        const mine = { id: delivery.id, leasedUntil: delivery.leasedUntil };
        const last = { lastStatusCode: outcome.statusCode, lastError: outcome.error, leasedUntil: null };
        if (verdict === 'failed') {
          await tx.webhookDelivery.updateMany({ where: mine, data: { ...last, status: 'FAILED' } });
        } else if (verdict === 'retry') {
          const wait = Math.max(backoffMs(delivery.attempts, random), Math.min(outcome.retryAfterMs ?? 0, 24 * hour));
          await tx.webhookDelivery.updateMany({ where: mine, data: { ...last, nextAttemptAt: new Date(at.getTime() + wait) } });
        } else {
          await tx.webhookDelivery.updateMany({ where: mine, data: { ...last, status: 'CANCELLED' } });
          await unsubscribeGoneTarget(tx, delivery.targetId, delivery.target.schoolId);
        }
      }
      await trackFailing(tx, recorded, at);
    });
    return verdicts;
  }

  /**
   * A success clears the target's failing streak; a failure starts one, and a streak of `disableAfterMs` disables the
   * target (an event says so) until an administrator resumes it. Its deliveries wait meanwhile.
   */
  async function trackFailing(tx: Prisma.TransactionClient, recorded: (Sent & { verdict: Verdict })[], at: Date) {
    const succeeded = new Set(recorded.filter((one) => one.verdict === 'delivered').map(({ delivery }) => delivery.targetId));
    if (succeeded.size) {
      await tx.triggerTarget.updateMany({ where: { id: { in: [...succeeded] }, failingSince: { not: null } }, data: { failingSince: null } });
    }
    const failing = new Map(recorded.filter(({ delivery }) => !succeeded.has(delivery.targetId)).map(({ delivery }) => [delivery.targetId, delivery.target]));
    for (const [targetId, target] of failing) {
      await tx.triggerTarget.updateMany({ where: { id: targetId, failingSince: null }, data: { failingSince: at } });
      if (!target.failingSince || at.getTime() - target.failingSince.getTime() < disableAfterMs) continue;
      const { count } = await tx.triggerTarget.updateMany({ where: { id: targetId, disabledAt: null }, data: { disabledAt: at } });
      if (count) await recordTargetEvent(tx, 'trigger_target.disable', targetId, target.schoolId);
    }
  }

  async function recordTargetEvent(tx: Prisma.TransactionClient, type: string, objectId: number, schoolId: number) {
    const school = await tx.school.findUniqueOrThrow({ where: { id: schoolId }, select: { districtId: true } });
    await recordEvent(tx, eventKind(type)!, { realm: { type: 'SCHOOL', id: schoolId }, objectId, actorId: null, scope: { districtId: school.districtId, schoolId } });
  }

  /** 410 Gone: the receiver wants nothing more. Its subscriptions end and what was queued for it is cancelled. */
  async function unsubscribeGoneTarget(tx: Prisma.TransactionClient, targetId: number, schoolId: number) {
    const subscriptions = await tx.triggerSubscription.findMany({ where: { targetId }, select: { id: true } });
    await tx.triggerSubscription.deleteMany({ where: { targetId } });
    await tx.webhookDelivery.updateMany({ where: { targetId, status: 'PENDING', leasedUntil: null }, data: { status: 'CANCELLED' } });
    for (const { id } of subscriptions) await recordTargetEvent(tx, 'trigger_subscription.delete', id, schoolId);
  }

  /** Sends what is due now, claim by claim, until nothing is. */
  async function sendDue(): Promise<Record<'delivered' | 'retry' | 'failed' | 'gone', number>> {
    const counts = { delivered: 0, retry: 0, failed: 0, gone: 0 };
    for (let batch = await claim(); batch.length; batch = await claim()) {
      const sent = await Promise.all(batch.map(async (delivery) => ({ delivery, outcome: await attempt(delivery) })));
      for (const verdict of await recordBatch(sent)) counts[verdict]++;
    }
    return counts;
  }

  /** One full round: fan out every committed event, then send everything due. */
  async function runOnce() {
    let events = 0;
    for (let read = await fanOut(); read > 0; read = await fanOut()) events += read;
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
        { idleMs: options.idleMs ?? 250, concurrency: options.concurrency ?? 64, claimBatch, logger: options.logger },
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

/**
 * The gauges read from the database when Prometheus scrapes: whether it answers, the pool, the webhook queue and how
 * far the event log's followers are behind. One round of statements serves every gauge and is kept for
 * `probeCacheMs`, so that several Prometheus servers (or a dashboard's refreshes) do not each cost a round.
 */
import { type Database, openedDatabase } from '../db/database';
import { followerPosition } from '../outbox/bus';
import type { EventCursor } from '../outbox/stream';
import { Gauge } from 'prom-client';
import { type Instruments, whenMetricsEnabled } from './metrics';

export const probeCacheMs = 5_000;

interface Probe {
  up: boolean;
  pool: ReturnType<Database['poolUsage']>;
  webhooks: { queued: number; oldestDueAgeSeconds: number; disabledTargets: number } | null;
  lagSeconds: { subscriptions: number | null; webhooks: number | null };
}

/** `$1` is now in UTC, as timestamps are stored; an ISO text, whose zone a `timestamp` cast ignores. */
const webhookQueue = `SELECT
  (SELECT count(*) FROM webhook_deliveries WHERE status = 'PENDING')::int AS queued,
  (SELECT min(d."nextAttemptAt") FROM webhook_deliveries d JOIN trigger_targets t ON t.id = d."targetId"
    WHERE d.status = 'PENDING' AND d."nextAttemptAt" <= $1::timestamp AND t."pausedAt" IS NULL AND t."disabledAt" IS NULL)
    AS "oldestDue",
  (SELECT count(*) FROM trigger_targets WHERE "disabledAt" IS NOT NULL)::int AS "disabledTargets",
  (SELECT cursor FROM webhook_cursors WHERE name = 'webhooks') AS "webhookCursor"`;

/** The first event after a cursor in stream order: its age is how far a reader at the cursor is behind. */
const firstUnread = `SELECT "createdAt" FROM domain_events WHERE (txid, id) > ($1::xid8, $2::bigint)
  ORDER BY txid, id LIMIT 1`;

const secondsSince = (at: Date | null, now: number) => (at ? Math.max(0, (now - at.getTime()) / 1000) : 0);

async function lagOf(database: Database, cursor: EventCursor, now: number): Promise<number> {
  const [txid, id] = cursor.split(':');
  const [first] = await database.directQuery<{ createdAt: Date }>(firstUnread, [txid, id]);
  return secondsSince(first?.createdAt ?? null, now);
}

async function probe(): Promise<Probe> {
  const now = Date.now();
  let database: Database;
  try {
    database = openedDatabase();
  } catch {
    return { up: false, pool: null, webhooks: null, lagSeconds: { subscriptions: null, webhooks: null } };
  }
  const pool = database.poolUsage();
  try {
    const [queue] = await database.directQuery<{
      queued: number;
      oldestDue: Date | null;
      disabledTargets: number;
      webhookCursor: string | null;
    }>(webhookQueue, [new Date(now).toISOString()]);
    const follower = followerPosition();
    const [subscriptions, webhooks] = await Promise.all([
      follower && follower.database === database ? lagOf(database, follower.cursor, now) : null,
      lagOf(database, queue!.webhookCursor ?? '0:0', now),
    ]);
    return {
      up: true,
      pool,
      webhooks: {
        queued: queue!.queued,
        oldestDueAgeSeconds: secondsSince(queue!.oldestDue, now),
        disabledTargets: queue!.disabledTargets,
      },
      lagSeconds: { subscriptions, webhooks },
    };
  } catch {
    // The database does not answer: `lectern_database_up` says so; the webhook gauges keep their last values and the
    // lag is left out.
    return { up: false, pool, webhooks: null, lagSeconds: { subscriptions: null, webhooks: null } };
  }
}

let cached: { at: number; probe: Promise<Probe> } | null = null;

/** The latest probe, or a new one once it is older than `probeCacheMs`; concurrent scrapes share one. */
function latestProbe(): Promise<Probe> {
  const now = performance.now();
  if (!cached || now - cached.at > probeCacheMs) cached = { at: now, probe: probe() };
  return cached.probe;
}

/** Forgets the cached probe, for tests that change what it reads and scrape again at once. */
export function forgetProbe(): void {
  cached = null;
}

function registerProbeGauges({ registry }: Instruments) {
  const registers = [registry];
  new Gauge({
    name: 'lectern_database_up',
    help: 'Whether the database answered the last scrape-time probe (1) or not (0)',
    registers,
    async collect() {
      this.set((await latestProbe()).up ? 1 : 0);
    },
  });
  new Gauge({
    name: 'lectern_db_pool',
    help: 'The PostgreSQL pool: connections in use and idle, and statements waiting for one; absent on the embedded database, which has no pool',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      const { pool } = await latestProbe();
      this.reset();
      if (!pool) return;
      this.set({ state: 'in_use' }, pool.total - pool.idle);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });
  new Gauge({
    name: 'lectern_webhook_queue_depth',
    help: 'Webhook deliveries waiting to be sent (due or later, all targets)',
    registers,
    async collect() {
      const { webhooks } = await latestProbe();
      if (webhooks) this.set(webhooks.queued);
    },
  });
  new Gauge({
    name: 'lectern_webhook_oldest_due_age_seconds',
    help: 'How long the oldest delivery due to an active (not paused or disabled) target has waited past its time; 0 when none is due',
    registers,
    async collect() {
      const { webhooks } = await latestProbe();
      if (webhooks) this.set(webhooks.oldestDueAgeSeconds);
    },
  });
  new Gauge({
    name: 'lectern_webhook_targets_disabled',
    help: 'Webhook targets disabled now (they failed every attempt for too long; an administrator resumes them)',
    registers,
    async collect() {
      const { webhooks } = await latestProbe();
      if (webhooks) this.set(webhooks.disabledTargets);
    },
  });
  new Gauge({
    name: 'lectern_event_follower_lag_seconds',
    help: "Age of the oldest committed event a follower of the event log has not read yet (0: caught up), by follower: subscriptions (this instance's, while anyone subscribes), webhooks (the shared fan-out)",
    labelNames: ['follower'] as const,
    registers,
    async collect() {
      const { lagSeconds } = await latestProbe();
      this.reset();
      for (const [follower, lag] of Object.entries(lagSeconds)) if (lag !== null) this.set({ follower }, lag);
    },
  });
}

whenMetricsEnabled(registerProbeGauges);

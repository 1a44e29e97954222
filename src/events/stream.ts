import { db } from '../db/database';
import type { Prisma } from '../generated/prisma/client';
import type { DomainEventMessage } from './bus';

/** Where a reader of the event stream stands: opaque to callers, `<txid>:<id>` of the last event read. */
export type EventCursor = string;

/** A committed event, with the data it was recorded with (the items of a bulk write, for webhook entries). */
export type CommittedEvent = DomainEventMessage & { data: unknown };

type EventRow = Omit<CommittedEvent, 'createdAt'> & { txid: string; createdAt: Date };

/**
 * The committed events after `cursor`, in stream order. Only transactions older than the oldest one still running
 * are read: their events are final, so a reader never skips an event that commits later with a smaller id. A reader
 * that records its cursor passes its transaction as `client`, so the cursor moves with what it wrote about the events.
 */
export async function readCommittedEvents(
  cursor: EventCursor | null,
  limit = 100,
  client: Pick<Prisma.TransactionClient, '$queryRaw'> = db(),
): Promise<{ events: CommittedEvent[]; cursor: EventCursor | null }> {
  const [afterTxid, afterId] = cursor ? cursor.split(':') : ['0', '0'];
  const rows = await client.$queryRaw<EventRow[]>`
    SELECT id::text, txid::text, type, "realmType"::text AS "realmType", "realmId", "objectId", "actorId",
           "districtId", "schoolId", "createdAt", data
    FROM domain_events
    WHERE txid < pg_snapshot_xmin(pg_current_snapshot())
      AND (txid, id) > (${afterTxid}::xid8, ${afterId}::bigint)
    ORDER BY domain_events.txid, domain_events.id
    LIMIT ${limit}`;
  const last = rows.at(-1);
  return {
    events: rows.map(({ txid: _txid, createdAt, ...event }) => ({ ...event, createdAt: createdAt.toISOString() })),
    cursor: last ? `${last.txid}:${last.id}` : cursor,
  };
}

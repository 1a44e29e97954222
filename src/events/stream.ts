import { db } from '../db/database';
import { Prisma } from '../generated/prisma/client';
import type { RealmType } from '../generated/prisma/enums';
import type { DomainEventMessage } from './bus';
import { realmKey } from './realm-key';

/** Where a reader of the event stream stands: `<txid>:<id>` of the last event read (each event's `cursor`). */
export type EventCursor = string;

/** A committed event, with the data it was recorded with (the items of a bulk write, for webhook entries). */
export type CommittedEvent = DomainEventMessage & { data: unknown };

type EventRow = Omit<CommittedEvent, 'createdAt' | 'cursor'> & { txid: string; createdAt: Date };

type Reader = Pick<Prisma.TransactionClient, '$queryRaw'>;

const cursorPattern = /^(\d{1,20}):(\d{1,19})$/;

/** The stream position a cursor names, as numbers to compare; null for text that is not a cursor. */
export function positionOf(cursor: EventCursor): [txid: bigint, id: bigint] | null {
  const match = cursorPattern.exec(cursor);
  return match ? [BigInt(match[1]!), BigInt(match[2]!)] : null;
}

/** Whether `cursor` stands later in the stream than `than` (both well-formed). */
export function isAfter(cursor: EventCursor, than: EventCursor): boolean {
  const [txid, id] = positionOf(cursor)!;
  const [otherTxid, otherId] = positionOf(than)!;
  return txid > otherTxid || (txid === otherTxid && id > otherId);
}

/**
 * The committed events after `cursor`, in stream order. Only transactions older than the oldest one still running
 * are read: their events are final, so a reader never skips an event that commits later with a smaller id. A reader
 * that records its cursor passes its transaction as `client`, so the cursor moves with what it wrote about the events.
 * With `realms`, only the events those realms contain (a resuming subscriber's catch-up: the events filed in them or
 * in realms inside them, by `ancestors`); the cursor is then the last one returned.
 */
export async function readCommittedEvents(
  cursor: EventCursor | null,
  limit = 100,
  client: Reader = db(),
  realms?: readonly { type: RealmType; id: number }[],
): Promise<{ events: CommittedEvent[]; cursor: EventCursor | null }> {
  const [afterTxid, afterId] = cursor ? cursor.split(':') : ['0', '0'];
  const ofRealm = realms ? Prisma.sql`AND ancestors && ${realms.map(realmKey)}::text[]` : Prisma.empty;
  const rows = await client.$queryRaw<EventRow[]>`
    SELECT id::text, txid::text, type, "realmType"::text AS "realmType", "realmId", "objectId", "actorId",
           "districtId", "schoolId", ancestors, "createdAt", data
    FROM domain_events
    WHERE txid < pg_snapshot_xmin(pg_current_snapshot())
      AND (txid, id) > (${afterTxid}::xid8, ${afterId}::bigint)
      ${ofRealm}
    ORDER BY domain_events.txid, domain_events.id
    LIMIT ${limit}`;
  const last = rows.at(-1);
  return {
    events: rows.map(({ txid, createdAt, ...event }) => ({ ...event, cursor: `${txid}:${event.id}`, createdAt: createdAt.toISOString() })),
    cursor: last ? `${last.txid}:${last.id}` : cursor,
  };
}

/**
 * The position of the last event a reader can read now: a follower that starts here hears every event committed
 * later, and none twice (every event not yet readable stands after it).
 */
export async function endOfStream(client: Reader = db()): Promise<EventCursor> {
  const [last] = await client.$queryRaw<{ txid: string; id: string }[]>`
    SELECT txid::text, id::text FROM domain_events
    WHERE txid < pg_snapshot_xmin(pg_current_snapshot())
    ORDER BY domain_events.txid DESC, domain_events.id DESC
    LIMIT 1`;
  return last ? `${last.txid}:${last.id}` : '0:0';
}

/** Whether the cursor names an event of the stream (a resume token from this server's log rather than made up). */
export async function isStreamPosition(cursor: EventCursor, client: Reader = db()): Promise<boolean> {
  const [txid, id] = cursor.split(':');
  const rows = await client.$queryRaw<unknown[]>`SELECT 1 FROM domain_events WHERE id = ${id}::bigint AND txid = ${txid}::xid8`;
  return rows.length > 0;
}

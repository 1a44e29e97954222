import { type Database, db, openedDatabase } from '../db/database';
import { perTurnLoader } from '../db/per-turn-loader';
import type { Prisma } from '../generated/prisma/client';
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

/** The columns of an event as readers receive them; `txid` and `createdAt` are turned into its cursor and text. */
const eventColumns = `id::text, txid::text, type, "realmType"::text AS "realmType", "realmId", "objectId", "actorId",
  "districtId", "schoolId", ancestors, "createdAt", data`;
const committedAfter = `txid < pg_snapshot_xmin(pg_current_snapshot()) AND (txid, id) > ($1::xid8, $2::bigint)`;
const inStreamOrder = 'ORDER BY domain_events.txid, domain_events.id LIMIT $3';
const eventsAfter = `SELECT ${eventColumns} FROM domain_events WHERE ${committedAfter} ${inStreamOrder}`;
const eventsOfRealmsAfter = `SELECT ${eventColumns} FROM domain_events
  WHERE ${committedAfter} AND ancestors && $4::text[] ${inStreamOrder}`;

/** A row as an event, in one literal: a rest and a spread copy each property through V8's slow path. */
const eventOf = (row: EventRow): CommittedEvent => ({
  id: row.id,
  type: row.type,
  realmType: row.realmType,
  realmId: row.realmId,
  objectId: row.objectId,
  actorId: row.actorId,
  districtId: row.districtId,
  schoolId: row.schoolId,
  ancestors: row.ancestors,
  data: row.data,
  cursor: `${row.txid}:${row.id}`,
  createdAt: row.createdAt.toISOString(),
});

const eventsById = `SELECT ${eventColumns} FROM domain_events WHERE id = ANY($1::bigint[])`;

/** The events of one turn's loads, in one statement (a page of webhook deliveries names one each). */
const eventsByIdLoader = perTurnLoader<bigint, CommittedEvent | null>(async (ids) => {
  const rows = await openedDatabase().directQuery<EventRow>(eventsById, [[...new Set(ids)].map(String)]);
  const byId = new Map(rows.map((row) => [row.id, eventOf(row)]));
  return ids.map((id) => byId.get(String(id)) ?? null);
});

/** One recorded event by id, as readers receive it; null once it is no longer kept. */
export const readEventById = (id: bigint): Promise<CommittedEvent | null> => eventsByIdLoader.load(id);

/**
 * The committed events after `cursor`, in stream order. Only transactions older than the oldest one still running
 * are read: their events are final, so a reader never skips an event that commits later with a smaller id. With
 * `realms`, only the events those realms contain (a resuming subscriber's catch-up: the events filed in them or in
 * realms inside them, by `ancestors`); the cursor is then the last one returned. Read directly (`directQuery`): the
 * log's followers read every event, where Prisma's raw path costs twice the CPU per row (docs/performance.md,
 * "Mechanisms"); `database` is the one a follower started on.
 */
export async function readCommittedEvents(
  cursor: EventCursor | null,
  limit = 100,
  realms?: readonly { type: RealmType; id: number }[],
  database: Pick<Database, 'directQuery'> = openedDatabase(),
): Promise<{ events: CommittedEvent[]; cursor: EventCursor | null }> {
  const [afterTxid, afterId] = cursor ? cursor.split(':') : ['0', '0'];
  const rows = realms
    ? await database.directQuery<EventRow>(eventsOfRealmsAfter, [afterTxid, afterId, limit, realms.map(realmKey)])
    : await database.directQuery<EventRow>(eventsAfter, [afterTxid, afterId, limit]);
  const last = rows.at(-1);
  return { events: rows.map(eventOf), cursor: last ? `${last.txid}:${last.id}` : cursor };
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
  const rows = await client.$queryRaw<
    unknown[]
  >`SELECT 1 FROM domain_events WHERE id = ${id}::bigint AND txid = ${txid}::xid8`;
  return rows.length > 0;
}

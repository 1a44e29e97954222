/**
 * Fan-out: follows the committed domain events (readCommittedEvents) from the cursor stored in `webhook_cursors` and
 * turns each event that fires a trigger into one delivery row per subscribed target of the event's school, committing
 * the rows and the moved cursor in one transaction. What a delivery shows of the objects is what the target's owner
 * may see (payload.ts).
 */
import { Viewer, type ViewerUser, toViewerUser, viewerUserSelection } from '../auth/viewer';
import { db } from '../db/database';
import type { Prisma } from '../generated/prisma/client';
import { type CommittedEvent, readCommittedEvents } from '../outbox/stream';
import { triggerOf } from './triggers';
import { type EventObject, type RenderedEntry, entriesOf, eventObject, renderEntry } from './payload';

const cursorName = 'webhooks';

/** A delivery to queue: one event object for one target, queued (and due) at `at`. */
interface Queued {
  targetId: number;
  eventId: string;
  type: string;
  payload: EventObject;
  at: string;
}
const fanOutBatch = 500;

export interface FanOutResult {
  /** Events read, and deliveries queued for them. */
  read: number;
  queued: number;
  /** Whether a whole batch was read, so more events may be waiting. */
  more: boolean;
}

const nothingRead: FanOutResult = { read: 0, queued: 0, more: false };

/**
 * The users who own the targets, as the viewers their deliveries' objects are rendered for (a user since deleted is
 * not among them: their targets' deliveries carry no objects). A delivery stands for no API credential of theirs.
 */
async function ownersOf(userIds: number[]): Promise<Map<number, ViewerUser>> {
  if (userIds.length === 0) return new Map();
  const users = await db().user.findMany({ where: { id: { in: [...new Set(userIds)] } }, select: viewerUserSelection });
  return new Map(users.map((user) => [user.id, toViewerUser(user)]));
}

export function createFanOut(options: { now: () => Date; linkBase: string }) {
  const { now } = options;

  /** The deliveries a batch of events makes: one per event and subscribed target of the event's school. */
  async function deliveriesFor(events: CommittedEvent[]): Promise<Queued[]> {
    const fired = events.flatMap((event) => {
      const trigger = triggerOf(event.type);
      return trigger && event.schoolId !== null ? [{ event, ...trigger }] : [];
    });
    if (fired.length === 0) return [];
    const subscriptions = await db().triggerSubscription.findMany({
      where: {
        trigger: { in: [...new Set(fired.map((one) => one.trigger))] },
        target: { schoolId: { in: [...new Set(fired.map((one) => one.event.schoolId!))] } },
      },
      select: {
        targetId: true,
        trigger: true,
        includeObject: true,
        createdAt: true,
        target: { select: { schoolId: true, ownerId: true } },
      },
    });
    // Read once a batch, and only when some delivery shows what its owner sees.
    let owners: Promise<Map<number, ViewerUser>> | undefined;
    const ownerOf = async (ownerId: number) =>
      (await (owners ??= ownersOf(subscriptions.flatMap(({ target }) => target.ownerId ?? [])))).get(ownerId);
    const deliveries: Queued[] = [];
    for (const { event, trigger, operation } of fired) {
      // A subscription hears what happens after it was made, however late the fan-out runs.
      const heard = subscriptions.filter(
        (s) =>
          s.trigger === trigger &&
          s.target.schoolId === event.schoolId &&
          s.createdAt.getTime() <= Date.parse(event.createdAt),
      );
      const type = `${trigger}.${operation}`;
      const entries = heard.length ? entriesOf(event) : [];
      // Entries that draw members from their view are rendered for every subscription, objects for those that ask.
      const rendersMembers = entries.some((entry) => entry.members);
      const renderedFor = new Map<number | null, RenderedEntry[]>();
      for (const subscription of heard) {
        const ownerId = subscription.target.ownerId;
        let rendered: RenderedEntry[] | undefined;
        if (subscription.includeObject || rendersMembers) {
          rendered = renderedFor.get(ownerId);
          if (!rendered) {
            const owner = ownerId === null ? undefined : await ownerOf(ownerId);
            // A fresh viewer per event: what it may see is read as the event finds it, not memoised across the batch.
            const viewer = owner && new Viewer(owner, { kind: 'bearer', tokenId: 0 });
            rendered = [];
            for (const entry of entries)
              rendered.push(
                viewer ? await renderEntry(entry, event, viewer, options.linkBase) : { object: null, members: {} },
              );
            renderedFor.set(ownerId, rendered);
          }
        }
        const payload = eventObject(
          event,
          type,
          entries.map(({ ids }, at) => ({
            ids,
            members: rendered?.[at]?.members,
            object: subscription.includeObject ? rendered![at]!.object : null,
          })),
        );
        deliveries.push({ targetId: subscription.targetId, eventId: event.id, type, payload, at: now().toISOString() });
      }
    }
    return deliveries;
  }

  // The stored cursor as this worker last left it; read again when another instance turns out to have moved it.
  let known: { cursor: string | null } | null = null;

  /**
   * Fans out the next batch of events: how many it read and queued deliveries for (0 when caught up or when another
   * instance moved the cursor meanwhile), and whether a full batch was read, so more may be waiting. Objects are
   * rendered before the transaction (the embedded database has one connection, which the transaction holds); the
   * transaction then moves the cursor, only if it has not moved, and commits the deliveries with it.
   */
  async function fanOut(): Promise<FanOutResult> {
    if (!known) {
      await db()
        .$executeRaw`INSERT INTO webhook_cursors (name, "updatedAt") VALUES (${cursorName}, now()) ON CONFLICT DO NOTHING`;
      known = { cursor: (await db().webhookCursor.findUniqueOrThrow({ where: { name: cursorName } })).cursor };
    }
    const from = known.cursor;
    const { events, cursor } = await readCommittedEvents(from, fanOutBatch);
    if (events.length === 0) return nothingRead;
    const deliveries = await deliveriesFor(events);
    // Moving the cursor first locks its row: a concurrent fan-out from the same position waits, then finds it moved.
    const moveCursor = (client: Pick<Prisma.TransactionClient, '$executeRaw'>) => client.$executeRaw`
      UPDATE webhook_cursors SET cursor = ${cursor}, "updatedAt" = now() WHERE name = ${cursorName} AND cursor IS NOT DISTINCT FROM ${from}`;
    const moved =
      deliveries.length === 0
        ? await moveCursor(db())
        : await db().$transaction(async (tx) => {
            if (!(await moveCursor(tx))) return 0;
            // One parameter for the whole batch: thousands of rows cost one JSON text, not a parameter per column and row.
            return tx.$executeRaw`
            INSERT INTO webhook_deliveries ("targetId", "eventId", type, payload, "nextAttemptAt", "createdAt")
            SELECT r."targetId", r."eventId", r.type, r.payload, r.at, r.at
            FROM jsonb_to_recordset(${JSON.stringify(deliveries)}::jsonb)
              AS r("targetId" int, "eventId" bigint, type text, payload jsonb, at timestamp(3))
            ON CONFLICT ("targetId", "eventId") DO NOTHING`.then(() => 1);
          });
    known = moved ? { cursor } : null;
    return moved
      ? { read: events.length, queued: deliveries.length, more: events.length === fanOutBatch }
      : nothingRead;
  }

  async function caughtUp(): Promise<boolean> {
    const cursor = (await db().webhookCursor.findUnique({ where: { name: cursorName } }))?.cursor ?? '0:0';
    const [txid, id] = cursor.split(':');
    const [{ unread }] = await db().$queryRaw<{ unread: number }[]>`
      SELECT count(*)::int AS unread FROM domain_events WHERE (txid, id) > (${txid}::xid8, ${id}::bigint)`;
    return unread === 0;
  }

  return { fanOut, caughtUp };
}

import { realmVerdict } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';
import { db } from '../../db/database';
import type { DomainEventMessage } from '../../events/bus';
import { eventKind } from '../../events/catalogue';
import type { RealmType } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';

/**
 * The objects an event's payload may carry, by GraphQL type (the catalogue's `object`), each a Prisma model of the
 * same name. Objects that are realms themselves are shown only to who may read that realm; the others are contents
 * of the realm the event is filed in, which the subscriber was allowed to read before the event reached them.
 * Credentials (API clients, access tokens, calendar feeds) and trigger settings are left out: their events carry no
 * object.
 */
const eventObjects: Record<string, { realm?: RealmType }> = {
  District: { realm: 'DISTRICT' },
  School: { realm: 'SCHOOL' },
  User: { realm: 'USER' },
  Section: { realm: 'SECTION' },
  Group: { realm: 'GROUP' },
  GroupCategory: {},
  GroupMembership: {},
  Enrollment: {},
  Invite: {},
  FriendRequest: {},
  BlogPost: {},
  Page: {},
  CalendarEvent: {},
  Album: {},
  AlbumContent: {},
  AlbumComment: {},
  WebPackage: {},
  GradingCategory: {},
  GradingGroup: {},
  GradingPeriod: {},
  GradingScale: {},
  Assignment: {},
};

/** The GraphQL type of each loaded row, for the union's resolveType. */
const typeOfRow = new WeakMap<object, string>();

type Row = { id: number };
type Pending = Map<number, ((row: Row | null) => void)[]>;

/** Rows asked for during one turn of the event loop, by type: loaded together, one statement per type. */
let pending: Map<string, Pending> | null = null;

async function loadBatch(batch: Map<string, Pending>) {
  for (const [type, waiting] of batch) {
    const model = type.charAt(0).toLowerCase() + type.slice(1);
    // Every type above is a Prisma model of its name; the delegate is picked by that name.
    // A failed read (the database away) answers null, as for a deleted object, rather than leave subscribers waiting.
    const rows = await Promise.resolve()
      .then(() => (db() as unknown as Record<string, { findMany(args: object): Promise<Row[]> }>)[model]!.findMany({ where: { id: { in: [...waiting.keys()] } } }))
      .catch((): Row[] => []);
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const [id, resolvers] of waiting) {
      const row = byId.get(id) ?? null;
      if (row) typeOfRow.set(row, type);
      for (const resolve of resolvers) resolve(row);
    }
  }
}

function loadRow(type: string, id: number): Promise<Row | null> {
  if (!pending) {
    const batch = (pending = new Map());
    setImmediate(() => {
      pending = null;
      void loadBatch(batch);
    });
  }
  let waiting = pending.get(type);
  if (!waiting) pending.set(type, (waiting = new Map()));
  return new Promise((resolve) => {
    const resolvers = waiting.get(id) ?? [];
    resolvers.push(resolve);
    waiting.set(id, resolvers);
  });
}

/** The event's object as stored now (null once deleted), read once per event however many subscribers ask. */
const rowOfEvent = new WeakMap<DomainEventMessage, Promise<Row | null>>();

function objectRow(event: DomainEventMessage): Promise<Row | null> | null {
  const type = eventKind(event.type)?.object;
  if (!type || !Object.hasOwn(eventObjects, type)) return null;
  let row = rowOfEvent.get(event);
  if (!row) rowOfEvent.set(event, (row = loadRow(type, event.objectId)));
  return row;
}

/**
 * Starts loading the objects of events about to be sent (a page of catch-up): asked for in the same turn, they are
 * read with one statement per type rather than one per event.
 */
export function preloadObjects(events: readonly DomainEventMessage[]): void {
  for (const event of events) void objectRow(event);
}

/** The event's object as the viewer may see it: null when it no longer exists or the viewer may not read it. */
export async function eventObject(viewer: Viewer, event: DomainEventMessage): Promise<object | null> {
  const row = await objectRow(event);
  if (!row) return null;
  const realm = eventObjects[typeOfRow.get(row)!]!.realm;
  if (realm && (await realmVerdict(viewer, { type: realm, id: row.id }, 'read')) !== 'allow') return null;
  return row;
}

export const EventObjectType = builder.unionType('EventObject', {
  description: 'The object an event is about, as the subscriber may see it.',
  types: Object.keys(eventObjects) as never,
  resolveType: (row: object) => typeOfRow.get(row)!,
});

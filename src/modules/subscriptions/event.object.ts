import DataLoader from 'dataloader';
import { realmVerdict } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';
import type { DomainEventMessage } from '../../outbox/bus';
import { eventKind } from '../../outbox/catalogue';
import type { RealmType } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';
import { delegateOf } from '../../graphql/nodes';
import type { Prisma } from '../../generated/prisma/client';

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

/**
 * One loader per type: rows asked for during one turn of the event loop (a page of catch-up, or one event for all its
 * subscribers) are read with one statement per type. Nothing is cached: each event reads its object as it is now.
 */
const loaders = new Map<string, DataLoader<number, Row | null>>();

function loaderOf(type: string) {
  let loader = loaders.get(type);
  if (loader) return loader;
  loader = new DataLoader<number, Row | null>(
    async (ids) => {
      // Every type above is a Prisma model of its name. A failed read (the database away) answers null, as for a
      // deleted object, rather than leave subscribers waiting.
      let rows: Row[] = [];
      try {
        rows = await delegateOf(type as Prisma.ModelName).findMany({ where: { id: { in: [...new Set(ids)] } } });
      } catch {
        // rows stay empty: every object of the batch answers null
      }
      const byId = new Map(rows.map((row) => [row.id, row]));
      for (const row of rows) typeOfRow.set(row, type);
      return ids.map((id) => byId.get(id) ?? null);
    },
    { cache: false, batchScheduleFn: (run) => setImmediate(run) },
  );
  loaders.set(type, loader);
  return loader;
}

/** The event's object as stored now (null once deleted), read once per event however many subscribers ask. */
const rowOfEvent = new WeakMap<DomainEventMessage, Promise<Row | null>>();

function objectRow(event: DomainEventMessage): Promise<Row | null> | null {
  const type = eventKind(event.type)?.object;
  if (!type || !Object.hasOwn(eventObjects, type)) return null;
  let row = rowOfEvent.get(event);
  if (!row) rowOfEvent.set(event, (row = loaderOf(type).load(event.objectId)));
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

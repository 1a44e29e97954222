/**
 * Event objects, in the real platform's shape: `{uid, timestamp, type: "<trigger>.<operation>", data: [{realm,
 * <realm>_id, realm_id, object?}]}`, where `object` is what a GET of the resource on /v1 answers its target's owner
 * (included when the subscription asks for it).
 */
import { execute } from 'graphql';
import type { Viewer } from '../auth/viewer';
import type { RealmType } from '../generated/prisma/enums';
import { schema } from '../graphql/schema';
import { MissingObjectError } from '../rest/route';
import { createRouter, realmPath } from '../rest/router';
import { restRoutes } from '../rest/routes';
import type { DomainEventMessage } from '../outbox/bus';
import { type EventEntry, eventKind } from '../outbox/catalogue';
import type { CommittedEvent } from '../outbox/stream';

export interface EventObject {
  uid: number;
  timestamp: number;
  type: string;
  data: Record<string, unknown>[];
}

/** The /v1 path that views an event's object, for objects that have one. */
const objectPaths: Record<string, (event: DomainEventMessage) => string> = {
  Group: (event) => `/groups/${event.objectId}`,
  BlogPost: (event) => `${realmPath(event.realmType, event.realmId)}/posts/${event.objectId}`,
  School: (event) => `/schools/${event.objectId}`,
  User: (event) => `/users/${event.objectId}`,
  CalendarEvent: (event) => `${realmPath(event.realmType, event.realmId)}/events/${event.objectId}`,
  Page: (event) => `${realmPath(event.realmType, event.realmId)}/pages/${event.objectId}`,
  Album: (event) => `${realmPath(event.realmType, event.realmId)}/albums/${event.objectId}`,
  WebPackage: (event) => `${realmPath(event.realmType, event.realmId)}/web_packages/${event.objectId}`,
};

const match = createRouter(restRoutes);

/**
 * The items an event reports: those its kind reads from its data (a bulk write), or else its one object, with the
 * /v1 path that views it (none for objects without a /v1 view).
 */
export function entriesOf(event: CommittedEvent): EventEntry[] {
  const kind = eventKind(event.type)!;
  if (kind.entries) return kind.entries(kind.data.parse(event.data), event);
  return [{ ids: {}, view: objectPaths[kind.object]?.(event) }];
}

/** The context an event's objects are read in: the viewer's, with no server key (nothing signs or seals here). */
const contextOf = (event: Pick<DomainEventMessage, 'id'>, viewer: Viewer) => ({
  viewer,
  requestId: `webhook-${event.id}`,
  serverKey: Buffer.alloc(0),
});

/**
 * The answer at a /v1 path as `viewer` sees it (JSON), rendered by the route table itself; null when it no longer
 * exists (a delete), there is no view, or the viewer may not read it (the route's own 403 or 404).
 */
export async function restViewAt(
  path: string | null,
  event: Pick<DomainEventMessage, 'id'>,
  viewer: Viewer,
  linkBase: string,
) {
  const found = path ? match('GET', path.split('?')[0]!) : null;
  if (found?.kind !== 'route') return null;
  const query = new URLSearchParams(path!.split('?')[1] ?? '');
  const filters = found.route.filters?.decode(Object.fromEntries(query)) ?? {};
  const request = {
    path: path!.split('?')[0]!,
    params: found.params,
    realm: found.realm,
    query,
    filters,
    input: {},
    page: { start: 0, limit: 200 },
  };
  const result = await execute({
    schema,
    document: found.route.document,
    contextValue: contextOf(event, viewer),
    variableValues: found.route.variables(request),
  });
  if (result.errors?.length) return null;
  try {
    return (
      found.route.respond(Object.values(result.data ?? {})[0] ?? null, request, (link) => `${linkBase}/v1${link}`)
        .body ?? null
    );
  } catch (error) {
    if (error instanceof MissingObjectError) return null;
    throw error;
  }
}

/** What one entry shows a viewer: the item's object (null when they may not see it) and the members drawn from its view. */
export interface RenderedEntry {
  object: object | null;
  members: Record<string, unknown>;
}

/**
 * An entry as `viewer` (a target's owner) sees it, through the same policies as their own requests: its view as
 * they would get it, and what the entry draws from that. What they may not see is left out.
 */
export async function renderEntry(
  entry: EventEntry,
  event: Pick<DomainEventMessage, 'id'>,
  viewer: Viewer,
  linkBase: string,
): Promise<RenderedEntry> {
  if (entry.read) {
    const result = await execute({
      schema,
      document: entry.read.document,
      contextValue: contextOf(event, viewer),
      variableValues: entry.read.variables,
    });
    return { object: result.errors?.length || !result.data ? null : entry.read.object(result.data), members: {} };
  }
  const answer = await restViewAt(entry.view ?? null, event, viewer, linkBase);
  if (answer === null) return { object: null, members: {} };
  return { object: entry.pick ? entry.pick(answer) : answer, members: entry.members?.(answer) ?? {} };
}

const realmNames: Record<RealmType, string> = {
  DISTRICT: 'district',
  SCHOOL: 'school',
  USER: 'user',
  SECTION: 'section',
  GROUP: 'group',
};

/**
 * The event object of an event (or of a sample, which has only these members of one): an entry per item it reports,
 * each with its ids, the members drawn from its view and, when given, its object.
 */
export function eventObject(
  event: Pick<DomainEventMessage, 'actorId' | 'createdAt' | 'realmType' | 'realmId'>,
  type: string,
  entries: { ids: EventEntry['ids']; members?: Record<string, unknown>; object: object | null }[],
): EventObject {
  const realm = realmNames[event.realmType];
  return {
    uid: event.actorId ?? 0,
    timestamp: Math.floor(Date.parse(event.createdAt) / 1000),
    type,
    data: entries.map(({ ids, members, object }) => ({
      realm,
      [`${realm}_id`]: event.realmId,
      realm_id: event.realmId,
      ...ids,
      ...members,
      ...(object ? { object } : {}),
    })),
  };
}

/**
 * Event objects, in the real platform's shape: `{uid, timestamp, type: "<trigger>.<operation>", data: [{realm,
 * <realm>_id, realm_id, object?}]}`, where `object` is what a GET of the resource on /v1 answers (included when the
 * subscription asks for it).
 */
import { execute } from 'graphql';
import { Viewer } from '../../auth/viewer';
import type { RealmType } from '../../generated/prisma/enums';
import { schema } from '../../graphql/schema';
import { MissingObjectError } from '../../rest/route';
import { createRouter, realmPath } from '../../rest/router';
import { restRoutes } from '../../rest/routes';
import type { DomainEventMessage } from '../bus';
import { type EventEntry, eventKind } from '../catalogue';
import type { CommittedEvent } from '../stream';

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
 * /v1 path that views it (null for objects without a /v1 view).
 */
export function entriesOf(event: CommittedEvent): (Omit<EventEntry, 'view'> & { view: string | null })[] {
  const kind = eventKind(event.type)!;
  if (kind.entries) return kind.entries(kind.data.parse(event.data), event);
  return [{ ids: {}, view: objectPaths[kind.object]?.(event) ?? null }];
}

/**
 * The object at a /v1 path as the school's administrators see it (JSON), rendered by the route table itself; null
 * when it no longer exists (a delete) or there is no view. The view runs as a stand-in administrator of the target's
 * school, who belongs to no group or section: what a school administrator sees, nothing more.
 */
export async function restViewAt(path: string | null, event: DomainEventMessage, school: { districtId: number; schoolId: number }, linkBase: string) {
  const found = path ? match('GET', path.split('?')[0]!) : null;
  if (!found || found.kind !== 'route') return null;
  const viewer = new Viewer({ id: 0, role: 'SCHOOL_ADMIN', ...school, buildingId: null, triggerAdmin: false }, { kind: 'bearer', tokenId: 0 });
  const query = new URLSearchParams(path!.split('?')[1] ?? '');
  const filters = found.route.filters?.decode(Object.fromEntries(query)) ?? {};
  const request = { path: path!.split('?')[0]!, params: found.params, realm: found.realm, query, filters, input: {}, page: { start: 0, limit: 200 } };
  const result = await execute({
    schema,
    document: found.route.document,
    contextValue: { viewer, requestId: `webhook-${event.id}`, serverKey: Buffer.alloc(0) },
    variableValues: found.route.variables(request),
  });
  if (result.errors?.length) return null;
  try {
    return found.route.respond(Object.values(result.data ?? {})[0] ?? null, request, (link) => `${linkBase}/v1${link}`).body ?? null;
  } catch (error) {
    if (error instanceof MissingObjectError) return null;
    throw error;
  }
}

const realmNames: Record<RealmType, string> = { DISTRICT: 'district', SCHOOL: 'school', USER: 'user', SECTION: 'section', GROUP: 'group' };

/**
 * The event object of an event (or of a sample, which has only these members of one): an entry per item it reports,
 * each with its ids and, when given, its object.
 */
export function eventObject(
  event: Pick<DomainEventMessage, 'actorId' | 'createdAt' | 'realmType' | 'realmId'>,
  type: string,
  entries: { ids: EventEntry['ids']; object: object | null }[],
): EventObject {
  const realm = realmNames[event.realmType];
  return {
    uid: event.actorId ?? 0,
    timestamp: Math.floor(Date.parse(event.createdAt) / 1000),
    type,
    data: entries.map(({ ids, object }) => ({ realm, [`${realm}_id`]: event.realmId, realm_id: event.realmId, ...ids, ...(object ? { object } : {}) })),
  };
}

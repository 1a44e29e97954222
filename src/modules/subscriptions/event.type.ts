import type { DomainEventMessage } from '../../outbox/bus';
import { eventCatalogue, eventKind } from '../../outbox/catalogue';
import { encodeGlobalId } from '../../core/global-id';
import { builder } from '../../graphql/builder';
import { RealmTypeEnum } from '../../graphql/realm';
import { RealmUnion, loadRealm, userReference } from '../../graphql/references';
import { UserType } from '../users/user.type';
import { EventObjectType, eventObject } from './event.object';

/** The text a `...Id` field adds to its description: which id it holds, and where the object's global id is. */
const databaseIdOf = (object: string) =>
  `A database id, as /v1 has it; \`${object}\` is the object, with its global id.`;

export const DomainEventType = builder.objectRef<DomainEventMessage>('DomainEvent').implement({
  description: 'Something that changed: a create, update or delete recorded with the change itself.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Position in the event stream; later events have larger ids.' }),
    cursor: t.exposeString('cursor', {
      description:
        'Position in the committed-event log: resume after this event with `realmEvents(after:)`, or over ' +
        'server-sent events with `Last-Event-ID` (it is also the `id:` line of the event).',
    }),
    typeName: t.exposeString('type', {
      description:
        'What happened, as the event catalogue and webhooks name it: `<resource>.<action>` (`group.update`).',
    }),
    realmType: t.expose('realmType', { type: RealmTypeEnum, description: 'Kind of realm the change happened in.' }),
    realmId: t.exposeID('realmId', { description: `Id of that realm. ${databaseIdOf('realm')}` }),
    realm: t.field({
      type: RealmUnion,
      nullable: true,
      description:
        'The realm the change happened in (`realmType` and `realmId`); null once it was deleted, or for a user the ' +
        'viewer may not see (as `user(id)` hides them).',
      resolve: (event, _args, context) => loadRealm(context, { type: event.realmType, id: event.realmId }),
    }),
    objectId: t.exposeID('objectId', {
      description: `Id of the object that changed. A database id, as /v1 has it; \`objectGlobalId\` is its global id.`,
    }),
    objectGlobalId: t.id({
      description:
        'Global id of the object that changed, as its `id` answers it, also once it was deleted (a client evicts the ' +
        'object from its cache by it). The object of every event is a Node.',
      resolve: (event) => encodeGlobalId(eventKind(event.type)!.object, event.objectId),
    }),
    actorId: t.exposeID('actorId', {
      nullable: true,
      description: `User who made the change; null for the system. ${databaseIdOf('actor')}`,
    }),
    actor: t.field({
      type: UserType,
      nullable: true,
      description:
        'The user who made the change (`actorId`); null for the system, and when they are gone or hidden from the ' +
        'viewer (as `user(id)` hides them).',
      resolve: (event, _args, context) => userReference(event.actorId, context),
    }),
    object: t.field({
      type: EventObjectType,
      nullable: true,
      description:
        'The object that changed, as it is now and as the subscriber may see it: null once it was deleted, when the ' +
        'subscriber may not read it, or for events about credentials and trigger settings.',
      // The union's member types are named, not typed, here: a row of any of them.
      resolve: (event, _args, { viewer }) => (viewer ? eventObject(viewer, event) : null) as never,
    }),
    createdAt: t.field({
      type: 'DateTime',
      description: 'When the change happened.',
      resolve: (event) => new Date(event.createdAt),
    }),
  }),
});

/** The enum value of an event type: `GROUP_UPDATE` for `group.update`, as GraphQL enum values hold no dots. */
export const eventTypeValue = (type: string) => type.replace('.', '_').toUpperCase();

/**
 * `DomainEvent.type`, an enum of the event catalogue. Each module declares its events as it loads, so the schema calls
 * this once every module is loaded: the enum then lists exactly the events that can happen.
 */
export function addEventTypes(): void {
  const values = new Map<string, { value: string; description: string }>();
  for (const kind of eventCatalogue()) {
    const name = eventTypeValue(kind.type);
    if (values.has(name)) throw new Error(`Events ${values.get(name)!.value} and ${kind.type} are both ${name}`);
    values.set(name, { value: kind.type, description: `\`${kind.type}\`: ${kind.description}` });
  }
  const EventTypeEnum = builder.enumType('DomainEventType', {
    description: 'The kinds of domain event, one per entry of the event catalogue (`typeName` is the dotted name).',
    values: Object.fromEntries(values),
  });
  builder.objectField(DomainEventType, 'type', (t) =>
    t.field({
      type: EventTypeEnum,
      description: 'What happened: `GROUP_UPDATE` for `group.update` (`typeName`).',
      resolve: (event) => event.type,
    }),
  );
}

import type { DomainEventMessage } from '../../outbox/bus';
import { builder } from '../../graphql/builder';
import { RealmTypeEnum } from '../../graphql/realm';
import { EventObjectType, eventObject } from './event.object';

export const DomainEventType = builder.objectRef<DomainEventMessage>('DomainEvent').implement({
  description: 'Something that changed: a create, update or delete recorded with the change itself.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Position in the event stream; later events have larger ids.' }),
    cursor: t.exposeString('cursor', {
      description:
        'Position in the committed-event log: resume after this event with `realmEvents(after:)`, or over ' +
        'server-sent events with `Last-Event-ID` (it is also the `id:` line of the event).',
    }),
    type: t.exposeString('type', {
      description: 'What happened, as `<resource>.<action>` (for example `group.update`).',
    }),
    realmType: t.expose('realmType', { type: RealmTypeEnum, description: 'Kind of realm the change happened in.' }),
    realmId: t.exposeID('realmId', { description: 'Id of that realm.' }),
    objectId: t.exposeID('objectId', { description: 'Id of the object that changed.' }),
    actorId: t.exposeID('actorId', { nullable: true, description: 'User who made the change; null for the system.' }),
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

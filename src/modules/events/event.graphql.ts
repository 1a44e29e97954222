import { canReadContents } from '../../auth/permissions';
import { type DomainEventMessage, subscribeToRealm } from '../../events/bus';
import { builder } from '../../graphql/builder';
import { httpError } from '../../core/errors';
import { RealmInput, RealmTypeEnum, realmRef } from '../../graphql/realm';

const DomainEventType = builder.objectRef<DomainEventMessage>('DomainEvent').implement({
  description: 'Something that changed: a create, update or delete recorded with the change itself.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Position in the event stream; later events have larger ids.' }),
    type: t.exposeString('type', { description: 'What happened, as `<resource>.<action>` (for example `group.update`).' }),
    realmType: t.expose('realmType', { type: RealmTypeEnum, description: 'Kind of realm the change happened in.' }),
    realmId: t.exposeID('realmId', { description: 'Id of that realm.' }),
    objectId: t.exposeID('objectId', { description: 'Id of the object that changed.' }),
    actorId: t.exposeID('actorId', { nullable: true, description: 'User who made the change; null for the system.' }),
    createdAt: t.string({ description: 'When the change happened (ISO 8601).', resolve: (event) => event.createdAt }),
  }),
});

builder.subscriptionType({ description: 'Live events, over graphql-ws (same path) or server-sent events.' });

builder.subscriptionField('realmEvents', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: DomainEventType,
    description: 'Changes in a realm the viewer may read, as they are committed.',
    args: { realm: t.arg({ type: RealmInput, required: true, description: 'The realm to follow.' }) },
    subscribe: async (_root, args, { viewer }) => {
      const realm = realmRef(args.realm);
      if (!(await canReadContents(viewer, realm))) throw httpError(404, 'NOT_FOUND', 'No such realm');
      return subscribeToRealm(realm);
    },
    resolve: (event) => event,
  }),
);

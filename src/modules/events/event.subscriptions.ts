import { verdictOf } from '../../auth/policy';
import { httpError } from '../../core/errors';
import { builder } from '../../graphql/builder';
import { RealmInput, realmRef } from '../../graphql/realm';
import { eventPolicy } from './event.policy';
import { type Delivery, followRealm } from './event.stream';
import { DomainEventType } from './event.type';

builder.subscriptionField('realmEvents', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: DomainEventType,
    description: 'Changes in a realm the viewer may read, as they are committed.',
    args: { realm: t.arg({ type: RealmInput, required: true, description: 'The realm to follow.' }) },
    subscribe: async (_root, args, { viewer }) => {
      const realm = realmRef(args.realm);
      const verdict = await verdictOf(viewer, eventPolicy, 'subscribe', realm);
      if (verdict === 'hide') throw httpError(404, 'NOT_FOUND', 'No such realm');
      if (verdict !== 'allow') throw httpError(403, 'FORBIDDEN', verdict.forbid);
      return followRealm(viewer, realm);
    },
    resolve: (delivery: Delivery) => {
      if ('end' in delivery) throw delivery.end;
      return delivery.event;
    },
  }),
);

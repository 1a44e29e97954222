import { verdictOf } from '../../auth/policy';
import { httpError, invalidArgument } from '../../core/errors';
import { isStreamPosition, positionOf } from '../../outbox/stream';
import { type Context, builder } from '../../graphql/builder';
import { RealmInput, realmRef } from '../../graphql/realm';
import { eventPolicy } from './event.policy';
import { markDelivered } from './event.sse';
import { type Delivery, followRealm } from './event.stream';
import { DomainEventType } from './event.type';

/** The resume token, checked: it must name an event of this server's log (events are kept, so any one does). */
async function resumePosition(token: string | null | undefined, source: string): Promise<string | null> {
  if (token === null || token === undefined || token === '') return null;
  if (!positionOf(token))
    throw invalidArgument(source, 'must be the cursor of an event this subscription delivered, as `<txid>:<id>`');
  if (!(await isStreamPosition(token))) throw invalidArgument(source, "names no event of this server's event log");
  return token;
}

/**
 * Sends one event: the rest of the result (its object and the object's fields) is resolved as the subscriber is now,
 * not as they were when they subscribed.
 */
function deliver(delivery: Delivery, _args: unknown, context: Context) {
  if ('end' in delivery) throw delivery.end;
  context.viewer = delivery.viewer;
  markDelivered(context, delivery.event.cursor);
  return delivery.event;
}

builder.subscriptionField('realmEvents', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: DomainEventType,
    description:
      'Changes in a realm the viewer may read and in every realm inside it (a school hears of its groups, sections, ' +
      'buildings and users; a district of its schools and all they hold), as they are committed: each event the ' +
      'viewer may read, with its object. With `after` (or, over server-sent events, the ' +
      '`Last-Event-ID` header), first every event of the realm after that cursor, then live ones: a client that ' +
      'reconnects with the cursor of the last event it received misses none and receives none twice.',
    args: {
      realm: t.arg({ type: RealmInput, required: true, description: 'The realm to follow.' }),
      after: t.arg.string({
        required: false,
        description: 'Resume after this event: the `cursor` of the last event received. Overrides `Last-Event-ID`.',
      }),
    },
    subscribe: async (_root, args, { viewer, lastEventId }) => {
      const realm = realmRef(args.realm);
      const verdict = await verdictOf(viewer, eventPolicy, 'subscribe', realm);
      if (verdict === 'hide') throw httpError(404, 'NOT_FOUND', 'No such realm');
      if (verdict !== 'allow') throw httpError(403, 'FORBIDDEN', verdict.forbid);
      const after = args.after
        ? await resumePosition(args.after, 'after')
        : await resumePosition(lastEventId, 'Last-Event-ID');
      return followRealm(viewer, { realm }, after);
    },
    resolve: deliver,
  }),
);

builder.subscriptionField('viewerEvents', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: DomainEventType,
    description:
      "Every change in the viewer's district that the viewer may read (for dashboards), as it is committed: an " +
      'event reaches them when they may read the realm it is filed in. Resumable like `realmEvents`, with `after` ' +
      'or `Last-Event-ID`.',
    args: {
      after: t.arg.string({
        required: false,
        description: 'Resume after this event: the `cursor` of the last event received. Overrides `Last-Event-ID`.',
      }),
    },
    subscribe: async (_root, args, { viewer, lastEventId }) => {
      const after = args.after
        ? await resumePosition(args.after, 'after')
        : await resumePosition(lastEventId, 'Last-Event-ID');
      // The district holds everything the viewer may read; their own realm too, unless an event there names no district.
      const realms = [
        { type: 'DISTRICT' as const, id: viewer.user.districtId },
        { type: 'USER' as const, id: viewer.id },
      ];
      return followRealm(viewer, { viewerRealms: realms }, after);
    },
    resolve: deliver,
  }),
);

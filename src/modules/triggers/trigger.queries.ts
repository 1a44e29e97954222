import { builder } from '../../graphql/builder';
import { pageArgs, offsetListBeside } from '../../graphql/paging';
import { triggerCatalogue } from '../../webhooks/triggers';
import { db } from '../../db/database';
import { arrayConnection, connectionOf, connectionOptions, keysetWindow } from '../../graphql/connections';
import { listSubscriptions, listTargets, subscriptionsWhere, targetsWhere } from './trigger.service';
import { triggerPolicy } from './trigger.policy';
import { can } from '../../auth/policy';
import { TriggerSubscriptionPage, TriggerTargetPage, TriggerType } from './trigger.type';
import { registerNodeVisibility, visibleThrough } from '../../graphql/nodes';
import type { Viewer } from '../../auth/viewer';

builder.queryFields((t) => ({
  triggers: t.withAuth({ authenticated: true }).field({
    type: [TriggerType],
    description: 'Every trigger webhook targets may subscribe to (only those something fires).',
    resolve: () => triggerCatalogue(),
  }),
  triggersConnection: t.withAuth({ authenticated: true }).connection(
    {
      type: TriggerType,
      description: 'The triggers `triggers` lists, as a Relay connection in the same order.',
      resolve: (_root, args) => arrayConnection(args, triggerCatalogue()),
    },
    connectionOf(TriggerType),
  ),
  triggerTargets: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('triggerTargetsConnection'),
    type: TriggerTargetPage,
    description: "The webhook targets of the viewer's school, oldest first (trigger administrators).",
    args: pageArgs,
    resolve: (_root, args, { viewer }) => listTargets(viewer, args),
  }),
  triggerSubscriptions: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('triggerSubscriptionsConnection'),
    type: TriggerSubscriptionPage,
    description: "The trigger subscriptions of the viewer's school's targets, oldest first (trigger administrators).",
    args: pageArgs,
    resolve: (_root, args, { viewer }) => listSubscriptions(viewer, args),
  }),
  triggerTargetsConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'TriggerTarget',
      ...connectionOptions,
      description:
        'The targets `triggerTargets` lists, as a Relay connection in the same order (trigger administrators).',
      resolve: async (query, _root, _args, { viewer }) =>
        db().triggerTarget.findMany(keysetWindow(query, await targetsWhere(viewer))),
      totalCount: async (_root, _args, { viewer }) => db().triggerTarget.count({ where: await targetsWhere(viewer) }),
    },
    connectionOf('TriggerTarget'),
  ),
  triggerSubscriptionsConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'TriggerSubscription',
      ...connectionOptions,
      description:
        'The subscriptions `triggerSubscriptions` lists, as a Relay connection in the same order (trigger administrators).',
      resolve: async (query, _root, _args, { viewer }) =>
        db().triggerSubscription.findMany(keysetWindow(query, await subscriptionsWhere(viewer))),
      totalCount: async (_root, _args, { viewer }) =>
        db().triggerSubscription.count({ where: await subscriptionsWhere(viewer) }),
    },
    connectionOf('TriggerSubscription'),
  ),
}));

// As `triggerTargets` and `triggerSubscriptions`: the trigger administrators of the school the target belongs to.
const administersTriggersOf = (viewer: Viewer, schoolId: number) => can(viewer, triggerPolicy, 'manage', { schoolId });
registerNodeVisibility(
  'TriggerTarget',
  visibleThrough(
    'TriggerTarget',
    { select: { schoolId: true }, of: (row: { id: number; schoolId: number }) => row.schoolId },
    administersTriggersOf,
  ),
);
registerNodeVisibility(
  'TriggerSubscription',
  visibleThrough(
    'TriggerSubscription',
    {
      select: { target: { select: { schoolId: true } } },
      of: (row: { id: number; target: { schoolId: number } }) => row.target.schoolId,
    },
    administersTriggersOf,
  ),
);

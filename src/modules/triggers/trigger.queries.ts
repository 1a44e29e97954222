import { builder } from '../../graphql/builder';
import { pageArgs } from '../../graphql/paging';
import { triggerCatalogue } from '../../events/triggers';
import { listSubscriptions, listTargets } from './trigger.service';
import { TriggerSubscriptionPage, TriggerTargetPage, TriggerType } from './trigger.type';

builder.queryFields((t) => ({
  triggers: t.withAuth({ authenticated: true }).field({
    type: [TriggerType],
    description: 'Every trigger webhook targets may subscribe to (only those something fires).',
    resolve: () => triggerCatalogue(),
  }),
  triggerTargets: t.withAuth({ authenticated: true }).field({
    type: TriggerTargetPage,
    description: 'The webhook targets of the viewer\'s school, oldest first (trigger administrators).',
    args: pageArgs,
    resolve: (_root, args, { viewer }) => listTargets(viewer, args),
  }),
  triggerSubscriptions: t.withAuth({ authenticated: true }).field({
    type: TriggerSubscriptionPage,
    description: 'The trigger subscriptions of the viewer\'s school\'s targets, oldest first (trigger administrators).',
    args: pageArgs,
    resolve: (_root, args, { viewer }) => listSubscriptions(viewer, args),
  }),
}));

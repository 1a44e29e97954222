import { builder } from '../../graphql/builder';
import { NotFoundError, ValidationError } from '../../core/errors';
import { deleteMutation, objectMutation, required, resultMutation } from '../../graphql/operations';
import { changesInput, inputFromSchema } from '../../graphql/inputs';
import { parseId } from '../../graphql/realm';
import { UnknownTriggerError } from '../../webhooks/triggers';
import {
  createTarget,
  deleteTarget,
  redeliver,
  replayTarget,
  rotateTargetSecret,
  sendSample,
  setTargetPaused,
  updateSubscriptions,
  updateTarget,
} from './trigger.service';
import { ReplayType, SampleDeliveryType, SubscriptionUpdateType } from './trigger.type';
import { createTargetSchema, subscriptionItemSchema, updateTargetSchema } from './trigger.validation';

const CreateTriggerTargetInput = inputFromSchema(
  'CreateTriggerTargetInput',
  createTargetSchema,
  "A new webhook target of the viewer's school.",
);
const UpdateTriggerTargetInput = changesInput('UpdateTriggerTargetInput', updateTargetSchema, 'a webhook target');
const TriggerSubscriptionInput = inputFromSchema(
  'TriggerSubscriptionInput',
  subscriptionItemSchema,
  'Subscribes a target to a trigger, or unsubscribes it.',
);

builder.mutationFields((t) => ({
  // The signing secret is made here and sealed with the server key, which only the context holds.
  createTriggerTarget: t.withAuth({ authenticated: true }).prismaField({
    type: 'TriggerTarget',
    description:
      "Registers a webhook target for the viewer's school, with a new signing secret (trigger administrators).",
    errors: { types: [ValidationError, NotFoundError] },
    args: { input: t.arg(required(CreateTriggerTargetInput, 'The new webhook target.')) },
    resolve: (query, _root, { input }, { viewer, serverKey }) => createTarget(viewer, serverKey, input, query),
  }),
  rotateTriggerTargetSecret: t.withAuth({ authenticated: true }).prismaField({
    type: 'TriggerTarget',
    description: 'Gives a target a new signing secret; deliveries are signed with the old one too for 24 hours.',
    errors: { types: [NotFoundError] },
    args: { id: t.arg.id({ required: true, description: 'The target that gets a new secret.' }) },
    resolve: (query, _root, args, { viewer, serverKey }) =>
      rotateTargetSecret(viewer, serverKey, parseId(args.id, 'TriggerTarget'), query),
  }),
  // Signing needs the target's secret, unsealed with the server key, which only the context holds.
  sendSampleEvent: t.withAuth({ authenticated: true }).field({
    type: SampleDeliveryType,
    description:
      "Sends a sample event object of a trigger to a target of the viewer's school, signed as deliveries are, and answers " +
      "with the receiver's status and latency; it is not written to the delivery log (trigger administrators).",
    errors: { types: [ValidationError, NotFoundError, UnknownTriggerError] },
    args: {
      targetId: t.arg.id({ required: true, description: 'The target.' }),
      trigger: t.arg.string({ required: true, description: 'Name of a trigger `triggers` lists.' }),
      operation: t.arg.string({
        description: "One of the trigger's operations; its first (usually `create`) by default.",
      }),
    },
    resolve: (_root, args, { viewer, serverKey }) =>
      sendSample(viewer, serverKey, parseId(args.targetId, 'TriggerTarget', 'targetId'), args.trigger, args.operation),
  }),
}));

objectMutation('updateTriggerTarget', {
  type: 'TriggerTarget',
  description: "Changes a webhook target of the viewer's school (trigger administrators).",
  args: (arg) => ({
    id: arg.id({ required: true, description: 'The webhook target to change.' }),
    input: arg(required(UpdateTriggerTargetInput, 'What to change; members left out keep their values.')),
  }),
  resolve: (viewer, args, query) => updateTarget(viewer, parseId(args.id, 'TriggerTarget'), args.input, query),
});
deleteMutation('deleteTriggerTarget', {
  description: 'Deletes a webhook target with its subscriptions and pending deliveries (trigger administrators).',
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The webhook target to delete.' }) }),
  resolve: (viewer, args) => deleteTarget(viewer, parseId(args.id, 'TriggerTarget')),
});
resultMutation('updateTriggerSubscriptions', {
  type: SubscriptionUpdateType,
  description:
    'Subscribes targets to triggers and unsubscribes them, item by item: an item that cannot be applied (unknown ' +
    'trigger: status 400) does not stop the others (trigger administrators).',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({
    subscriptions: arg({
      type: [TriggerSubscriptionInput],
      required: true,
      description: 'One change per target and trigger; each succeeds or fails alone.',
    }),
  }),
  resolve: (viewer, args) => updateSubscriptions(viewer, args.subscriptions),
});
objectMutation('pauseTriggerTarget', {
  type: 'TriggerTarget',
  description:
    "Holds a target's deliveries: events still queue for it and are sent on resume (trigger administrators).",
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The target to pause.' }) }),
  resolve: (viewer, args, query) => setTargetPaused(viewer, parseId(args.id, 'TriggerTarget'), true, query),
});
objectMutation('resumeTriggerTarget', {
  type: 'TriggerTarget',
  description: 'Sends a paused or disabled target what queued for it, and what comes (trigger administrators).',
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The target to resume.' }) }),
  resolve: (viewer, args, query) => setTargetPaused(viewer, parseId(args.id, 'TriggerTarget'), false, query),
});
objectMutation('redeliverWebhook', {
  type: 'WebhookDelivery',
  description:
    'Sends one delivery again now, whatever became of it, with the same `webhook-id` (trigger administrators).',
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'Delivery id.' }) }),
  resolve: (viewer, args, query) => redeliver(viewer, String(args.id), query),
});
resultMutation('replayTriggerTarget', {
  type: ReplayType,
  description: 'Sends a target again every delivery queued for it since a time (trigger administrators).',
  errors: [NotFoundError],
  args: (arg) => ({
    id: arg.id({ required: true, description: 'The target to send the deliveries to again.' }),
    since: arg({ type: 'DateTime', required: true, description: 'From when.' }),
  }),
  resolve: (viewer, args) => replayTarget(viewer, parseId(args.id, 'TriggerTarget'), args.since),
});

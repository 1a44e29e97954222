import { ValidationError } from '../../core/errors';
import { inputFromSchema, objectIdInput, objectIdMember, withMembers } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import { parseId } from '../../graphql/realm';
import { readById } from '../../graphql/reads-by-id';
import type { TriggerTarget } from '../../generated/prisma/client';
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
import {
  createTargetSchema,
  replaySchema,
  sampleEventSchema,
  subscriptionChangesSchema,
  subscriptionItemSchema,
  updateTargetSchema,
} from './trigger.validation';

const triggerTarget = (description: string) => ({ triggerTarget: { model: 'TriggerTarget', description } }) as const;

// Signing secrets are made here and sealed with the server key, which only the context holds.
payloadMutation('createTriggerTarget', {
  description:
    "Registers a webhook target for the viewer's school, with a new signing secret (trigger administrators).",
  input: createTargetSchema,
  inputDescription: "A new webhook target of the viewer's school.",
  payload: triggerTarget('The new target, with its signing secret.'),
  resolve: async (viewer, input, select, { serverKey }) => ({
    triggerTarget: await createTarget(viewer, serverKey, input, select('triggerTarget')),
  }),
});
payloadMutation('rotateTriggerTargetSecret', {
  description: 'Gives a target a new signing secret; deliveries are signed with the old one too for 24 hours.',
  input: objectIdInput('The target that gets a new secret.'),
  inputDescription: 'The target that gets a new secret.',
  payload: triggerTarget('The target, with its new signing secret.'),
  resolve: async (viewer, { id }, select, { serverKey }) => ({
    triggerTarget: await rotateTargetSecret(viewer, serverKey, parseId(id, 'TriggerTarget'), select('triggerTarget')),
  }),
});
payloadMutation('sendSampleEvent', {
  description:
    "Sends a sample event object of a trigger to a target of the viewer's school, signed as deliveries are, and answers " +
    "with the receiver's status and latency; it is not written to the delivery log (trigger administrators).",
  input: sampleEventSchema,
  inputDescription: 'The target, and the trigger (and operation) of the sample event.',
  payload: {
    sampleEventDelivery: { type: SampleDeliveryType, description: "The sample sent, and its receiver's answer." },
  },
  resolve: async (viewer, { targetId, trigger, operation }, _select, { serverKey }) => {
    const target = parseId(targetId, 'TriggerTarget', 'targetId');
    try {
      return { sampleEventDelivery: await sendSample(viewer, serverKey, target, trigger, operation) };
    } catch (error) {
      // An unknown trigger is a bad value of the input's `trigger`, as any other refused member.
      if (error instanceof UnknownTriggerError)
        throw new ValidationError([{ field: 'trigger', message: error.message }]);
      throw error;
    }
  },
});
payloadMutation('updateTriggerTarget', {
  description: "Changes a webhook target of the viewer's school (trigger administrators).",
  input: withMembers(updateTargetSchema, { id: objectIdMember('The webhook target to change.') }),
  inputDescription: 'The webhook target, and changes to it; members left out keep their values.',
  payload: triggerTarget('The target as changed.'),
  resolve: async (viewer, { id, ...changes }, select) => ({
    triggerTarget: await updateTarget(viewer, parseId(id, 'TriggerTarget'), changes, select('triggerTarget')),
  }),
});
payloadMutation('deleteTriggerTarget', {
  description: 'Deletes a webhook target with its subscriptions and pending deliveries (trigger administrators).',
  input: objectIdInput('The webhook target to delete.'),
  inputDescription: 'The webhook target to delete.',
  payload: { deletedTriggerTargetId: { deleted: 'TriggerTarget', description: 'Global id of the deleted target.' } },
  resolve: async (viewer, { id }) => ({
    deletedTriggerTargetId: (await deleteTarget(viewer, parseId(id, 'TriggerTarget'))).id,
  }),
});

const TriggerSubscriptionInput = inputFromSchema(
  'TriggerSubscriptionInput',
  subscriptionItemSchema,
  'Subscribes a target to a trigger, or unsubscribes it.',
);

payloadMutation('updateTriggerSubscriptions', {
  description:
    'Subscribes targets to triggers and unsubscribes them, item by item: an item that cannot be applied (unknown ' +
    'trigger: status 400) does not stop the others (trigger administrators).',
  input: subscriptionChangesSchema,
  inputDescription: 'The subscription changes.',
  types: { subscriptions: TriggerSubscriptionInput },
  payload: {
    triggerSubscriptionUpdate: { type: SubscriptionUpdateType, description: 'What became of each item.' },
  },
  resolve: async (viewer, { subscriptions }) => ({
    triggerSubscriptionUpdate: await updateSubscriptions(viewer, subscriptions),
  }),
});
payloadMutation('pauseTriggerTarget', {
  description:
    "Holds a target's deliveries: events still queue for it and are sent on resume (trigger administrators).",
  input: objectIdInput('The target to pause.'),
  inputDescription: 'The target to pause.',
  payload: triggerTarget('The target, paused.'),
  resolve: async (viewer, { id }, select) => ({
    triggerTarget: await setTargetPaused(viewer, parseId(id, 'TriggerTarget'), true, select('triggerTarget')),
  }),
});
payloadMutation('resumeTriggerTarget', {
  description: 'Sends a paused or disabled target what queued for it, and what comes (trigger administrators).',
  input: objectIdInput('The target to resume.'),
  inputDescription: 'The target to resume.',
  payload: triggerTarget('The target, resumed.'),
  resolve: async (viewer, { id }, select) => ({
    triggerTarget: await setTargetPaused(viewer, parseId(id, 'TriggerTarget'), false, select('triggerTarget')),
  }),
});
payloadMutation('redeliverWebhook', {
  description:
    'Sends one delivery again now, whatever became of it, with the same `webhook-id` (trigger administrators).',
  input: objectIdInput('The delivery to send again.'),
  inputDescription: 'The delivery to send again.',
  payload: { webhookDelivery: { model: 'WebhookDelivery', description: 'The delivery, queued again.' } },
  resolve: async (viewer, { id }, select) => ({
    webhookDelivery: await redeliver(viewer, String(id), select('webhookDelivery')),
  }),
});
payloadMutation('replayTriggerTarget', {
  description: 'Sends a target again every delivery queued for it since a time (trigger administrators).',
  input: replaySchema,
  inputDescription: 'The target, and from when its deliveries are sent again.',
  types: { since: 'DateTime' },
  payload: {
    triggerTargetReplay: { type: ReplayType, description: 'How many deliveries were queued again.' },
    triggerTarget: { model: 'TriggerTarget', description: 'The target, with its deliveries as they now are.' },
  },
  resolve: async (viewer, { id, since }, select) => {
    const replay = await replayTarget(viewer, parseId(id, 'TriggerTarget'), since);
    return {
      triggerTargetReplay: replay,
      triggerTarget: await readById<TriggerTarget>('TriggerTarget', select('triggerTarget'), replay.id),
    };
  },
});

import type { TriggerTarget } from '../../generated/prisma/client';
import { builder } from '../../graphql/builder';
import { readById } from '../../graphql/reads-by-id';
import { readEventById } from '../../outbox/stream';
import { DomainEventType } from '../subscriptions/event.type';
import { exposeColumns, exposeDatabaseId, exposeLongText, exposeOptionalText, nodeId } from '../../graphql/columns';
import { pageArgs, pageOf, offsetListBeside } from '../../graphql/paging';
import { type Trigger, triggerFamilies } from '../../webhooks/triggers';
import type { SampleDelivery } from '../../webhooks/sample';
import type { SubscriptionItem, SubscriptionResult } from './trigger.service';
import { deliveryStatusWhere, subscriptionItemStatuses, targetDeliveries, targetSecret } from './trigger.service';
import { keysetRelatedConnection, listOrder } from '../../graphql/connections';
import { longText } from '../../graphql/execution-bounds';
import { bodyMaxLength } from '../../core/validation';
import { targetDescriptionMaxLength } from './trigger.validation';

export const WebhookDeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description: 'Where a delivery stands.',
  values: {
    PENDING: { description: 'Waiting for its first attempt or a retry (or its target to be resumed).' },
    SUCCEEDED: { description: 'The receiver answered 2xx.' },
    FAILED: { description: 'Given up after 72 hours of failed attempts.' },
    CANCELLED: { description: 'Not sent: the receiver answered 410 Gone, which unsubscribed the target.' },
  },
});

const WebhookAttemptType = builder.prismaObject('WebhookAttempt', {
  fields: (t) => ({
    id: t.id({ description: 'Attempt id.', resolve: (attempt) => String(attempt.id) }),
    ...exposeColumns(t, 'WebhookAttempt', ['startedAt', 'latencyMs', 'statusCode', 'error']),
    ...exposeOptionalText(t, 'WebhookAttempt', ['responseBody']),
  }),
});

const WebhookDeliveryType = builder.prismaObject('WebhookDelivery', {
  fields: (t) => ({
    id: t.id({ description: 'Delivery id.', resolve: (delivery) => String(delivery.id) }),
    eventId: t.id({
      description:
        'The domain event it reports, by its database id, as /v1 has it (`webhook-id` is `evt_<eventId>`); `event` ' +
        'is the event.',
      resolve: (delivery) => String(delivery.eventId),
    }),
    event: t.field({
      type: DomainEventType,
      nullable: true,
      description: 'The domain event it reports (`eventId`); null once the event is no longer kept.',
      select: { eventId: true },
      resolve: (delivery) => readEventById(delivery.eventId),
    }),
    ...exposeColumns(t, 'WebhookDelivery', [
      'type',
      'attempts',
      'nextAttemptAt',
      'lastStatusCode',
      'lastError',
      'createdAt',
      'deliveredAt',
    ]),
    status: t.expose('status', { type: WebhookDeliveryStatusEnum }),
    payload: t.string({
      description: 'The event object, as the JSON text sent.',
      // Its object is what a GET of it on /v1 answers, whose longest text is a body.
      ...longText(bodyMaxLength, (delivery: { payload: unknown }) => JSON.stringify(delivery.payload)),
    }),
    attemptLog: t.relation('attemptLog', {
      description: 'Every attempt, oldest first.',
      query: { orderBy: listOrder },
    }),
    attemptLogConnection: keysetRelatedConnection(t, 'attemptLog', {
      type: WebhookAttemptType,
      description: 'The attempts `attemptLog` lists, as a Relay connection in the same order.',
      order: [listOrder],
    }),
  }),
});

const WebhookDeliveryPage = pageOf('WebhookDelivery', 'A page of webhook deliveries.');

export const TriggerNameEnum = builder.enumType('TriggerName', {
  description:
    'The triggers webhook targets may subscribe to, each the /v1 name in capitals (`GROUP_MEMBER` for `group_member`, ' +
    'as event objects are typed). Where a trigger is named, either form is taken.',
  values: Object.fromEntries(
    Object.entries(triggerFamilies).map(([name, description]) => [name.toUpperCase(), { value: name, description }]),
  ),
});

export const TriggerType = builder.objectRef<Trigger>('Trigger').implement({
  description: 'A platform action webhook targets subscribe to; its event objects are typed `<name>.<operation>`.',
  fields: (t) => ({
    name: t.expose('name', {
      type: TriggerNameEnum,
      description: 'The trigger, to subscribe with (`trigger` on /v1 is its lowercase name).',
    }),
    description: t.exposeString('description', { description: 'What fires it.' }),
    operations: t.exposeStringList('operations', {
      description: 'The operations its event objects report, such as `create`.',
    }),
  }),
});

const TriggerTargetType = builder.prismaNode('TriggerTarget', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'TriggerTarget', [
      'url',
      'createdAt',
      'updatedAt',
      'secretRotatedAt',
      'previousSecretExpiresAt',
      'pausedAt',
      'disabledAt',
      'failingSince',
    ]),
    ...exposeLongText(t, 'TriggerTarget', 'description', targetDescriptionMaxLength),
    secret: t.string({
      description: 'The Standard Webhooks signing secret (`whsec_...`) receivers verify `webhook-signature` with.',
      select: { secret: true },
      resolve: (target, _args, { serverKey }) => targetSecret(target, serverKey),
    }),
    subscriptions: t.relation('subscriptions', {
      description: 'The triggers the target is subscribed to, oldest first.',
      query: { orderBy: listOrder },
    }),
    subscriptionsConnection: keysetRelatedConnection(t, 'subscriptions', {
      type: TriggerSubscriptionType,
      description: 'The subscriptions `subscriptions` lists, as a Relay connection in the same order.',
      order: [listOrder],
    }),
    deliveries: t.field({
      ...offsetListBeside('deliveriesConnection'),
      type: WebhookDeliveryPage,
      description: 'The delivery log: what was sent or is queued, oldest first, with every attempt.',
      args: {
        status: t.arg({ type: WebhookDeliveryStatusEnum, description: 'Only deliveries in this state.' }),
        ...pageArgs,
      },
      resolve: (target, args) => targetDeliveries(target, args),
    }),
    deliveriesConnection: keysetRelatedConnection(t, 'deliveries', {
      type: WebhookDeliveryType,
      description: 'The deliveries `deliveries` lists, as a Relay connection in the same order.',
      order: [listOrder],
      args: { status: t.arg({ type: WebhookDeliveryStatusEnum, description: 'Only deliveries in this state.' }) },
      where: (args) => deliveryStatusWhere(args),
    }),
  }),
});

const TriggerSubscriptionType = builder.prismaNode('TriggerSubscription', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'TriggerSubscription', ['version', 'includeObject', 'createdAt']),
    trigger: t.expose('trigger', { type: TriggerNameEnum, description: 'The trigger subscribed to.' }),
    target: t.relation('target'),
  }),
});

export const TriggerTargetPage = pageOf('TriggerTarget', 'A page of webhook targets.');
export const TriggerSubscriptionPage = pageOf('TriggerSubscription', 'A page of trigger subscriptions.');

const SubscriptionItemType = builder.objectRef<SubscriptionItem>('TriggerSubscriptionItem').implement({
  description: "One item of a bulk subscription change, as it was sent (with the target's URL).",
  fields: (t) => ({
    targetId: t.exposeID('targetId', {
      description:
        'The target named, as sent: a database id, as /v1 has it; `target` is the object, with its global id.',
    }),
    target: t.field({
      type: TriggerTargetType,
      nullable: true,
      description: "The target named (`targetId`); null when it is not one of the school's.",
      // `targetUrl` is set only for the targets the viewer manages.
      resolve: (item) =>
        item.targetUrl === null ? null : readById<TriggerTarget>('TriggerTarget', {}, Number(item.targetId)),
    }),
    trigger: t.exposeString('trigger', { description: 'The trigger named.' }),
    version: t.exposeString('version', { description: 'Version of the event objects (v1).' }),
    subscribed: t.exposeBoolean('subscribed', { description: 'Whether the item subscribes (true) or unsubscribes.' }),
    includeObject: t.exposeBoolean('includeObject', { description: 'Whether event objects carry the object.' }),
    targetUrl: t.exposeString('targetUrl', {
      nullable: true,
      description: "URL of the target; null when it is not one of the school's.",
    }),
  }),
});

const TriggerSubscriptionItemStatusEnum = builder.enumType('TriggerSubscriptionItemStatus', {
  description: 'What became of one item of a bulk subscription change; /v1 answers the `status` named.',
  values: {
    APPLIED: { value: subscriptionItemStatuses.APPLIED, description: 'Subscribed or unsubscribed as asked (200).' },
    INVALID: {
      value: subscriptionItemStatuses.INVALID,
      description: 'Refused: an unknown trigger, an unsupported version or a bad value (400).',
    },
    NOT_FOUND: {
      value: subscriptionItemStatuses.NOT_FOUND,
      description: "Refused: the target is not one of the school's (404).",
    },
  },
});

const SubscriptionResultType = builder.objectRef<SubscriptionResult>('TriggerSubscriptionResult').implement({
  description: 'What became of one item of a bulk subscription change.',
  fields: (t) => ({
    item: t.field({ type: SubscriptionItemType, description: 'The item.', resolve: (result) => result.item }),
    status: t.expose('status', { type: TriggerSubscriptionItemStatusEnum, description: 'What became of the item.' }),
    message: t.exposeString('message', { nullable: true, description: 'Why the item was not applied.' }),
  }),
});

export const SubscriptionUpdateType = builder
  .objectRef<{ results: SubscriptionResult[] }>('TriggerSubscriptionUpdate')
  .implement({
    description: 'The outcome of a bulk subscription change, item by item, in the order sent.',
    fields: (t) => ({
      results: t.field({
        type: [SubscriptionResultType],
        description: 'One result per item.',
        resolve: (update) => update.results,
      }),
    }),
  });

export const ReplayType = builder.objectRef<{ id: number; requeued: number }>('TriggerTargetReplay').implement({
  description: 'Deliveries queued again for a target.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The target.' }),
    requeued: t.exposeInt('requeued', { description: 'How many deliveries were queued again.' }),
  }),
});

export const SampleDeliveryType = builder.objectRef<SampleDelivery>('SampleEventDelivery').implement({
  description: 'A sample event sent to a target, and what its receiver answered. Samples are not in the delivery log.',
  fields: (t) => ({
    targetId: t.exposeID('targetId', {
      description: 'The target: a database id, as /v1 has it; `target` is the object, with its global id.',
    }),
    target: t.field({
      type: TriggerTargetType,
      nullable: true,
      description: 'The target (`targetId`); null once it is deleted.',
      resolve: (sample) => readById<TriggerTarget>('TriggerTarget', {}, sample.targetId),
    }),
    url: t.exposeString('url', { description: 'Where it was POSTed.' }),
    type: t.exposeString('type', { description: 'Type of the event object, `<trigger>.<operation>`.' }),
    webhookId: t.exposeString('webhookId', {
      description: "Its `webhook-id` header: `sample_` and a random id, never a real event's.",
    }),
    payload: t.string({
      description: 'The event object, as the JSON text sent.',
      ...longText(bodyMaxLength, (sample: SampleDelivery) => sample.payload),
    }),
    statusCode: t.exposeInt('statusCode', {
      nullable: true,
      description: "The receiver's HTTP status; null when it did not answer.",
    }),
    succeeded: t.boolean({
      description: 'Whether the receiver answered 2xx, as a delivery counts success.',
      resolve: (sample) => sample.statusCode !== null && sample.statusCode >= 200 && sample.statusCode < 300,
    }),
    latencyMs: t.exposeInt('latencyMs', {
      description: 'Milliseconds from sending to the end of the answer (or the failure).',
    }),
    responseBody: t.string({
      nullable: true,
      description: "The first kilobyte of the answer's body; null when no answer came or it had no body.",
      resolve: (delivery) => delivery.responseBody || null,
    }),
    error: t.exposeString('error', {
      nullable: true,
      description: 'Why there was no answer: a refused address, a connection failure, or no answer within 5 seconds.',
    }),
  }),
});

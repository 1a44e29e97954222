import { z } from 'zod';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import { UserErrors } from '../../rest/user-errors';
import { bulkRoute, createRoute, deleteRoute, listRoute, updateRoute } from '../../rest/route';
import { type WireField, flag, list, text, wireBody } from '../../rest/wire-body';
import { subscriptionItemStatuses } from './trigger.service';

const RestTarget = graphql(`fragment RestTriggerTarget on TriggerTarget @_unmask { id: databaseId url description }`);
const RestSubscription = graphql(`
  fragment RestTriggerSubscription on TriggerSubscription @_unmask { trigger version includeObject target { id: databaseId url } }
`);

const bit = (value: boolean) => (value ? 1 : 0) as 0 | 1;
const textBit = (value: boolean) => (value ? '1' : '0') as '0' | '1';
const wireBit = z.union([z.literal(0), z.literal(1)]);

/** Target ids are integers on the wire (spec 2.4). */
export const targetWire = z
  .object({ id: z.int(), target: z.string(), description: z.string() })
  .meta({ id: 'TriggerTarget', description: 'A URL event objects are sent to (spec 2.4).' });

const targetToWire = (target: ResultOf<typeof RestTarget>): z.input<typeof targetWire> => ({
  id: Number(target.id),
  target: target.url,
  description: target.description ?? '',
});

/** The wire checks only that `target` is a URL; the service decides whether it may be used (https, public address). */
const targetUrl = (input: string): WireField => ({
  schema: z.url({ protocol: /^https?$/, error: 'must be an absolute https URL' }),
  input,
});
const targetMembers = { target: targetUrl('url'), description: text('description') };

/** `subscribed` is always 0 in the list (spec 2.5): the list shows what exists, not a state to send back. */
export const subscriptionWire = z
  .object({
    target_id: z.int(),
    trigger: z.string(),
    subscribed: z.literal(0),
    version: z.string(),
    include_object: wireBit,
    target_url: z.string(),
  })
  .meta({ id: 'TriggerSubscription', description: "A target's subscription to a trigger (spec 2.5)." });

/**
 * An item as the platform's example echoes it: on success `include_object` is the string "1" or "0"; on failure
 * `version`, `target_url` and `include_object` are null, nothing having been applied.
 */
const subscriptionItemWire = z.object({
  target_id: z.int(),
  trigger: z.string(),
  version: z.string().nullable().describe('Null when the item failed.'),
  subscribed: wireBit,
  target_url: z.string().nullable().describe('Null when the item failed.'),
  include_object: z.enum(['0', '1']).nullable().describe('"1" or "0", a string; null when the item failed.'),
});

export const subscriptionResultsWire = z
  .object({
    subscription: z.array(
      z.object({
        item: subscriptionItemWire,
        status: z
          .int()
          .describe('200 applied; 400 refused (unknown trigger, unsupported version); 404 unknown target.'),
        message: z.string().optional().describe('Why the item was not applied.'),
      }),
    ),
  })
  .meta({
    id: 'TriggerSubscriptionResults',
    description: 'Per-item results of a bulk subscription change (spec 4.2).',
  });

// An item's members are typed here (a flag that is not 0 or 1 fails the whole request, naming the member); whether
// the trigger, version and target exist is judged item by item by the service.
const subscriptionItem = z.object({
  target_id: z
    .union([z.string(), z.number()])
    .transform(String)
    .pipe(
      z
        .string()
        .trim()
        .regex(/^\d{1,15}$/, 'target_id must be a numeric id'),
    ),
  trigger: text('trigger').schema,
  subscribed: flag('subscribed').schema,
  include_object: flag('includeObject').schema.optional(),
  version: text('version').schema.optional(),
});

const subscriptionInput = (item: z.output<typeof subscriptionItem>) => ({
  targetId: item.target_id,
  trigger: item.trigger as string,
  subscribed: item.subscribed as boolean,
  includeObject: (item.include_object as boolean | undefined) ?? null,
  version: (item.version as string | undefined) || null,
});

export const triggerRoutes = [
  listRoute({
    path: '/triggers/targets',
    summary: "List the webhook targets of the caller's school (trigger administrators)",
    item: 'target',
    wire: targetWire,
    document: graphql(
      `query($start: Int!, $limit: Int!) { triggerTargets(start: $start, limit: $limit) { total items { ...RestTriggerTarget } } }`,
      [RestTarget],
    ),
    variables: () => ({}),
    shape: targetToWire,
  }),
  createRoute({
    path: '/triggers/targets',
    summary: "Register a webhook target for the caller's school (trigger administrators)",
    body: wireBody(targetMembers, ['target']),
    wire: targetWire,
    document: graphql(
      `mutation($input: CreateTriggerTargetInput!) {
        createTriggerTarget(input: $input) { userErrors { ...UserErrors } triggerTarget { ...RestTriggerTarget } }
      }`,
      [UserErrors, RestTarget],
    ),
    variables: ({ input }) => ({ input }),
    payload: 'triggerTarget',
    shape: targetToWire,
  }),
  updateRoute({
    path: '/triggers/targets/{id}',
    summary: 'Change a webhook target (trigger administrators)',
    body: wireBody(targetMembers),
    document: graphql(
      `mutation($input: UpdateTriggerTargetInput!) { updateTriggerTarget(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: ({ params, input }) => ({ input: { ...input, id: params.id } }),
  }),
  deleteRoute({
    path: '/triggers/targets/{id}',
    summary: 'Delete a webhook target with its subscriptions (trigger administrators)',
    document: graphql(
      `mutation($input: DeleteTriggerTargetInput!) { deleteTriggerTarget(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: ({ params }) => ({ input: { id: params.id } }),
  }),
  listRoute({
    path: '/triggers/subscriptions',
    summary: "List the trigger subscriptions of the caller's school's targets (trigger administrators)",
    item: 'subscription',
    wire: subscriptionWire,
    document: graphql(
      `query($start: Int!, $limit: Int!) {
        triggerSubscriptions(start: $start, limit: $limit) { total items { ...RestTriggerSubscription } }
      }`,
      [RestSubscription],
    ),
    variables: () => ({}),
    shape: (subscription) => ({
      target_id: Number(subscription.target.id),
      // The enum value in capitals is the /v1 name in lowercase.
      trigger: subscription.trigger.toLowerCase(),
      subscribed: 0 as const,
      version: subscription.version,
      include_object: bit(subscription.includeObject),
      target_url: subscription.target.url,
    }),
  }),
  bulkRoute('PUT', {
    path: '/triggers/subscriptions',
    summary: 'Subscribe targets to triggers and unsubscribe them, with a status per item (trigger administrators)',
    body: wireBody({ subscription: list(subscriptionItem)('subscriptions') }, ['subscription']),
    wire: subscriptionResultsWire,
    document: graphql(
      `mutation($input: UpdateTriggerSubscriptionsInput!) {
        updateTriggerSubscriptions(input: $input) {
          userErrors { ...UserErrors }
          triggerSubscriptionUpdate {
            results { status message item { targetId trigger version subscribed includeObject targetUrl } }
          }
        }
      }`,
      [UserErrors],
    ),
    variables: ({ input }) => ({ input: { subscriptions: input.subscriptions.map(subscriptionInput) } }),
    payload: 'triggerSubscriptionUpdate',
    shape: (update) => ({
      subscription: update.results.map(({ item, status, message }) => {
        const applied = status === 'APPLIED';
        return {
          item: {
            target_id: Number(item.targetId),
            trigger: item.trigger,
            version: applied ? item.version : null,
            subscribed: bit(item.subscribed),
            target_url: applied ? item.targetUrl : null,
            include_object: applied ? textBit(item.includeObject) : null,
          },
          status: subscriptionItemStatuses[status],
          ...(message !== null ? { message } : {}),
        };
      }),
    }),
  }),
];

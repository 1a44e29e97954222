import { z } from 'zod';
import { clearable, createInput, idOfNamedType, nodeId, requiredText, text, updateInput } from '../../core/validation';

/** An absolute http(s) URL; which hosts and schemes are allowed is the address policy's (src/webhooks/address.ts). */
const targetUrl = requiredText(2048).refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}, 'must be an absolute https URL');

/** The most characters of a target's description. */
export const targetDescriptionMaxLength = 65_535;

const targetDescription = clearable(text(targetDescriptionMaxLength), '');
export const createTargetSchema = createInput(
  {
    url: targetUrl.describe('https URL event objects are POSTed to (`target` on /v1).'),
    description: targetDescription.describe('Optional description.'),
  },
  ['url'],
);
export const updateTargetSchema = updateInput({
  url: targetUrl.describe('https URL event objects are POSTed to.'),
  description: targetDescription.describe('Description; null empties it.'),
});

/** Subscriptions per bulk request: as many as a page holds. */
export const maxSubscriptionItems = 200;

/** One item of a bulk subscription change; items are judged one by one, so a bad one does not fail the others. */
export const subscriptionItemSchema = z.strictObject({
  targetId: nodeId('TriggerTarget').describe("A target of the viewer's school."),
  trigger: requiredText(255).describe(
    'Name of the trigger (see `triggers`): its `TriggerName` value (`GROUP_MEMBER`) or its /v1 name (`group_member`).',
  ),
  subscribed: z.boolean().describe('True subscribes, false unsubscribes.'),
  includeObject: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false)
    .describe('Event objects carry the object (its /v1 view); default false.'),
  version: z
    .string()
    .trim()
    .nullish()
    .transform((value) => value || 'v1')
    .refine((value) => value === 'v1', 'only version v1 is supported')
    .describe('Version of the event objects; only v1 (the default).'),
});

/** The input of updateTriggerSubscriptions: the items, which the service judges one by one. */
export const subscriptionChangesSchema = z.strictObject({
  subscriptions: z
    .array(subscriptionItemSchema)
    .describe('One change per target and trigger; each succeeds or fails alone.'),
});

/** The input of sendSampleEvent: the target, and the trigger whose sample event it is sent. */
export const sampleEventSchema = z.strictObject({
  targetId: idOfNamedType.describe('The target.'),
  trigger: z.string().describe('Name of a trigger `triggers` lists.'),
  operation: z.string().nullish().describe("One of the trigger's operations; its first (usually `create`) by default."),
});

/** The input of replayTriggerTarget: the target, and from when its deliveries are sent again. */
export const replaySchema = z.strictObject({
  id: idOfNamedType.describe('The target to send the deliveries to again.'),
  since: z.date().describe('From when.'),
});

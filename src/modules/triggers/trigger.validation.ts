import { z } from 'zod';
import { clearable, createInput, nodeId, requiredText, text, updateInput } from '../../core/validation';

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

const targetFields = { url: targetUrl, description: clearable(text(targetDescriptionMaxLength), '') };
export const createTargetSchema = createInput(targetFields, ['url']);
export const updateTargetSchema = updateInput(targetFields);

/** Subscriptions per bulk request: as many as a page holds. */
export const maxSubscriptionItems = 200;

/** One item of a bulk subscription change; items are judged one by one, so a bad one does not fail the others. */
export const subscriptionItemSchema = z.object({
  targetId: nodeId('TriggerTarget'),
  trigger: requiredText(255),
  subscribed: z.boolean(),
  includeObject: z.boolean().nullish().transform((value) => value ?? false),
  version: z
    .string()
    .trim()
    .nullish()
    .transform((value) => value || 'v1')
    .refine((value) => value === 'v1', 'only version v1 is supported'),
});

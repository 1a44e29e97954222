import { EventEmitter } from 'node:events';
import type { Credential } from '../../auth/viewer';
import { httpError } from '../../core/errors';

/**
 * Open realm subscriptions per credential in this instance, graphql-ws and SSE together (instances do not share the
 * count: each holds its own sockets). Set from SUBSCRIPTIONS_PER_CREDENTIAL by createApp.
 */
let perCredential = 25;
const open = new Map<string, number>();

export function limitSubscriptionsPerCredential(limit: number): void {
  perCredential = limit;
}

export const credentialKey = (credential: Credential) =>
  credential.kind === 'bearer'
    ? `bearer:${credential.tokenId}`
    : credential.kind === 'app'
      ? `app:${credential.accessTokenId}`
      : credential.kind === 'oauth2'
        ? `oauth2:${credential.recordId}`
        : `oauth:${credential.consumerKey}`;

/**
 * When a subscription starts listening (its bus topics joined, its access checked) and when it ends, by credential key:
 * tests wait on these instead of sleeping.
 */
export const subscriptionActivity = new EventEmitter<{
  listening: [credential: string];
  ended: [credential: string];
}>();

/**
 * 429 rather than a time to wait: a slot frees when one of the credential's subscriptions ends, so there is no
 * Retry-After to promise.
 */
export const tooManySubscriptions = () =>
  httpError(429, 'TOO_MANY_SUBSCRIPTIONS', `A credential may hold at most ${perCredential} subscriptions at a time`);

/** Takes one of the credential's subscription slots, or null when all are taken; `release` gives it back (once). */
export function takeSubscriptionSlot(credential: Credential): { release(): void } | null {
  const key = credentialKey(credential);
  const held = open.get(key) ?? 0;
  if (held >= perCredential) return null;
  open.set(key, held + 1);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
      subscriptionActivity.emit('ended', key);
    },
  };
}

import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { decryptSecret } from '../auth/secrets';

/** After a rotation, deliveries carry signatures by the old and the new secret for this long. */
export const secretOverlapMs = 24 * 60 * 60 * 1000;

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64, as the specification's libraries expect. */
export const newSigningSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/**
 * The Standard Webhooks headers of one message. With several secrets (during a rotation) the signature header lists
 * one signature per secret, separated by spaces; a receiver accepts the message when any of them verifies.
 */
export function signatureHeaders(messageId: string, timestamp: Date, payload: string, secrets: readonly string[]) {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => signerOf(secret).sign(messageId, timestamp, payload)).join(' '),
  };
}

/** Bounds the caches below: a few entries per target. */
const cacheLimit = 10_000;

function remembered<K, V>(cache: Map<K, V>, key: K, make: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= cacheLimit) cache.clear();
    cache.set(key, (value = make()));
  }
  return value;
}

/** Signers by secret, and secrets by sealed box and server key: made once per target, not once per delivery. */
const signers = new Map<string, Webhook>();
const signerOf = (secret: string) => remembered(signers, secret, () => new Webhook(secret));
const opened = new WeakMap<Buffer, Map<string, string>>();
function openSecret(box: string, serverKey: Buffer): string {
  let boxes = opened.get(serverKey);
  if (!boxes) opened.set(serverKey, (boxes = new Map()));
  return remembered(boxes, box, () => decryptSecret(box, serverKey));
}

/** A target's sealed secrets, as deliveries need them. */
export interface SealedSecrets {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/** The secrets a message to the target is signed with at `at`: the current one, and the previous one during a rotation. */
export function signingSecrets(target: SealedSecrets, serverKey: Buffer, at: Date): string[] {
  const current = openSecret(target.secret, serverKey);
  const previous =
    target.previousSecret && target.previousSecretExpiresAt && target.previousSecretExpiresAt > at
      ? target.previousSecret
      : null;
  return previous ? [current, openSecret(previous, serverKey)] : [current];
}

/**
 * Sample events, for people building a receiver: an event object of any listed trigger, sent once to one target,
 * signed and POSTed by the same code as real deliveries, answered with what the receiver said. A sample is not a
 * delivery: it reports no domain event, so it is not written to the delivery log (which redelivery and replay read)
 * and is never retried; its `webhook-id` (`sample_...`) cannot be mistaken for a real event's (`evt_...`).
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '../core/errors';
import { db } from '../db/database';
import { UnknownTriggerError, triggerCatalogue, triggerNamed } from './triggers';
import { eventObject } from './payload';
import { postEventObject } from './post';
import { signatureHeaders, signingSecrets } from './signing';

/** How long a sample waits for the receiver: well within a GraphQL request's default deadline (QUERY_TIMEOUT, 10 s). */
export const sampleTimeoutMs = 5_000;

/** What a sample needs of its target. */
export const sampleTargetSelect = {
  id: true,
  url: true,
  schoolId: true,
  secret: true,
  previousSecret: true,
  previousSecretExpiresAt: true,
} as const;
type SampleTarget = {
  id: number;
  url: string;
  schoolId: number;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
};

/** What the receiver made of a sample. */
export interface SampleDelivery {
  targetId: number;
  url: string;
  type: string;
  webhookId: string;
  /** The event object, as the JSON text sent. */
  payload: string;
  statusCode: number | null;
  latencyMs: number;
  responseBody: string;
  error: string | null;
}

/** The target, wherever it belongs (for the command line, which acts for the operator); NotFoundError otherwise. */
export async function findSampleTarget(id: number): Promise<SampleTarget> {
  const target =
    Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647
      ? await db().triggerTarget.findUnique({ where: { id }, select: sampleTargetSelect })
      : null;
  if (!target) throw new NotFoundError('TriggerTarget', id);
  return target;
}

/**
 * Sends a sample `<trigger>.<operation>` event object (the trigger's first operation by default) to the target. Its
 * realm is the target's school and it carries no object: it stands for no real change.
 */
export async function sendSampleEvent(
  target: SampleTarget,
  request: { trigger: string; operation?: string | null; actorId: number | null },
  serverKey: Buffer,
): Promise<SampleDelivery> {
  const trigger = triggerCatalogue().find((listed) => listed.name === triggerNamed(request.trigger));
  if (!trigger) throw new UnknownTriggerError(request.trigger);
  const operation = request.operation ?? trigger.operations[0]!;
  if (!trigger.operations.includes(operation)) {
    throw new ValidationError([
      { field: 'operation', message: `must be one of the trigger's operations: ${trigger.operations.join(', ')}` },
    ]);
  }
  const type = `${trigger.name}.${operation}`;
  const at = new Date();
  const payload = JSON.stringify(
    eventObject(
      { actorId: request.actorId, createdAt: at.toISOString(), realmType: 'SCHOOL', realmId: target.schoolId },
      type,
      [{ ids: {}, object: null }],
    ),
  );
  const webhookId = `sample_${randomUUID()}`;
  const headers = signatureHeaders(webhookId, at, payload, signingSecrets(target, serverKey, at));
  const outcome = await postEventObject(target.url, payload, headers, {
    timeoutMs: sampleTimeoutMs,
    now: () => new Date(),
  });
  return {
    targetId: target.id,
    url: target.url,
    type,
    webhookId,
    payload,
    statusCode: outcome.statusCode,
    latencyMs: outcome.latencyMs,
    responseBody: outcome.responseBody,
    error: outcome.error,
  };
}

import { authorize } from '../../auth/policy';
import { findByStorableId } from '../../auth/realms';
import { decryptSecret, encryptSecret } from '../../auth/secrets';
import type { Viewer } from '../../auth/viewer';
import { ValidationError } from '../../core/errors';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import { isTrigger, triggerNamed } from '../../webhooks/triggers';
import { targetUrlProblem } from '../../webhooks/address';
import { findSampleTarget, sendSampleEvent } from '../../webhooks/sample';
import { newSigningSecret, secretOverlapMs } from '../../webhooks/signing';
import type { Prisma } from '../../generated/prisma/client';
import type { WebhookDeliveryStatus } from '../../generated/prisma/enums';
import { paged } from '../../graphql/paging';
import { managedTargetsWhere, triggerPolicy } from './trigger.policy';
import {
  createTargetSchema,
  maxSubscriptionItems,
  subscriptionItemSchema,
  updateTargetSchema,
} from './trigger.validation';

type TargetQuery = { include?: Prisma.TriggerTargetInclude; select?: Prisma.TriggerTargetSelect };

// Heard live only by the school's administrators: a target's URL is theirs to know.
const adminEvent = (type: `${string}.${string}`, object: string, description: string) =>
  defineEvent(type, { object, realms: ['SCHOOL'], description, audience: 'administrators' });
export const triggerEvents = {
  createTarget: adminEvent('trigger_target.create', 'TriggerTarget', 'A webhook target was registered.'),
  updateTarget: adminEvent(
    'trigger_target.update',
    'TriggerTarget',
    'A webhook target was changed, or its secret rotated.',
  ),
  disableTarget: adminEvent(
    'trigger_target.disable',
    'TriggerTarget',
    'A webhook target was disabled: its deliveries had failed for 5 days.',
  ),
  deleteTarget: adminEvent(
    'trigger_target.delete',
    'TriggerTarget',
    'A webhook target was deleted with its subscriptions.',
  ),
  subscribe: adminEvent(
    'trigger_subscription.create',
    'TriggerSubscription',
    'A webhook target was subscribed to a trigger.',
  ),
  changeSubscription: adminEvent(
    'trigger_subscription.update',
    'TriggerSubscription',
    "A subscription's options were changed.",
  ),
  unsubscribe: adminEvent(
    'trigger_subscription.delete',
    'TriggerSubscription',
    'A webhook target was unsubscribed from a trigger.',
  ),
};

const schoolRealm = (viewer: Viewer) => ({ type: 'SCHOOL' as const, id: viewer.user.schoolId });
const scopeOf = (viewer: Viewer) => ({ districtId: viewer.user.districtId, schoolId: viewer.user.schoolId });

/** The target's URL must pass the address policy; a refusal names the member. */
async function assertUsableUrl(url: string | undefined) {
  if (url === undefined) return;
  const problem = await targetUrlProblem(url);
  if (problem) throw new ValidationError([{ field: 'url', message: problem }]);
}

/** The targets of the viewer's school, for its trigger administrators (a 403 for others). */
export async function targetsWhere(viewer: Viewer) {
  await authorize(viewer, triggerPolicy, 'administer', viewer.user.schoolId, viewer.user.schoolId);
  return managedTargetsWhere(viewer);
}

export async function listTargets(viewer: Viewer, page: { start?: number | null; limit?: number | null }) {
  const where = await targetsWhere(viewer);
  return paged(page, {
    findMany: (query) => db().triggerTarget.findMany({ ...query, where }),
    count: () => db().triggerTarget.count({ where }),
  });
}

async function authorizeTarget(viewer: Viewer, id: number) {
  const target = await findByStorableId(id, (id) =>
    db().triggerTarget.findUnique({ where: { id }, select: { schoolId: true } }),
  );
  await authorize(viewer, triggerPolicy, 'manage', target, id);
}

export async function createTarget(viewer: Viewer, serverKey: Buffer, input: unknown, query: TargetQuery) {
  await authorize(viewer, triggerPolicy, 'administer', viewer.user.schoolId, viewer.user.schoolId);
  const data = validate(createTargetSchema, input);
  await assertUsableUrl(data.url);
  return writeTransaction(async (tx) => {
    const target = await tx.triggerTarget.create({
      ...query,
      // The deliveries' objects are rendered as their maker may see them (src/webhooks/payload.ts).
      data: {
        ...data,
        schoolId: viewer.user.schoolId,
        ownerId: viewer.id,
        secret: encryptSecret(newSigningSecret(), serverKey),
      },
    });
    await recordEvent(tx, triggerEvents.createTarget, {
      realm: schoolRealm(viewer),
      objectId: target.id,
      actorId: viewer.id,
      scope: scopeOf(viewer),
    });
    return target;
  });
}

export async function updateTarget(viewer: Viewer, id: number, input: unknown, query: TargetQuery) {
  await authorizeTarget(viewer, id);
  const data = validate(updateTargetSchema, input);
  await assertUsableUrl(data.url);
  return writeTransaction(async (tx) => {
    const target = await tx.triggerTarget.update({ ...query, where: { id }, data });
    await recordEvent(tx, triggerEvents.updateTarget, {
      realm: schoolRealm(viewer),
      objectId: id,
      actorId: viewer.id,
      scope: scopeOf(viewer),
    });
    return target;
  });
}

export async function deleteTarget(viewer: Viewer, id: number) {
  await authorizeTarget(viewer, id);
  await writeTransaction(async (tx) => {
    await tx.triggerTarget.delete({ where: { id } });
    await recordEvent(tx, triggerEvents.deleteTarget, {
      realm: schoolRealm(viewer),
      objectId: id,
      actorId: viewer.id,
      scope: scopeOf(viewer),
    });
  });
  return { id };
}

/**
 * A new signing secret; deliveries are signed with the old one too for 24 hours, so receivers can switch without
 * losing events.
 */
export async function rotateTargetSecret(viewer: Viewer, serverKey: Buffer, id: number, query: TargetQuery) {
  await authorizeTarget(viewer, id);
  return writeTransaction(async (tx) => {
    const { secret } = await tx.triggerTarget.findUniqueOrThrow({ where: { id }, select: { secret: true } });
    const now = new Date();
    const target = await tx.triggerTarget.update({
      ...query,
      where: { id },
      data: {
        secret: encryptSecret(newSigningSecret(), serverKey),
        previousSecret: secret,
        previousSecretExpiresAt: new Date(now.getTime() + secretOverlapMs),
        secretRotatedAt: now,
      },
    });
    await recordEvent(tx, triggerEvents.updateTarget, {
      realm: schoolRealm(viewer),
      objectId: id,
      actorId: viewer.id,
      scope: scopeOf(viewer),
    });
    return target;
  });
}

/** The plaintext signing secret, for the administrators who configure the receiver. */
export const targetSecret = (target: { secret: string }, serverKey: Buffer) => decryptSecret(target.secret, serverKey);

/** The subscriptions of the viewer's school's targets, in id order. */
/** The subscriptions of the viewer's school's targets, for its trigger administrators (a 403 for others). */
export async function subscriptionsWhere(viewer: Viewer) {
  return { target: await targetsWhere(viewer) };
}

export async function listSubscriptions(viewer: Viewer, page: { start?: number | null; limit?: number | null }) {
  const where = await subscriptionsWhere(viewer);
  return paged(page, {
    findMany: (query) => db().triggerSubscription.findMany({ ...query, where }),
    count: () => db().triggerSubscription.count({ where }),
  });
}

/** One item of a bulk change as the client sent it, with the target's URL when the target is the viewer's school's. */
export interface SubscriptionItem {
  targetId: string;
  trigger: string;
  version: string;
  subscribed: boolean;
  includeObject: boolean;
  targetUrl: string | null;
}

/** What became of an item of a bulk subscription change: its name in GraphQL, and its /v1 `status`. */
export const subscriptionItemStatuses = { APPLIED: 200, INVALID: 400, NOT_FOUND: 404 } as const;

export interface SubscriptionResult {
  item: SubscriptionItem;
  /** 200 when applied; 400 for an item that cannot be, 404 for a target that is not the school's. */
  status: (typeof subscriptionItemStatuses)[keyof typeof subscriptionItemStatuses];
  message: string | null;
}

type RawItem = {
  targetId?: unknown;
  trigger?: unknown;
  subscribed?: unknown;
  includeObject?: unknown;
  version?: unknown;
};

/**
 * Applies each item on its own (spec 3 and 7): subscribing is idempotent, and so is unsubscribing; an unknown trigger,
 * an unsupported version or a target of another school fails that item only. All applied items commit together.
 */
export async function updateSubscriptions(
  viewer: Viewer,
  items: readonly RawItem[],
): Promise<{ results: SubscriptionResult[] }> {
  await authorize(viewer, triggerPolicy, 'administer', viewer.user.schoolId, viewer.user.schoolId);
  if (items.length > maxSubscriptionItems) {
    throw new ValidationError([{ field: 'subscriptions', message: `must hold at most ${maxSubscriptionItems} items` }]);
  }
  const targetIds = items.flatMap((item) =>
    typeof item.targetId === 'string' && /^\d{1,9}$/.test(item.targetId) ? [Number(item.targetId)] : [],
  );
  const targets = new Map(
    (
      await db().triggerTarget.findMany({
        where: { id: { in: targetIds }, ...managedTargetsWhere(viewer) },
        select: { id: true, url: true },
      })
    ).map((target) => [target.id, target.url]),
  );
  return writeTransaction(async (tx) => {
    const results: SubscriptionResult[] = [];
    for (const raw of items) {
      const parsed = subscriptionItemSchema.safeParse(raw);
      const echo = {
        targetId: String(raw.targetId ?? ''),
        trigger: String(raw.trigger ?? ''),
        version: typeof raw.version === 'string' && raw.version ? raw.version : 'v1',
        subscribed: raw.subscribed === true,
        includeObject: raw.includeObject === true,
        targetUrl: targets.get(Number(raw.targetId)) ?? null,
      };
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        results.push({ item: echo, status: 400, message: `${issue.path.join('.')}: ${issue.message}` });
        continue;
      }
      const item = { ...parsed.data, trigger: triggerNamed(parsed.data.trigger) };
      const targetId = Number(item.targetId);
      if (!isTrigger(item.trigger)) {
        results.push({ item: echo, status: 400, message: `The trigger with name ${item.trigger} does not exist` });
        continue;
      }
      if (!targets.has(targetId)) {
        results.push({ item: echo, status: 404, message: `The target with id ${item.targetId} does not exist` });
        continue;
      }
      await applySubscription(tx, viewer, targetId, item);
      results.push({
        item: { ...echo, version: item.version, includeObject: item.includeObject },
        status: 200,
        message: null,
      });
    }
    return { results };
  });
}

async function applySubscription(
  tx: Prisma.TransactionClient,
  viewer: Viewer,
  targetId: number,
  item: { trigger: string; subscribed: boolean; includeObject: boolean; version: string },
) {
  const where = { targetId_trigger: { targetId, trigger: item.trigger } };
  const event = { realm: schoolRealm(viewer), actorId: viewer.id, scope: scopeOf(viewer) };
  const existing = await tx.triggerSubscription.findUnique({ where, select: { id: true } });
  if (!item.subscribed) {
    // Unsubscribing what is not subscribed changes nothing, and succeeds.
    if (!existing) return;
    await tx.triggerSubscription.delete({ where });
    await recordEvent(tx, triggerEvents.unsubscribe, { ...event, objectId: existing.id });
    return;
  }
  const fields = { includeObject: item.includeObject, version: item.version };
  const subscription = await tx.triggerSubscription.upsert({
    where,
    create: { targetId, trigger: item.trigger, ...fields },
    update: fields,
  });
  await recordEvent(tx, existing ? triggerEvents.changeSubscription : triggerEvents.subscribe, {
    ...event,
    objectId: subscription.id,
  });
}

/** Pausing holds deliveries (they queue); resuming sends what queued, and also re-enables a disabled target. */
export async function setTargetPaused(viewer: Viewer, id: number, paused: boolean, query: TargetQuery) {
  await authorizeTarget(viewer, id);
  const data = paused ? { pausedAt: new Date() } : { pausedAt: null, disabledAt: null, failingSince: null };
  return writeTransaction(async (tx) => {
    const target = await tx.triggerTarget.update({ ...query, where: { id }, data });
    await recordEvent(tx, triggerEvents.updateTarget, {
      realm: schoolRealm(viewer),
      objectId: id,
      actorId: viewer.id,
      scope: scopeOf(viewer),
    });
    return target;
  });
}

/** The deliveries of one status, or all of them. */
export const deliveryStatusWhere = (args: { status?: WebhookDeliveryStatus | null }) =>
  args.status ? { status: args.status } : {};

/** The log of a target's deliveries, oldest first, optionally of one status. */
export function targetDeliveries(
  target: { id: number },
  args: { status?: WebhookDeliveryStatus | null; start?: number | null; limit?: number | null },
) {
  const where = { targetId: target.id, ...deliveryStatusWhere(args) };
  return paged(args, {
    findMany: (query) => db().webhookDelivery.findMany({ ...query, where }),
    count: () => db().webhookDelivery.count({ where }),
  });
}

type DeliveryQuery = { include?: Prisma.WebhookDeliveryInclude; select?: Prisma.WebhookDeliverySelect };

/** Sends one delivery again, now, whatever became of it (the receiver gets the same `webhook-id`). */
export async function redeliver(viewer: Viewer, id: string, query: DeliveryQuery) {
  const deliveryId = /^\d{1,18}$/.test(id) ? BigInt(id) : null;
  const delivery =
    deliveryId === null
      ? null
      : await db().webhookDelivery.findUnique({ where: { id: deliveryId }, select: { targetId: true } });
  const target =
    delivery && (await db().triggerTarget.findUnique({ where: { id: delivery.targetId }, select: { schoolId: true } }));
  await authorize(viewer, triggerPolicy, 'manage', target, id, 'WebhookDelivery');
  return writeTransaction(async (tx) => {
    const requeued = await tx.webhookDelivery.update({
      ...query,
      where: { id: deliveryId! },
      data: { status: 'PENDING', nextAttemptAt: new Date(), leasedUntil: null },
    });
    await recordEvent(tx, triggerEvents.updateTarget, {
      realm: schoolRealm(viewer),
      objectId: delivery!.targetId,
      actorId: viewer.id,
      scope: scopeOf(viewer),
    });
    return requeued;
  });
}

/** Queues again every delivery of a target since a time (a receiver that lost its data asks for it again). */
export async function replayTarget(viewer: Viewer, id: number, since: Date) {
  await authorizeTarget(viewer, id);
  return writeTransaction(async (tx) => {
    const { count } = await tx.webhookDelivery.updateMany({
      where: { targetId: id, createdAt: { gte: since }, leasedUntil: null },
      data: { status: 'PENDING', nextAttemptAt: new Date() },
    });
    await recordEvent(tx, triggerEvents.updateTarget, {
      realm: schoolRealm(viewer),
      objectId: id,
      actorId: viewer.id,
      scope: scopeOf(viewer),
    });
    return { id, requeued: count };
  });
}

/**
 * Sends a sample event of a trigger to a target of the viewer's school and answers with the receiver's status and
 * latency. Nothing is written: a sample changes nothing and is not a delivery (see sample.ts).
 */
export async function sendSample(
  viewer: Viewer,
  serverKey: Buffer,
  id: number,
  trigger: string,
  operation: string | null | undefined,
) {
  await authorizeTarget(viewer, id);
  return sendSampleEvent(await findSampleTarget(id), { trigger, operation, actorId: viewer.id }, serverKey);
}

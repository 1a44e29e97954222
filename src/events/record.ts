import type { Prisma } from '../generated/prisma/client';
import type { RealmType } from '../generated/prisma/enums';

export interface DomainEventInput {
  /** `<resource>.<action>`, such as `group.create`. */
  type: string;
  realm: { type: RealmType; id: number };
  objectId: number;
  actorId: number | null;
  districtId: number | null;
  schoolId: number | null;
  data?: Prisma.InputJsonObject;
}

/**
 * Records a domain event inside the transaction of the change it describes, so a rolled-back change leaves no event
 * and a committed one always has its event. Webhook delivery and subscriptions read these rows in id order.
 */
export async function recordEvent(tx: Prisma.TransactionClient, event: DomainEventInput): Promise<void> {
  await tx.domainEvent.create({
    data: {
      type: event.type,
      realmType: event.realm.type,
      realmId: event.realm.id,
      objectId: event.objectId,
      actorId: event.actorId,
      districtId: event.districtId,
      schoolId: event.schoolId,
      data: event.data ?? {},
    },
  });
}

import type { Prisma } from '../generated/prisma/client';
import type { RealmType } from '../generated/prisma/enums';

/** Realms that are going away: the ids of each kind. */
export type RealmSet = { type: RealmType; ids: number[] }[];

/** The filter every realm-owned model understands: its `realmType` and `realmId` columns. */
export interface RealmOwnedWhere {
  OR: { realmType: RealmType; realmId: { in: number[] } }[];
}

interface RealmOwnedModel {
  /** The Prisma model name, which the coverage test compares with the schema. */
  model: Prisma.ModelName;
  deleteIn(tx: Prisma.TransactionClient, where: RealmOwnedWhere): Promise<unknown>;
}

const owned = new Map<Prisma.ModelName, RealmOwnedModel>();

/**
 * A module whose model is owned by a realm (`realmType`, `realmId`) joins here, so that deleting a realm deletes what it
 * owns without the realm's module naming each resource. The realm of such a row is polymorphic, so the database cannot
 * cascade it.
 */
export function ownedByRealm(model: Prisma.ModelName, deleteIn: RealmOwnedModel['deleteIn']): void {
  owned.set(model, { model, deleteIn });
}

export const realmOwnedModels = (): Prisma.ModelName[] => [...owned.keys()];

/** Deletes everything the given realms own, inside the transaction that deletes the realms. */
export async function deleteRealmContents(tx: Prisma.TransactionClient, realms: RealmSet): Promise<void> {
  const where: RealmOwnedWhere = { OR: realms.map(({ type, ids }) => ({ realmType: type, realmId: { in: ids } })) };
  for (const { deleteIn } of owned.values()) await deleteIn(tx, where);
}

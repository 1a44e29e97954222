import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import type { RealmRef } from '../auth/realms';
import { db } from '../db/database';
import type { District, Group, School, Section, User } from '../generated/prisma/client';
import type { RealmType } from '../generated/prisma/enums';
import { DistrictType } from '../modules/districts/district.type';
import { GroupType } from '../modules/groups/group.type';
import { SectionType } from '../modules/roster/roster.type';
import { SchoolType } from '../modules/schools/school.type';
import { UserType } from '../modules/users/user.type';
import { visibleUsersWhere } from '../modules/users/user.policy';
import type { Context } from './builder';
import { builder } from './builder';

/** The GraphQL type of each kind of realm. */
const typeNames = { DISTRICT: 'District', SCHOOL: 'School', USER: 'User', SECTION: 'Section', GROUP: 'Group' } as const;

/** Which realm kind a loaded row is, for the union's type resolution. */
const kindOfRow = new WeakMap<object, RealmType>();

/**
 * One statement per kind of realm, whatever the number of rows referring to one. Users are filtered as `user(id)`
 * filters them, so a reference never shows a user the viewer could not look up; the other kinds are the realms of
 * content the viewer already reads.
 */
function loadKind(type: RealmType, ids: number[], context: Context): Promise<{ id: number }[]> {
  const where = { id: { in: ids } };
  switch (type) {
    case 'DISTRICT':
      return db().district.findMany({ where });
    case 'SCHOOL':
      return db().school.findMany({ where });
    case 'USER':
      return db().user.findMany({ where: { AND: [where, visibleUsersWhere(context.viewer)] } });
    case 'SECTION':
      return db().section.findMany({ where });
    case 'GROUP':
      return db().group.findMany({ where });
  }
}

function newRealmLoader(context: Context) {
  return new DataLoader<RealmRef, object | null, string>(
    async (refs) => {
      const byType = new Map<RealmType, number[]>();
      for (const ref of refs) byType.set(ref.type, [...(byType.get(ref.type) ?? []), ref.id]);
      const found = new Map<string, object>();
      await Promise.all(
        [...byType].map(async ([type, ids]) => {
          for (const row of await loadKind(type, [...new Set(ids)], context)) {
            kindOfRow.set(row, type);
            found.set(`${type}:${row.id}`, row);
          }
        }),
      );
      return refs.map((ref) => found.get(`${ref.type}:${ref.id}`) ?? null);
    },
    { cacheKeyFn: (ref) => `${ref.type}:${ref.id}` },
  );
}

/**
 * Loaders live as long as their request's execution: nothing is cached across requests or viewers. A Pothos context
 * cache, so that it is let go when the execution ends (useContextCacheRelease).
 */
const realmLoaders = createContextCache((context: Context) => newRealmLoader(context));

/** The row of each kind of realm. */
interface RealmRows {
  DISTRICT: District;
  SCHOOL: School;
  USER: User;
  SECTION: Section;
  GROUP: Group;
}

/** The realm (or user) a row refers to, batched with every other reference resolved in the same request. */
export function loadRealm<Type extends RealmType>(
  context: Context,
  ref: { type: Type; id: number },
): Promise<RealmRows[Type] | null> {
  return realmLoaders(context).load(ref) as Promise<RealmRows[Type] | null>;
}

export const RealmUnion = builder.unionType('Realm', {
  description: 'The owner of a realm-scoped resource: a district, school (or building), user, course section or group.',
  types: [DistrictType, SchoolType, UserType, SectionType, GroupType],
  resolveType: (row) => typeNames[kindOfRow.get(row)!],
});

type RealmOwned = { realmType: RealmType; realmId: number };

/** `realm`: the object `realmType` and `realmId` name, or null when it is hidden from the viewer. */
export const realmField = {
  type: RealmUnion,
  nullable: true,
  description: 'The owner (`realmType` and `realmId` as an object); null when the viewer may not see it.',
  select: { realmType: true, realmId: true },
  resolve: (row: RealmOwned, _args: object, context: Context) =>
    loadRealm(context, { type: row.realmType, id: row.realmId }),
} as const;

/** A user a row refers to by id (its author, its creator), or null when there is none or the viewer may not see them. */
export const userReference = (userId: number | null, context: Context) =>
  userId === null ? null : loadRealm(context, { type: 'USER', id: userId });

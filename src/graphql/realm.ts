import { z } from 'zod';
import { RealmType } from '../generated/prisma/enums';
import type { RealmRef } from '../auth/realms';
import { builder } from './builder';
import { httpError } from '../core/errors';
import { type GlobalIdType, readId } from '../core/global-id';
import { idOfNamedType } from '../core/validation';
import { inputFromSchema } from './inputs';

export const RealmTypeEnum = builder.enumType(RealmType, {
  name: 'RealmType',
  description: 'Kinds of owner a realm-scoped resource has; the /v1 realm prefixes.',
  values: {
    DISTRICT: { description: 'A school district (`/v1/districts/{id}`).' },
    SCHOOL: { description: 'A school or a building of one (`/v1/schools/{id}`).' },
    USER: { description: "A person's own space (`/v1/users/{id}`)." },
    SECTION: { description: 'A course section: one class of a course (`/v1/sections/{id}`).' },
    GROUP: { description: 'A group, such as a club or a staff team (`/v1/groups/{id}`).' },
  },
});

/** What names a realm; its id is read for its type by `realmRef`, which answers 400 for an id of another type. */
export const realmInputSchema = z.strictObject({
  type: z.enum(RealmType).describe('Kind of owner.'),
  id: idOfNamedType.describe('Id of the owner: its global id (`id`) or its `databaseId`.'),
});

export const RealmInput = inputFromSchema(
  'RealmInput',
  realmInputSchema,
  'The owner of a realm-scoped resource, such as a group or a course section.',
  { type: RealmTypeEnum },
);

/** The GraphQL type each realm kind names: its global ids are of that type. */
export const realmTypeNames: Record<RealmType, GlobalIdType> = {
  DISTRICT: 'District',
  SCHOOL: 'School',
  USER: 'User',
  SECTION: 'Section',
  GROUP: 'Group',
};

/**
 * Reads an id argument that names an object of `type`: its global id (what the object's `id` answers) or its database
 * id (what /v1 and older clients send), both strings in GraphQL. Anything else, or a global id of another type, is a
 * 400. A numeric id too large for the database is well formed but names nothing: lookups treat it as unknown
 * (isStorableId), so clients get "not found" as for any other.
 */
export function parseId(value: string | number, type: GlobalIdType, field = 'id'): number {
  const reading = readId(String(value), type);
  if ('error' in reading) throw httpError(400, 'BAD_USER_INPUT', `${field} ${reading.error}`);
  return reading.id;
}

export function realmRef(input: { type: RealmType; id: string | number }): RealmRef {
  return { type: input.type, id: parseId(input.id, realmTypeNames[input.type], 'realm.id') };
}

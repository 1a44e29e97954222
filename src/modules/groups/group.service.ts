import { randomFillSync } from 'node:crypto';
import { authorize } from '../../auth/policy';
import { findByStorableId, realmFacts } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { ConflictError, ValidationError } from '../../core/errors';
import { notFoundOnMissing } from '../../db/missing-reference';
import { deleteRealmContents } from '../../core/realm-content';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { createInOneStatement, recordEvent, writeTransaction } from '../../outbox/record';
import type { Group, Prisma } from '../../generated/prisma/client';
import { groupPolicy, prepareGroupAccess } from './group.policy';
import { groupWithCreator, rowAndDistrict } from './group.sql';
import { createGroupSchema, groupCategorySchema, requestedSchool, updateGroupSchema } from './group.validation';

type GroupQuery = { include?: Prisma.GroupInclude; select?: Prisma.GroupSelect };
type CategoryQuery = { include?: Prisma.GroupCategoryInclude; select?: Prisma.GroupCategorySelect };

const groupEvent = (type: `group.${string}`, description: string) =>
  defineEvent(type, { object: 'Group', realms: ['GROUP'], description });
export const groupEvents = {
  create: groupEvent('group.create', 'A group was created.'),
  update: groupEvent('group.update', 'A group was changed.'),
  delete: groupEvent('group.delete', 'A group was deleted with what it owned.'),
  createCategory: defineEvent('group_category.create', {
    object: 'GroupCategory',
    realms: ['DISTRICT'],
    description: 'A group category was created in a district.',
  }),
};

// No 0/O or 1/I: access codes are read aloud and typed by hand. 32 letters, so a random byte picks one evenly.
const codeAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
// Drawn from a pool that one randomFillSync refills every 409 codes, as Node's randomUUID does: a randomBytes call
// per code was 2% of a create's CPU under load (OpenSSL's locking and fork check on every call).
const randomPool = Buffer.alloc(4096);
let randomPoolUsed = randomPool.length;
const newAccessCode = () => {
  if (randomPoolUsed + 10 > randomPool.length) {
    randomFillSync(randomPool);
    randomPoolUsed = 0;
  }
  let code = '';
  for (let index = 0; index < 10; index++) {
    code += (index === 5 ? '-' : '') + codeAlphabet[randomPool[randomPoolUsed++]! % codeAlphabet.length];
  }
  return code;
};

/** A building must belong to the group's school, and a category to its district. */
async function assertReferences(
  fields: { buildingId?: string | null; categoryId?: string | null },
  schoolId: number,
  districtId: number,
) {
  const issues = [];
  if (fields.buildingId) {
    const building = await findByStorableId(fields.buildingId, (id) =>
      db().school.findUnique({ where: { id }, select: { parentId: true } }),
    );
    if (building?.parentId !== schoolId)
      issues.push({ field: 'buildingId', message: "is not a building of the group's school" });
  }
  if (fields.categoryId) {
    const category = await findByStorableId(fields.categoryId, (id) =>
      db().groupCategory.findUnique({ where: { id }, select: { districtId: true } }),
    );
    if (category?.districtId !== districtId)
      issues.push({ field: 'categoryId', message: 'is not a group category of this district' });
  }
  if (issues.length) throw new ValidationError(issues);
}

const groupRealm = (id: number) => ({ type: 'GROUP' as const, id });
/** An id member of an input: a string of digits, null to remove the reference. */
const reference = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null ? null : Number(value);

export async function createGroup(viewer: Viewer, input: unknown, query: GroupQuery) {
  const named = requestedSchool(input) ?? viewer.user.schoolId;
  await authorize(viewer, groupPolicy, 'create', named, named, 'School');
  // schoolId was read first, by requestedSchool.
  const { buildingId, categoryId, schoolId: _named, ...fields } = validate(createGroupSchema, input);
  const school = await realmFacts(viewer, { type: 'SCHOOL', id: named });
  // Naming a building as the school is read as "this building of its school", which its facts have checked: only a
  // building named besides a school is looked up.
  const schoolId = school.schoolId!;
  const building = school.buildingId !== null ? String(school.buildingId) : buildingId;
  const references = { buildingId: school.buildingId === null ? buildingId : undefined, categoryId };
  await assertReferences(references, schoolId, school.districtId);
  // Loaded before the write, so that nothing after the commit can fail: the answer of a committed write must not be
  // an error, or a retrying client creates the group twice.
  await prepareGroupAccess(viewer, school.districtId, schoolId);
  // The group, its creator's membership and its event are one statement (group.sql.ts). The INSERT's row answers,
  // with the school's district placed on it, unless the document asks for more (a relation, the new group's members):
  // then the group is read in the write's transaction, once the membership exists.
  const createdAt = new Date().toISOString();
  const buildingRef = reference(building);
  const create = {
    event: {
      kind: groupEvents.create,
      realmType: 'GROUP' as const,
      actorId: viewer.id,
      scope: { ...school, buildingId: buildingRef ?? null },
    },
    // The input's fields spread last in the row's values (docs/adding-a-resource.md: young garbage); none is named before.
    ...groupWithCreator(
      {
        schoolId,
        buildingId: buildingRef,
        categoryId: reference(categoryId),
        accessCode: newAccessCode(),
        createdAt,
        ...fields,
      },
      viewer.id,
    ),
  };
  // A school or building known from the viewer's record may have been deleted since (within the credential cache's
  // 1 s), and a building or category read above, just now: the write then meets it missing, as a moment later.
  const missing = notFoundOnMissing({
    groups_schoolId_fkey: ['School', named],
    groups_buildingId_fkey: ['School', building],
    groups_categoryId_fkey: ['GroupCategory', categoryId],
  });
  const created = await (rowAndDistrict(query)
    ? createInOneStatement<Group>(create).then((group) => ({ ...group, school: { districtId: school.districtId } }))
    : createInOneStatement(create, (tx, group: Group) =>
        tx.group.findUniqueOrThrow({ ...query, where: { id: group.id } }),
      )
  ).catch(missing);
  // The viewer administers the new group from now on. Their memberships are memoised per request, and a document may
  // create several groups: without this, `accessCode` of every group after the first resolved to null.
  viewer.joinedGroup(created.id, true);
  return created;
}

export async function updateGroup(viewer: Viewer, id: number, input: unknown, query: GroupQuery) {
  await authorize(viewer, groupPolicy, 'update', id, id);
  const facts = await realmFacts(viewer, groupRealm(id));
  const { buildingId, categoryId, ...fields } = validate(updateGroupSchema, input);
  await assertReferences({ buildingId, categoryId }, facts.schoolId!, facts.districtId);
  return writeTransaction(async (tx) => {
    const group = await tx.group.update({
      ...query,
      where: { id },
      data: { ...fields, buildingId: reference(buildingId), categoryId: reference(categoryId) },
    });
    await recordEvent(tx, groupEvents.update, {
      realm: groupRealm(id),
      objectId: id,
      actorId: viewer.id,
      scope: facts,
    });
    return group;
  });
}

export async function deleteGroup(viewer: Viewer, id: number) {
  await authorize(viewer, groupPolicy, 'delete', id, id);
  const facts = await realmFacts(viewer, groupRealm(id));
  await writeTransaction(async (tx) => {
    await deleteRealmContents(tx, [{ type: 'GROUP', ids: [id] }]);
    await tx.group.delete({ where: { id } });
    await recordEvent(tx, groupEvents.delete, {
      realm: groupRealm(id),
      objectId: id,
      actorId: viewer.id,
      scope: facts,
    });
  });
  return { id };
}

export async function createGroupCategory(viewer: Viewer, input: unknown, query: CategoryQuery) {
  const districtId = viewer.user.districtId;
  await authorize(viewer, groupPolicy, 'createCategory', districtId, districtId);
  const { title } = validate(groupCategorySchema, input);
  const existing = await db().groupCategory.findUnique({
    where: { districtId_title: { districtId, title } },
    select: { id: true },
  });
  if (existing) throw new ConflictError('A category with this title exists in the district', 'title');
  return writeTransaction(async (tx) => {
    const category = await tx.groupCategory.create({ ...query, data: { districtId, title } });
    await recordEvent(tx, groupEvents.createCategory, {
      realm: { type: 'DISTRICT', id: districtId },
      objectId: category.id,
      actorId: viewer.id,
      scope: { districtId, schoolId: null },
    });
    return category;
  });
}

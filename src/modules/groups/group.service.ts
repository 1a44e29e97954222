import { randomInt } from 'node:crypto';
import { accessTo, assertCan, canCreateGroupIn, findByStorableId } from '../../auth/permissions';
import type { Viewer } from '../../auth/viewer';
import { db } from '../../db/database';
import { recordEvent, writeTransaction } from '../../events/record';
import type { Prisma } from '../../generated/prisma/client';
import { ConflictError, NotFoundError, ValidationError, forbidden } from '../../core/errors';
import { validate } from '../../core/validation';
import { createGroupSchema, groupCategorySchema, updateGroupSchema } from './group.validation';

type GroupQuery = { include?: Prisma.GroupInclude; select?: Prisma.GroupSelect };
type CategoryQuery = { include?: Prisma.GroupCategoryInclude; select?: Prisma.GroupCategorySelect };

// No 0/O or 1/I: access codes are read aloud and typed by hand.
const codeAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const newAccessCode = () => {
  const part = () => Array.from({ length: 5 }, () => codeAlphabet[randomInt(codeAlphabet.length)]).join('');
  return `${part()}-${part()}`;
};

/** A building must belong to the group's school, and a category to its district. */
async function assertReferences(
  fields: { buildingId?: string | null; categoryId?: string | null },
  schoolId: number,
  districtId: number,
) {
  const issues = [];
  if (fields.buildingId) {
    const building = await findByStorableId(fields.buildingId, (id) => db().school.findUnique({ where: { id }, select: { parentId: true } }));
    if (building?.parentId !== schoolId) issues.push({ field: 'buildingId', message: 'is not a building of the group\'s school' });
  }
  if (fields.categoryId) {
    const category = await findByStorableId(fields.categoryId, (id) => db().groupCategory.findUnique({ where: { id }, select: { districtId: true } }));
    if (category?.districtId !== districtId) issues.push({ field: 'categoryId', message: 'is not a group category of this district' });
  }
  if (issues.length) throw new ValidationError(issues);
}

const groupEvent = (type: string, viewer: Viewer, groupId: number, districtId: number, schoolId: number) => ({
  type,
  realm: { type: 'GROUP' as const, id: groupId },
  objectId: groupId,
  actorId: viewer.id,
  districtId,
  schoolId,
});

export async function createGroup(viewer: Viewer, input: unknown, query: GroupQuery) {
  const { schoolId: requestedSchool, buildingId, categoryId, ...fields } = validate(createGroupSchema, input);
  const named = requestedSchool ? Number(requestedSchool) : viewer.user.schoolId;
  const school = await accessTo(viewer, { type: 'SCHOOL', id: named });
  if (!school || school.access === 'hidden') throw new NotFoundError('School', named);
  // Naming a building as the school is read as "this building of its school".
  const schoolId = school.facts.schoolId!;
  const building = school.facts.buildingId !== null ? String(school.facts.buildingId) : buildingId;
  if (!canCreateGroupIn(viewer, school.facts.districtId, schoolId)) {
    throw forbidden('Only staff of the school create groups in it');
  }
  await assertReferences({ buildingId: building, categoryId }, schoolId, school.facts.districtId);
  const created = await writeTransaction(async (tx) => {
    const group = await tx.group.create({
      ...query,
      data: {
        ...fields,
        schoolId,
        buildingId: building ? Number(building) : null,
        categoryId: categoryId ? Number(categoryId) : null,
        accessCode: newAccessCode(),
        memberships: { create: { userId: viewer.id, admin: true } },
      },
    });
    await recordEvent(tx, groupEvent('group.create', viewer, group.id, school.facts.districtId, schoolId));
    return group;
  });
  // The viewer administers the new group from now on. Their memberships are memoised per request, and a document may
  // create several groups: without this, `accessCode` of every group after the first resolved to null.
  (await viewer.groupMemberships()).set(created.id, true);
  return created;
}

export async function updateGroup(viewer: Viewer, id: number, input: unknown, query: GroupQuery) {
  const facts = await assertCan(viewer, 'administer', { type: 'GROUP', id });
  const { buildingId, categoryId, ...fields } = validate(updateGroupSchema, input);
  await assertReferences({ buildingId, categoryId }, facts.schoolId!, facts.districtId);
  return writeTransaction(async (tx) => {
    const group = await tx.group.update({
      ...query,
      where: { id },
      data: {
        ...fields,
        ...(buildingId !== undefined ? { buildingId: buildingId ? Number(buildingId) : null } : {}),
        ...(categoryId !== undefined ? { categoryId: categoryId ? Number(categoryId) : null } : {}),
      },
    });
    await recordEvent(tx, groupEvent('group.update', viewer, id, facts.districtId, facts.schoolId!));
    return group;
  });
}

export async function deleteGroup(viewer: Viewer, id: number) {
  const facts = await assertCan(viewer, 'administer', { type: 'GROUP', id });
  await writeTransaction(async (tx) => {
    await tx.blogPost.deleteMany({ where: { realmType: 'GROUP', realmId: id } });
    await tx.group.delete({ where: { id } });
    await recordEvent(tx, groupEvent('group.delete', viewer, id, facts.districtId, facts.schoolId!));
  });
  return { id };
}

export async function createGroupCategory(viewer: Viewer, input: unknown, query: CategoryQuery) {
  if (viewer.user.role !== 'DISTRICT_ADMIN') throw forbidden('Only district administrators create group categories');
  const { title } = validate(groupCategorySchema, input);
  const districtId = viewer.user.districtId;
  const existing = await db().groupCategory.findUnique({ where: { districtId_title: { districtId, title } }, select: { id: true } });
  if (existing) throw new ConflictError('A category with this title exists in the district', 'title');
  return writeTransaction(async (tx) => {
    const category = await tx.groupCategory.create({ ...query, data: { districtId, title } });
    await recordEvent(tx, {
      type: 'group_category.create',
      realm: { type: 'DISTRICT', id: districtId },
      objectId: category.id,
      actorId: viewer.id,
      districtId,
      schoolId: null,
    });
    return category;
  });
}

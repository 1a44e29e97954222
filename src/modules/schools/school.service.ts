import { assertCan } from '../../auth/permissions';
import type { Viewer } from '../../auth/viewer';
import type { Prisma } from '../../generated/prisma/client';
import { recordEvent, writeTransaction } from '../../events/record';
import { ValidationError, forbidden } from '../../core/errors';
import { validate } from '../../core/validation';
import { createSchoolSchema, updateSchoolSchema } from './school.validation';

/** Pothos' Prisma selection for the School the mutation returns. */
type SchoolQuery = { include?: Prisma.SchoolInclude; select?: Prisma.SchoolSelect };

/** `school.<action>` or `building.<action>`, so subscribers can tell a building from its school. */
function event(action: string, viewer: Viewer, school: { id: number; districtId: number; parentId: number | null }) {
  return {
    type: `${school.parentId === null ? 'school' : 'building'}.${action}`,
    realm: { type: 'SCHOOL' as const, id: school.id },
    objectId: school.id,
    actorId: viewer.id,
    districtId: school.districtId,
    schoolId: school.parentId ?? school.id,
  };
}

export async function createSchool(viewer: Viewer, input: unknown, query: SchoolQuery) {
  if (viewer.user.role !== 'DISTRICT_ADMIN') throw forbidden('Only district administrators create schools');
  const data = validate(createSchoolSchema, input);
  return writeTransaction(async (tx) => {
    const school = await tx.school.create({ ...query, data: { ...data, districtId: viewer.user.districtId } });
    await recordEvent(tx, event('create', viewer, { id: school.id, districtId: viewer.user.districtId, parentId: null }));
    return school;
  });
}

export async function createBuilding(viewer: Viewer, schoolId: number, input: unknown, query: SchoolQuery) {
  const facts = await assertCan(viewer, 'administer', { type: 'SCHOOL', id: schoolId });
  if (facts.buildingId !== null) {
    throw new ValidationError([{ field: 'schoolId', message: 'is a building; buildings belong to a school, not to a building' }]);
  }
  const data = validate(createSchoolSchema, input);
  return writeTransaction(async (tx) => {
    const building = await tx.school.create({ ...query, data: { ...data, districtId: facts.districtId, parentId: schoolId } });
    await recordEvent(tx, event('create', viewer, { id: building.id, districtId: facts.districtId, parentId: schoolId }));
    return building;
  });
}

export async function updateSchool(viewer: Viewer, id: number, input: unknown, query: SchoolQuery) {
  const facts = await assertCan(viewer, 'administer', { type: 'SCHOOL', id });
  const data = validate(updateSchoolSchema, input);
  return writeTransaction(async (tx) => {
    const school = await tx.school.update({ ...query, where: { id }, data });
    await recordEvent(tx, event('update', viewer, { id, districtId: facts.districtId, parentId: facts.buildingId ? facts.schoolId : null }));
    return school;
  });
}

/**
 * The realms whose blog posts go with a deleted school or building. A building takes only its own posts (its groups and
 * users stay in the school); a school takes those of its buildings, groups, users and sections too, which the
 * database removes by cascade but whose posts it cannot, the realm of a post being polymorphic.
 */
async function realmsDeletedWith(tx: Prisma.TransactionClient, id: number, isBuilding: boolean): Promise<Prisma.BlogPostWhereInput[]> {
  if (isBuilding) return [{ realmType: 'SCHOOL', realmId: id }];
  const ids = (rows: { id: number }[]) => rows.map((row) => row.id);
  const schoolIds = [id, ...ids(await tx.school.findMany({ where: { parentId: id }, select: { id: true } }))];
  const inSchool = { in: schoolIds };
  return [
    { realmType: 'SCHOOL', realmId: inSchool },
    { realmType: 'GROUP', realmId: { in: ids(await tx.group.findMany({ where: { schoolId: inSchool }, select: { id: true } })) } },
    { realmType: 'USER', realmId: { in: ids(await tx.user.findMany({ where: { schoolId: inSchool }, select: { id: true } })) } },
    {
      realmType: 'SECTION',
      realmId: { in: ids(await tx.section.findMany({ where: { course: { schoolId: inSchool } }, select: { id: true } })) },
    },
  ];
}

/** Deleting a school removes its buildings, users, courses and groups with it, so only district admins may; school admins may delete their buildings. */
export async function deleteSchool(viewer: Viewer, id: number) {
  const facts = await assertCan(viewer, 'administer', { type: 'SCHOOL', id });
  if (facts.buildingId === null && !viewer.isDistrictAdmin(facts.districtId)) {
    throw forbidden('Only district administrators delete schools');
  }
  if (facts.buildingId === null && viewer.user.schoolId === id) {
    throw new ValidationError([{ field: 'id', message: 'is your own school; deleting it would delete your account' }]);
  }
  await writeTransaction(async (tx) => {
    await tx.blogPost.deleteMany({ where: { OR: await realmsDeletedWith(tx, id, facts.buildingId !== null) } });
    await tx.school.delete({ where: { id } });
    await recordEvent(tx, event('delete', viewer, { id, districtId: facts.districtId, parentId: facts.buildingId ? facts.schoolId : null }));
  });
  return { id };
}

import { authorize } from '../../auth/policy';
import { realmFacts } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { ValidationError } from '../../core/errors';
import { type RealmSet, deleteRealmContents } from '../../core/realm-content';
import { validate } from '../../core/validation';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import type { Prisma } from '../../generated/prisma/client';
import { schoolPolicy } from './school.policy';
import { createSchoolSchema, updateSchoolSchema } from './school.validation';

/** Pothos' Prisma selection for the School the mutation returns. */
type SchoolQuery = { include?: Prisma.SchoolInclude; select?: Prisma.SchoolSelect };

const event = (type: `${string}.${string}`, description: string) =>
  defineEvent(type, { object: 'School', realms: ['SCHOOL'], description });

// Buildings have events of their own, so subscribers can tell a building from its school.
export const schoolEvents = {
  school: {
    create: event('school.create', 'A school was created.'),
    update: event('school.update', 'A school was changed.'),
    delete: event('school.delete', 'A school was deleted with everything in it.'),
  },
  building: {
    create: event('building.create', 'A building was added to a school.'),
    update: event('building.update', 'A building was changed.'),
    delete: event('building.delete', 'A building was deleted.'),
  },
};

function record(
  tx: Prisma.TransactionClient,
  action: 'create' | 'update' | 'delete',
  viewer: Viewer,
  school: { id: number; districtId: number; parentId: number | null },
) {
  const kind = school.parentId === null ? schoolEvents.school : schoolEvents.building;
  return recordEvent(tx, kind[action], {
    realm: { type: 'SCHOOL', id: school.id },
    objectId: school.id,
    actorId: viewer.id,
    scope: { districtId: school.districtId, schoolId: school.parentId ?? school.id },
  });
}

const schoolRealm = (id: number) => ({ type: 'SCHOOL' as const, id });

export async function createSchool(viewer: Viewer, input: unknown, query: SchoolQuery) {
  const districtId = viewer.user.districtId;
  await authorize(viewer, schoolPolicy, 'create', districtId, districtId);
  const data = validate(createSchoolSchema, input);
  return writeTransaction(async (tx) => {
    const school = await tx.school.create({ ...query, data: { ...data, districtId } });
    await record(tx, 'create', viewer, { id: school.id, districtId, parentId: null });
    return school;
  });
}

export async function createBuilding(viewer: Viewer, schoolId: number, input: unknown, query: SchoolQuery) {
  await authorize(viewer, schoolPolicy, 'createBuilding', schoolId, schoolId);
  const facts = await realmFacts(viewer, schoolRealm(schoolId));
  if (facts.buildingId !== null) {
    throw new ValidationError([
      { field: 'schoolId', message: 'is a building; buildings belong to a school, not to a building' },
    ]);
  }
  const data = validate(createSchoolSchema, input);
  return writeTransaction(async (tx) => {
    const building = await tx.school.create({
      ...query,
      data: { ...data, districtId: facts.districtId, parentId: schoolId },
    });
    await record(tx, 'create', viewer, { id: building.id, districtId: facts.districtId, parentId: schoolId });
    return building;
  });
}

export async function updateSchool(viewer: Viewer, id: number, input: unknown, query: SchoolQuery) {
  await authorize(viewer, schoolPolicy, 'update', id, id);
  const facts = await realmFacts(viewer, schoolRealm(id));
  const data = validate(updateSchoolSchema, input);
  return writeTransaction(async (tx) => {
    const school = await tx.school.update({ ...query, where: { id }, data });
    await record(tx, 'update', viewer, {
      id,
      districtId: facts.districtId,
      parentId: facts.buildingId ? facts.schoolId : null,
    });
    return school;
  });
}

/**
 * The realms that go with a deleted school or building. A building takes only itself (its groups and users stay in
 * the school); a school takes its buildings, groups, users and sections too, which the database removes by cascade.
 */
async function realmsDeletedWith(tx: Prisma.TransactionClient, id: number, isBuilding: boolean): Promise<RealmSet> {
  if (isBuilding) return [{ type: 'SCHOOL', ids: [id] }];
  const ids = (rows: { id: number }[]) => rows.map((row) => row.id);
  const schoolIds = [id, ...ids(await tx.school.findMany({ where: { parentId: id }, select: { id: true } }))];
  const inSchool = { in: schoolIds };
  return [
    { type: 'SCHOOL', ids: schoolIds },
    { type: 'GROUP', ids: ids(await tx.group.findMany({ where: { schoolId: inSchool }, select: { id: true } })) },
    { type: 'USER', ids: ids(await tx.user.findMany({ where: { schoolId: inSchool }, select: { id: true } })) },
    {
      type: 'SECTION',
      ids: ids(await tx.section.findMany({ where: { course: { schoolId: inSchool } }, select: { id: true } })),
    },
  ];
}

export async function deleteSchool(viewer: Viewer, id: number) {
  await authorize(viewer, schoolPolicy, 'delete', id, id);
  const facts = await realmFacts(viewer, schoolRealm(id));
  if (facts.buildingId === null && viewer.user.schoolId === id) {
    throw new ValidationError([{ field: 'id', message: 'is your own school; deleting it would delete your account' }]);
  }
  await writeTransaction(async (tx) => {
    await deleteRealmContents(tx, await realmsDeletedWith(tx, id, facts.buildingId !== null));
    await tx.school.delete({ where: { id } });
    await record(tx, 'delete', viewer, {
      id,
      districtId: facts.districtId,
      parentId: facts.buildingId ? facts.schoolId : null,
    });
  });
  return { id };
}

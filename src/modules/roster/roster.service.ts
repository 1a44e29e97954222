import { accessTo, assertCan, findByStorableId } from '../../auth/permissions';
import type { Viewer } from '../../auth/viewer';
import { db } from '../../db/database';
import { recordEvent, writeTransaction } from '../../events/record';
import { Prisma } from '../../generated/prisma/client';
import { ConflictError, NotFoundError, ValidationError, forbidden } from '../../core/errors';
import { validate } from '../../core/validation';
import { createEnrollmentSchema, createSectionSchema, createUserSchema, groupMemberSchema } from './roster.validation';

type Query<Include, Select> = { include?: Include; select?: Select };

const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

/** Turns a unique-constraint violation into a ConflictError naming the field the client can change. */
function conflictOn(error: unknown, message: string, field: string): never {
  if (isUniqueViolation(error)) throw new ConflictError(message, field);
  throw error;
}

/** Resolves the school a roster change targets and checks the viewer administers it. */
async function administeredSchool(viewer: Viewer, schoolId: string | undefined) {
  const id = schoolId ? Number(schoolId) : viewer.user.schoolId;
  const facts = await assertCan(viewer, 'administer', { type: 'SCHOOL', id });
  if (facts.buildingId !== null)
    throw new ValidationError([{ field: 'schoolId', message: 'is a building; name its school' }]);
  return { id, districtId: facts.districtId };
}

export async function createUser(viewer: Viewer, input: unknown, query: Query<Prisma.UserInclude, Prisma.UserSelect>) {
  const { schoolId, buildingId, ...fields } = validate(createUserSchema, input);
  const school = await administeredSchool(viewer, schoolId);
  if (fields.role === 'DISTRICT_ADMIN' && !viewer.isDistrictAdmin(school.districtId)) {
    throw forbidden('Only district administrators create district administrators');
  }
  if (buildingId) {
    const building = await findByStorableId(buildingId, (id) =>
      db().school.findUnique({ where: { id }, select: { parentId: true } }),
    );
    if (building?.parentId !== school.id)
      throw new ValidationError([{ field: 'buildingId', message: 'is not a building of the school' }]);
  }
  return writeTransaction(async (tx) => {
    const user = await tx.user.create({
      ...query,
      data: { ...fields, schoolId: school.id, buildingId: buildingId ? Number(buildingId) : null },
    });
    await recordEvent(tx, {
      type: 'user.create',
      realm: { type: 'SCHOOL', id: school.id },
      objectId: user.id,
      actorId: viewer.id,
      districtId: school.districtId,
      schoolId: school.id,
    });
    return user;
  }).catch(async (error) => {
    if (!isUniqueViolation(error)) throw error;
    // Either unique key of the school may be the one taken: name the member the client has to change.
    const taken = await db().user.findUnique({
      where: { schoolId_username: { schoolId: school.id, username: fields.username } },
      select: { id: true },
    });
    if (taken || !fields.schoolUid) throw new ConflictError('Username is already used in this school', 'username');
    throw new ConflictError('School user id is already used in this school', 'schoolUid');
  });
}

export async function createSection(
  viewer: Viewer,
  input: unknown,
  query: Query<Prisma.SectionInclude, Prisma.SectionSelect>,
) {
  const { schoolId, courseTitle, courseCode, title, sectionCode } = validate(createSectionSchema, input);
  const school = await administeredSchool(viewer, schoolId);
  return writeTransaction(async (tx) => {
    // Course codes are unique in the school: sections of the same course share it.
    const course = await tx.course.upsert({
      where: { schoolId_courseCode: { schoolId: school.id, courseCode } },
      create: { schoolId: school.id, courseCode, title: courseTitle },
      update: {},
    });
    const section = await tx.section.create({
      ...query,
      data: { courseId: course.id, title, sectionCode: sectionCode ?? '' },
    });
    await recordEvent(tx, {
      type: 'section.create',
      realm: { type: 'SECTION', id: section.id },
      objectId: section.id,
      actorId: viewer.id,
      districtId: school.districtId,
      schoolId: school.id,
    });
    return section;
  });
}

export async function createEnrollment(
  viewer: Viewer,
  input: unknown,
  query: Query<Prisma.EnrollmentInclude, Prisma.EnrollmentSelect>,
) {
  const { sectionId, userId, admin, status } = validate(createEnrollmentSchema, input);
  const section = await assertCan(viewer, 'administer', { type: 'SECTION', id: Number(sectionId) });
  const user = await accessTo(viewer, { type: 'USER', id: Number(userId) });
  if (!user || user.access === 'hidden') throw new NotFoundError('User', userId);
  if (user.facts.districtId !== section.districtId)
    throw new ValidationError([{ field: 'userId', message: "is not in the section's district" }]);
  return writeTransaction(async (tx) => {
    const enrollment = await tx.enrollment.create({
      ...query,
      data: { sectionId: Number(sectionId), userId: Number(userId), admin: admin ?? false, status: status ?? 'ACTIVE' },
    });
    await recordEvent(tx, {
      type: 'enrollment.create',
      realm: { type: 'SECTION', id: Number(sectionId) },
      objectId: enrollment.id,
      actorId: viewer.id,
      districtId: section.districtId,
      schoolId: section.schoolId,
    });
    return enrollment;
  }).catch((error) => conflictOn(error, 'The user is already enrolled in this section', 'userId'));
}

export async function addGroupMember(
  viewer: Viewer,
  input: unknown,
  query: Query<Prisma.GroupMembershipInclude, Prisma.GroupMembershipSelect>,
) {
  const { groupId, userId, admin } = validate(groupMemberSchema, input);
  const group = await assertCan(viewer, 'administer', { type: 'GROUP', id: Number(groupId) });
  const user = await accessTo(viewer, { type: 'USER', id: Number(userId) });
  if (!user || user.access === 'hidden') throw new NotFoundError('User', userId);
  return writeTransaction(async (tx) => {
    const membership = await tx.groupMembership.create({
      ...query,
      data: { groupId: Number(groupId), userId: Number(userId), admin: admin ?? false },
    });
    await recordEvent(tx, {
      type: 'group_member.create',
      realm: { type: 'GROUP', id: Number(groupId) },
      objectId: membership.id,
      actorId: viewer.id,
      districtId: group.districtId,
      schoolId: group.schoolId,
    });
    return membership;
  }).catch((error) => conflictOn(error, 'The user is already a member of this group', 'userId'));
}

export async function removeGroupMember(viewer: Viewer, input: unknown) {
  const { groupId, userId } = validate(groupMemberSchema, input);
  const group = await assertCan(viewer, 'administer', { type: 'GROUP', id: Number(groupId) });
  const notFound = () => new NotFoundError('GroupMembership', `${groupId}/${userId}`);
  const membership = await findByStorableId(userId, (id) =>
    db().groupMembership.findUnique({
      where: { groupId_userId: { groupId: Number(groupId), userId: id } },
      select: { id: true },
    }),
  );
  if (!membership) throw notFound();
  await writeTransaction(async (tx) => {
    // deleteMany: a concurrent removal of the same membership is a NotFoundError, not a failed delete (500).
    const { count } = await tx.groupMembership.deleteMany({ where: { id: membership.id } });
    if (count === 0) throw notFound();
    await recordEvent(tx, {
      type: 'group_member.delete',
      realm: { type: 'GROUP', id: Number(groupId) },
      objectId: membership.id,
      actorId: viewer.id,
      districtId: group.districtId,
      schoolId: group.schoolId,
    });
  });
  return { id: membership.id };
}

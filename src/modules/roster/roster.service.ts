import { authorize, realmFactsFor } from '../../auth/policy';
import { realmFacts } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { ValidationError } from '../../core/errors';
import { db } from '../../db/database';
import { validate } from '../../core/validation';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import type { Prisma } from '../../generated/prisma/client';
import { userPolicy } from '../users/user.policy';
import { sectionPolicy } from './roster.policy';
import { createSectionSchema, parentLinkSchema } from './roster.validation';

type Query<Include, Select> = { include?: Include; select?: Select };

export const rosterEvents = {
  createSection: defineEvent('section.create', {
    object: 'Section',
    realms: ['SECTION'],
    description: 'A course section was created.',
  }),
  createEnrollment: defineEvent('enrollment.create', {
    object: 'Enrollment',
    realms: ['SECTION'],
    description: 'A user was enrolled in a section.',
  }),
  updateEnrollment: defineEvent('enrollment.update', {
    object: 'Enrollment',
    realms: ['SECTION'],
    description: "An enrollment's status or section administration changed.",
  }),
  deleteEnrollment: defineEvent('enrollment.delete', {
    object: 'Enrollment',
    realms: ['SECTION'],
    description: 'A user was removed from a section.',
  }),
  // Who is whose parent is for the school's administrators and the two people, not for the school's readers.
  linkParent: defineEvent('parent_link.create', {
    object: 'User',
    realms: ['USER'],
    description: 'A parent was linked to their child (recorded under the child; the object is the parent).',
    audience: 'administrators',
  }),
  unlinkParent: defineEvent('parent_link.delete', {
    object: 'User',
    realms: ['USER'],
    description: "A parent's link to their child was removed (recorded under the child; the object is the parent).",
    audience: 'administrators',
  }),
};

export async function createSection(
  viewer: Viewer,
  input: unknown,
  query: Query<Prisma.SectionInclude, Prisma.SectionSelect>,
) {
  const { schoolId: named, courseTitle, courseCode, title, sectionCode } = validate(createSectionSchema, input);
  const schoolId = named ? Number(named) : viewer.user.schoolId;
  await authorize(viewer, sectionPolicy, 'create', schoolId, schoolId, 'School');
  const school = await realmFacts(viewer, { type: 'SCHOOL', id: schoolId });
  if (school.buildingId !== null)
    throw new ValidationError([{ field: 'schoolId', message: 'is a building; name its school' }]);
  return writeTransaction(async (tx) => {
    // Course codes are unique in the school: sections of the same course share it.
    const course = await tx.course.upsert({
      where: { schoolId_courseCode: { schoolId, courseCode } },
      create: { schoolId, courseCode, title: courseTitle },
      update: {},
    });
    const section = await tx.section.create({
      ...query,
      data: { courseId: course.id, title, sectionCode: sectionCode ?? '' },
    });
    await recordEvent(tx, rosterEvents.createSection, {
      realm: { type: 'SECTION', id: section.id },
      objectId: section.id,
      actorId: viewer.id,
      scope: school,
    });
    return section;
  });
}

/**
 * Links a parent to their child, or removes the link, so that the parent reads the child's grades and attendance.
 * The child's school's administrators do it, for a user whose role is parent.
 */
export async function setParentLink(viewer: Viewer, input: unknown, linked: boolean) {
  const { parentId, childId } = validate(parentLinkSchema, input);
  const child = { type: 'USER' as const, id: childId };
  await authorize(viewer, userPolicy, 'read', parentId, parentId);
  await authorize(viewer, userPolicy, 'read', childId, childId);
  const facts = await realmFacts(viewer, child);
  await realmFactsFor(viewer, { type: 'SCHOOL', id: facts.schoolId! }, 'administer');
  const parent = await db().user.findUniqueOrThrow({ where: { id: parentId }, select: { role: true } });
  if (parent.role !== 'PARENT')
    throw new ValidationError([{ field: 'parentId', message: 'must be a user whose role is PARENT' }]);
  return writeTransaction(async (tx) => {
    const link = { parentId_childId: { parentId, childId } };
    if (linked) await tx.parentLink.upsert({ where: link, create: { parentId, childId }, update: {} });
    else await tx.parentLink.deleteMany({ where: { parentId, childId } });
    const kind = linked ? rosterEvents.linkParent : rosterEvents.unlinkParent;
    await recordEvent(tx, kind, { realm: child, objectId: parentId, actorId: viewer.id, scope: facts });
    return { parentId, childId, linked };
  });
}

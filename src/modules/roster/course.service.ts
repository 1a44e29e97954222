import { authorize } from '../../auth/policy';
import { findByStorableId, isStorableId, realmFacts } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { ConflictError, type FieldIssue, NotFoundError, ValidationError } from '../../core/errors';
import { type ItemCode, type ItemOutcome, itemResponseCodes, settleItem, writtenItem } from '../../core/item-outcomes';
import { deleteRealmContents } from '../../core/realm-content';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { isUniqueViolation } from '../../db/unique';
import type { Course, Prisma } from '../../generated/prisma/client';
import { GradeLevel } from '../../generated/prisma/enums';

const gradeLevels = Object.values(GradeLevel);
import { defineEvent } from '../../outbox/catalogue';
import { itemByItem, recordEvent, writeTransaction } from '../../outbox/record';
import { coursePolicy, readableCoursesWhere } from './roster.policy';
import { createCourseSchema, maxCourseItems, updateCourseSchema } from './course.validation';

type CourseQuery = { include?: Prisma.CourseInclude; select?: Prisma.CourseSelect };

const schoolRealm = (id: number) => ({ type: 'SCHOOL' as const, id });

// Recorded in the course's school: its administrators manage courses, and its readers see its catalogue.
export const courseEvents = {
  create: defineEvent('course.create', {
    object: 'Course',
    realms: ['SCHOOL'],
    description: 'A course was added to a school.',
  }),
  update: defineEvent('course.update', {
    object: 'Course',
    realms: ['SCHOOL'],
    description: "A course's title or code was changed.",
  }),
  delete: defineEvent('course.delete', {
    object: 'Course',
    realms: ['SCHOOL'],
    description: 'A course was deleted, with its sections, their enrollments and their content.',
  }),
};

export type CourseItemCode = ItemCode;
export const courseItemCodes = itemResponseCodes;

export interface CourseResult {
  code: CourseItemCode;
  message: string | null;
  issues: FieldIssue[];
  course: Course | null;
}

const asCourseResult = ({ value, ...outcome }: ItemOutcome<Course>): CourseResult => ({ ...outcome, course: value });

/** A grade level range ends at or above its start, as the platform requires. */
function checkGradeRange(start: GradeLevel | null | undefined, end: GradeLevel | null | undefined) {
  if (start && end && gradeLevels.indexOf(end) < gradeLevels.indexOf(start))
    throw new ValidationError([{ field: 'gradeLevelRangeEnd', message: 'must not be below gradeLevelRangeStart' }]);
}

const codeTaken = () => new ConflictError('Course code is already used in this school', 'courseCode');

/** The school a new course joins (the viewer's when none is named), once the viewer may manage its courses. */
async function placeNewCourse(viewer: Viewer, input: unknown) {
  const { schoolId: named, ...fields } = validate(createCourseSchema, input);
  checkGradeRange(fields.gradeLevelRangeStart, fields.gradeLevelRangeEnd);
  const schoolId = named ? Number(named) : viewer.user.schoolId;
  await authorize(viewer, coursePolicy, 'manage', schoolId, schoolId, 'School');
  const school = await realmFacts(viewer, schoolRealm(schoolId));
  if (school.buildingId !== null)
    throw new ValidationError([{ field: 'schoolId', message: 'is a building; name its school' }]);
  return { data: { ...fields, schoolId }, scope: school };
}

export async function createCourse(viewer: Viewer, input: unknown, query: CourseQuery) {
  const { data, scope } = await placeNewCourse(viewer, input);
  return writeTransaction(async (tx) => {
    const course = await tx.course.create({ ...query, data });
    await recordEvent(tx, courseEvents.create, {
      realm: schoolRealm(data.schoolId),
      objectId: course.id,
      actorId: viewer.id,
      scope,
    });
    return course;
  }).catch((error) => {
    throw isUniqueViolation(error) ? codeTaken() : error;
  });
}

/**
 * The course a change is about, once the viewer may manage it: a course the viewer does not read is not found (a
 * student of the school learns nothing of courses they do not take), one they read but do not manage is refused.
 */
async function managedCourse(viewer: Viewer, id: number) {
  const course = await findByStorableId(id, (key) =>
    db().course.findFirst({ where: { AND: [{ id: key }, readableCoursesWhere(viewer)] } }),
  );
  if (!course) throw new NotFoundError('Course', id);
  await authorize(viewer, coursePolicy, 'manage', course.schoolId, id, 'Course');
  return course;
}

const changesNothing = (course: Course, data: Record<string, unknown>) =>
  Object.entries(data).every(([member, value]) => value === undefined || course[member as keyof Course] === value);

/** Changes a course; one that changes nothing (a repeated roster sync) writes nothing and records no event. */
export async function updateCourse(viewer: Viewer, id: number, input: unknown, query: CourseQuery, known?: Course) {
  const data = validate(updateCourseSchema, input);
  const course = known ?? (await managedCourse(viewer, id));
  checkGradeRange(
    data.gradeLevelRangeStart === undefined ? course.gradeLevelRangeStart : data.gradeLevelRangeStart,
    data.gradeLevelRangeEnd === undefined ? course.gradeLevelRangeEnd : data.gradeLevelRangeEnd,
  );
  if (changesNothing(course, data))
    return query.select || query.include ? db().course.findUniqueOrThrow({ ...query, where: { id } }) : course;
  const scope = await realmFacts(viewer, schoolRealm(course.schoolId));
  return writeTransaction(async (tx) => {
    const changed = await tx.course.update({ ...query, where: { id }, data });
    await recordEvent(tx, courseEvents.update, {
      realm: schoolRealm(course.schoolId),
      objectId: id,
      actorId: viewer.id,
      scope,
    });
    return changed;
  }).catch((error) => {
    throw isUniqueViolation(error) ? codeTaken() : error;
  });
}

/** Deletes a course with its sections: their enrollments and invites go by cascade, their realms' content here. */
export async function deleteCourse(viewer: Viewer, id: number) {
  const course = await managedCourse(viewer, id);
  const scope = await realmFacts(viewer, schoolRealm(course.schoolId));
  await writeTransaction(async (tx) => {
    const sections = await tx.section.findMany({ where: { courseId: id }, select: { id: true } });
    await deleteRealmContents(tx, [{ type: 'SECTION', ids: sections.map((section) => section.id) }]);
    // Deleted meanwhile (or earlier in the same request): not found.
    const { count } = await tx.course.deleteMany({ where: { id } });
    if (count === 0) throw new NotFoundError('Course', id);
    await recordEvent(tx, courseEvents.delete, {
      realm: schoolRealm(course.schoolId),
      objectId: id,
      actorId: viewer.id,
      scope,
    });
  });
  return { id };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const schoolOf = (viewer: Viewer, item: Record<string, unknown>) => Number(item.schoolId ?? viewer.user.schoolId);

/** The courses of the items' schools that already hold the items' course codes, read in one statement. */
async function holdersOfCourseCodes(viewer: Viewer, items: readonly unknown[]) {
  const keys = items
    .filter(isObject)
    .flatMap((item) =>
      typeof item.courseCode === 'string' && item.courseCode.trim()
        ? [{ schoolId: schoolOf(viewer, item), courseCode: item.courseCode.trim() }]
        : [],
    );
  const holders = new Map<string, Course>();
  if (!keys.length) return holders;
  const found = await db().course.findMany({
    where: {
      schoolId: { in: [...new Set(keys.map((key) => key.schoolId).filter(isStorableId))] },
      courseCode: { in: keys.map((key) => key.courseCode) },
    },
  });
  for (const course of found) holders.set(`${course.schoolId}:${course.courseCode}`, course);
  return holders;
}

/**
 * Creates courses item by item, each in a transaction of its own with its event: a bad item fails alone. With
 * `updateExisting`, an item whose course code a course of its school already has changes that course (nothing when
 * it already matches), so that a roster sync may be run again.
 */
export async function createCourses(viewer: Viewer, items: readonly unknown[], updateExisting: boolean) {
  await authorize(viewer, coursePolicy, 'bulk', null, viewer.id);
  if (items.length > maxCourseItems)
    throw new ValidationError([{ field: 'items', message: `must list at most ${maxCourseItems} courses` }]);
  const holders = updateExisting ? await holdersOfCourseCodes(viewer, items) : new Map<string, Course>();
  const run = (item: unknown) => {
    const holder = isObject(item)
      ? holders.get(`${schoolOf(viewer, item)}:${String(item.courseCode).trim()}`)
      : undefined;
    if (!holder) return settleItem('CREATED', () => createCourse(viewer, item, {})).then(asCourseResult);
    // The item's school and code are the holder's already: the rest is what a sync may change.
    const { schoolId: _school, courseCode: _code, ...changes } = item as Record<string, unknown>;
    return settleItem('UPDATED', async () => {
      await authorize(viewer, coursePolicy, 'manage', holder.schoolId, holder.id, 'Course');
      return updateCourse(viewer, holder.id, changes, {}, holder);
    }).then(asCourseResult);
  };
  return {
    results: await itemByItem(items, run, (course: Course) => asCourseResult(writtenItem('CREATED')(course))),
  };
}

import { authorize } from '../../auth/policy';
import { findByStorableId, realmFacts } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { deleteRealmContents } from '../../core/realm-content';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { isUniqueViolation } from '../../db/unique';
import type { Course, Prisma, Section } from '../../generated/prisma/client';
import { Weekday } from '../../generated/prisma/enums';
import { defineEvent } from '../../outbox/catalogue';
import { itemByItem, recordEvent, writeTransaction } from '../../outbox/record';
import { type ItemOutcome, settleItem, writtenItem } from '../../core/item-outcomes';
import { coursePolicy, readableCoursesWhere, sectionPolicy } from './roster.policy';
import { rosterEvents } from './roster.service';
import { createSectionItemSchema, maxSectionItems, updateSectionSchema } from './section.validation';

type SectionQuery = { include?: Prisma.SectionInclude; select?: Prisma.SectionSelect };

export const sectionEvents = {
  update: defineEvent('section.update', {
    object: 'Section',
    realms: ['SECTION'],
    description:
      "A course section's title, codes, description, location, meeting days, state or grading periods changed.",
  }),
  // Recorded in the school: the section realm is gone with the section, and with it whoever could read it there.
  delete: defineEvent('section.delete', {
    object: 'Section',
    realms: ['SCHOOL'],
    description: 'A course section was deleted, with its enrollments, invites and content.',
  }),
};

/** A section as the writes compare it: its columns, its course and the ids of its grading periods. */
const knownSection = {
  include: { course: true, gradingPeriods: { select: { id: true } } },
} satisfies Prisma.SectionDefaultArgs;
type KnownSection = Prisma.SectionGetPayload<typeof knownSection>;

export interface SectionResult extends Omit<ItemOutcome<Section>, 'value'> {
  section: Section | null;
}

const asSectionResult = ({ value, ...outcome }: ItemOutcome<Section>): SectionResult => ({
  ...outcome,
  section: value,
});

const schoolCodeTaken = () =>
  new ConflictError('Section school code is already used in this school', 'sectionSchoolCode');

/**
 * The section a change is about, once the viewer may manage it: a section the viewer does not see is not found, one
 * they see but whose school they do not administer (its teachers and students) is refused.
 */
async function managedSection(viewer: Viewer, id: number) {
  const section = await findByStorableId(id, (key) => db().section.findUnique({ ...knownSection, where: { id: key } }));
  if (!section) throw new NotFoundError('Section', id);
  await authorize(viewer, sectionPolicy, 'read', id, id);
  await authorize(viewer, coursePolicy, 'manage', section.course.schoolId, id, 'Section');
  return section;
}

/** Grading periods name periods of the course's school: any other id is the item's 400. */
async function checkGradingPeriods(schoolId: number, ids: readonly string[] | null | undefined) {
  if (!ids?.length) return;
  const found = await db().gradingPeriod.count({ where: { id: { in: ids.map(Number) }, schoolId } });
  if (found !== new Set(ids).size)
    throw new ValidationError([
      { field: 'gradingPeriodIds', message: "must be grading periods of the section's school" },
    ]);
}

type SectionChanges = ReturnType<typeof updateSectionSchema.parse>;

const sameSet = (a: readonly (string | number)[], b: readonly (string | number)[]) =>
  new Set(a.map(String)).size === new Set(b.map(String)).size &&
  a.every((value) => b.map(String).includes(String(value)));

/** Whether applying `data` leaves the section as it is (a repeated sync): then nothing is written. */
function changesNothing(section: KnownSection, data: SectionChanges) {
  return Object.entries(data).every(([member, value]) => {
    if (value === undefined) return true;
    if (member === 'gradingPeriodIds')
      return sameSet(
        (value as string[] | null) ?? [],
        section.gradingPeriods.map((period) => period.id),
      );
    if (member === 'meetingDays') return sameSet((value as string[] | null) ?? [], section.meetingDays);
    return section[member as keyof Section] === value;
  });
}

/** The columns (and grading periods) a section's members write; a school code is kept unique in the course's school. */
function sectionData(
  { gradingPeriodIds, meetingDays, ...fields }: SectionChanges,
  schoolId: number,
  periods: 'set' | 'connect',
) {
  return {
    ...fields,
    ...(fields.sectionSchoolCode !== undefined
      ? { codeSchoolId: fields.sectionSchoolCode === null ? null : schoolId }
      : {}),
    // In the order of the week, each once: what was sent in another order is the same week.
    ...(meetingDays !== undefined
      ? { meetingDays: Object.values(Weekday).filter((day) => meetingDays?.includes(day)) }
      : {}),
    ...(gradingPeriodIds !== undefined
      ? { gradingPeriods: { [periods]: (gradingPeriodIds ?? []).map((id) => ({ id: Number(id) })) } }
      : {}),
  };
}

/**
 * Changes a section's members; a change that changes nothing (a repeated roster sync) writes nothing and records no
 * event.
 */
export async function updateSection(
  viewer: Viewer,
  id: number,
  input: unknown,
  query: SectionQuery,
  known?: KnownSection,
) {
  const data = validate(updateSectionSchema, input);
  const section = known ?? (await managedSection(viewer, id));
  if (changesNothing(section, data))
    return query.select || query.include ? db().section.findUniqueOrThrow({ ...query, where: { id } }) : section;
  await checkGradingPeriods(section.course.schoolId, data.gradingPeriodIds);
  const scope = await realmFacts(viewer, { type: 'SECTION', id });
  return writeTransaction(async (tx) => {
    const changed = await tx.section.update({
      ...query,
      where: { id },
      data: sectionData(data, section.course.schoolId, 'set'),
    });
    await recordEvent(tx, sectionEvents.update, {
      realm: { type: 'SECTION', id },
      objectId: id,
      actorId: viewer.id,
      scope,
    });
    return changed;
  }).catch((error) => {
    throw isUniqueViolation(error) ? schoolCodeTaken() : error;
  });
}

/** Deletes a section: its enrollments and invites go by cascade, the content of its realm here. */
export async function deleteSection(viewer: Viewer, id: number) {
  const section = await managedSection(viewer, id);
  const schoolId = section.course.schoolId;
  const scope = await realmFacts(viewer, { type: 'SCHOOL', id: schoolId });
  await writeTransaction(async (tx) => {
    await deleteRealmContents(tx, [{ type: 'SECTION', ids: [id] }]);
    const { count } = await tx.section.deleteMany({ where: { id } });
    if (count === 0) throw new NotFoundError('Section', id);
    await recordEvent(tx, sectionEvents.delete, {
      realm: { type: 'SCHOOL', id: schoolId },
      objectId: id,
      actorId: viewer.id,
      scope,
    });
  });
  return { id };
}

/**
 * The course new sections join, once the viewer may manage it: a course the viewer does not read is not found, one
 * they read but do not manage (its teachers and students) is refused.
 */
async function managedCourse(viewer: Viewer, id: number) {
  const course = await findByStorableId(id, (key) =>
    db().course.findFirst({ where: { AND: [{ id: key }, readableCoursesWhere(viewer)] } }),
  );
  if (!course) throw new NotFoundError('Course', id);
  await authorize(viewer, coursePolicy, 'manage', course.schoolId, course.id, 'Course');
  return course;
}

/** Creates one section of `course` with its `section.create` event, in one transaction. */
async function createSectionIn(viewer: Viewer, course: Course, input: unknown): Promise<Section> {
  const data = validate(createSectionItemSchema, input);
  // The platform asks for one of the two codes: a sync names its sections by them.
  if (!data.sectionCode && !data.sectionSchoolCode)
    throw new ValidationError([{ field: 'sectionSchoolCode', message: 'or sectionCode is required' }]);
  await checkGradingPeriods(course.schoolId, data.gradingPeriodIds);
  const scope = await realmFacts(viewer, { type: 'SCHOOL', id: course.schoolId });
  return writeTransaction(async (tx) => {
    const section = await tx.section.create({
      data: { ...sectionData(data, course.schoolId, 'connect'), title: data.title, courseId: course.id },
    });
    await recordEvent(tx, rosterEvents.createSection, {
      realm: { type: 'SECTION', id: section.id },
      objectId: section.id,
      actorId: viewer.id,
      scope,
    });
    return section;
  }).catch((error) => {
    throw isUniqueViolation(error) ? schoolCodeTaken() : error;
  });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const schoolCodeOf = (item: unknown) =>
  isObject(item) && typeof item.sectionSchoolCode === 'string' ? item.sectionSchoolCode.trim() : '';

/** The sections of the course's school that already hold the items' school codes, read in one statement. */
async function holdersOfSchoolCodes(schoolId: number, items: readonly unknown[]) {
  const codes = [...new Set(items.map(schoolCodeOf).filter(Boolean))];
  const holders = new Map<string, KnownSection>();
  if (!codes.length) return holders;
  const found = await db().section.findMany({
    ...knownSection,
    where: { codeSchoolId: schoolId, sectionSchoolCode: { in: codes } },
  });
  for (const section of found) holders.set(section.sectionSchoolCode!, section);
  return holders;
}

/**
 * Creates sections of a course item by item, each in a transaction of its own with its event: a bad item fails alone.
 * With `updateExisting`, an item whose `sectionSchoolCode` a section of the course already has changes that section
 * (nothing when it already matches), so that a roster sync may be run again; a section of another course holding the
 * code is the item's conflict (sections do not move between courses).
 */
export async function createSections(
  viewer: Viewer,
  courseId: number,
  items: readonly unknown[],
  updateExisting: boolean,
) {
  if (items.length > maxSectionItems)
    throw new ValidationError([{ field: 'items', message: `must list at most ${maxSectionItems} sections` }]);
  // The whole call is about one course: one the caller does not read is 404, one they may not manage 403.
  const course = await managedCourse(viewer, courseId);
  const holders = updateExisting ? await holdersOfSchoolCodes(course.schoolId, items) : new Map<string, KnownSection>();
  const run = (item: unknown) => {
    const holder = holders.get(schoolCodeOf(item));
    if (!holder) return settleItem('CREATED', () => createSectionIn(viewer, course, item)).then(asSectionResult);
    return settleItem('UPDATED', async () => {
      if (holder.courseId !== course.id)
        throw new ConflictError('Section school code is used by a section of another course', 'sectionSchoolCode');
      return updateSection(viewer, holder.id, item, {}, holder);
    }).then(asSectionResult);
  };
  return {
    results: await itemByItem(items, run, (section: Section) => asSectionResult(writtenItem('CREATED')(section))),
  };
}

import { z } from 'zod';
import { authorize } from '../../auth/policy';
import { findByStorableId, realmFacts } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { NotFoundError, ValidationError } from '../../core/errors';
import { readDay } from '../../core/date-text';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import type { Prisma } from '../../generated/prisma/client';
import { gradebookWriter, schoolGradingPolicy } from './gradebook.policy';
import {
  createAssignmentSchema,
  createGradingPeriodSchema,
  createGradingScaleSchema,
  updateAssignmentSchema,
  updateGradingPeriodSchema,
  updateGradingScaleSchema,
} from './gradebook.validation';

type Query<Select, Include> = { select?: Select; include?: Include };

// The item's kind as it was written (a delete leaves nothing to read it from); events recorded before it was kept have none.
const gradeItemData = z.object({ gradeItemType: z.enum(['ASSIGNMENT', 'DISCUSSION']).optional() });

// The platform's grade_item trigger: one entry naming the item (`id`, with its `grade_item_type`), viewed at its /v1
// path. As in the platform's event object example, this entry's section_id and realm_id are strings.
const gradeItemEntry = (
  { gradeItemType }: z.output<typeof gradeItemData>,
  event: { realmId: number; objectId: number },
) => [
  {
    ids: {
      section_id: String(event.realmId),
      realm_id: String(event.realmId),
      id: event.objectId,
      grade_item_type: gradeItemType && (gradeItemType === 'DISCUSSION' ? 'discussion' : 'assignment'),
    },
    view: `/sections/${event.realmId}/assignments/${event.objectId}`,
  },
];
const schoolEvent = (type: `${string}.${string}`, object: string, description: string) =>
  defineEvent(type, { object, realms: ['SCHOOL'], description });

export const gradebookEvents = {
  /** As on the platform, `update` also reports a new item. */
  gradeItemUpdate: defineEvent('grade_item.update', {
    object: 'Assignment',
    realms: ['SECTION'],
    description: 'A graded item (assignment or graded discussion) was created or changed.',
    data: gradeItemData,
    entries: gradeItemEntry,
  }),
  gradeItemDelete: defineEvent('grade_item.delete', {
    object: 'Assignment',
    realms: ['SECTION'],
    description: 'A graded item was deleted, with its grades.',
    data: gradeItemData,
    entries: gradeItemEntry,
  }),
  periodCreate: schoolEvent('grading_period.create', 'GradingPeriod', 'A grading period was added to a school.'),
  periodUpdate: schoolEvent('grading_period.update', 'GradingPeriod', 'A grading period was changed.'),
  periodDelete: schoolEvent(
    'grading_period.delete',
    'GradingPeriod',
    'A grading period was deleted; its assignments are filed under "other".',
  ),
  scaleCreate: schoolEvent('grading_scale.create', 'GradingScale', 'A grading scale was added to a school.'),
  scaleUpdate: schoolEvent('grading_scale.update', 'GradingScale', 'A grading scale was changed.'),
  scaleDelete: schoolEvent(
    'grading_scale.delete',
    'GradingScale',
    'A grading scale was deleted; what used it is numeric.',
  ),
};

const asDate = (text: string) => {
  const { year, month, day } = readDay(text)!;
  return new Date(Date.UTC(year, month - 1, day));
};

function periodDays(startsOn: Date, endsOn: Date) {
  if (endsOn < startsOn) throw new ValidationError([{ field: 'endsOn', message: 'must not be before startsOn' }]);
  return { startsOn, endsOn };
}

/** The school of a school-owned gradebook row (period or scale); not found when it does not exist. */
async function schoolOf(model: 'gradingPeriod' | 'gradingScale', id: number): Promise<number> {
  const row = await findByStorableId(id, (id) =>
    model === 'gradingPeriod'
      ? db().gradingPeriod.findUnique({ where: { id }, select: { schoolId: true } })
      : db().gradingScale.findUnique({ where: { id }, select: { schoolId: true } }),
  );
  if (!row) throw new NotFoundError(model === 'gradingPeriod' ? 'GradingPeriod' : 'GradingScale', id);
  return row.schoolId;
}

async function schoolWriter(viewer: Viewer, schoolId: number, id: number | string = schoolId) {
  await authorize(viewer, schoolGradingPolicy, 'write', schoolId, id, 'School');
  return realmFacts(viewer, { type: 'SCHOOL', id: schoolId });
}

export async function createGradingPeriod(
  viewer: Viewer,
  schoolId: number,
  input: unknown,
  query: Query<Prisma.GradingPeriodSelect, Prisma.GradingPeriodInclude>,
) {
  const facts = await schoolWriter(viewer, schoolId);
  const { title, startsOn, endsOn, weight } = validate(createGradingPeriodSchema, input);
  const days = periodDays(asDate(startsOn), asDate(endsOn));
  return writeTransaction(async (tx) => {
    const period = await tx.gradingPeriod.create({ ...query, data: { schoolId, title, weight, ...days } });
    await recordEvent(tx, gradebookEvents.periodCreate, {
      realm: { type: 'SCHOOL', id: schoolId },
      objectId: period.id,
      actorId: viewer.id,
      scope: facts,
    });
    return period;
  });
}

export async function updateGradingPeriod(
  viewer: Viewer,
  id: number,
  input: unknown,
  query: Query<Prisma.GradingPeriodSelect, Prisma.GradingPeriodInclude>,
) {
  const schoolId = await schoolOf('gradingPeriod', id);
  const facts = await schoolWriter(viewer, schoolId, id);
  const { title, startsOn, endsOn, weight } = validate(updateGradingPeriodSchema, input);
  const current = await db().gradingPeriod.findUniqueOrThrow({ where: { id } });
  const days = periodDays(startsOn ? asDate(startsOn) : current.startsOn, endsOn ? asDate(endsOn) : current.endsOn);
  return writeTransaction(async (tx) => {
    const period = await tx.gradingPeriod.update({ ...query, where: { id }, data: { title, weight, ...days } });
    await recordEvent(tx, gradebookEvents.periodUpdate, {
      realm: { type: 'SCHOOL', id: schoolId },
      objectId: id,
      actorId: viewer.id,
      scope: facts,
    });
    return period;
  });
}

export async function deleteGradingPeriod(viewer: Viewer, id: number) {
  const schoolId = await schoolOf('gradingPeriod', id);
  const facts = await schoolWriter(viewer, schoolId, id);
  await writeTransaction(async (tx) => {
    // Comments and overrides given for the period go with it; its assignments move to "other".
    await tx.periodGrade.deleteMany({ where: { period: `p${id}` } });
    await tx.gradingPeriod.delete({ where: { id } });
    await recordEvent(tx, gradebookEvents.periodDelete, {
      realm: { type: 'SCHOOL', id: schoolId },
      objectId: id,
      actorId: viewer.id,
      scope: facts,
    });
  });
  return { id };
}

export async function createGradingScale(
  viewer: Viewer,
  schoolId: number,
  input: unknown,
  query: Query<Prisma.GradingScaleSelect, Prisma.GradingScaleInclude>,
) {
  const facts = await schoolWriter(viewer, schoolId);
  const { title, levels } = validate(createGradingScaleSchema, input);
  return writeTransaction(async (tx) => {
    const scale = await tx.gradingScale.create({ ...query, data: { schoolId, title, levels } });
    await recordEvent(tx, gradebookEvents.scaleCreate, {
      realm: { type: 'SCHOOL', id: schoolId },
      objectId: scale.id,
      actorId: viewer.id,
      scope: facts,
    });
    return scale;
  });
}

export async function updateGradingScale(
  viewer: Viewer,
  id: number,
  input: unknown,
  query: Query<Prisma.GradingScaleSelect, Prisma.GradingScaleInclude>,
) {
  const schoolId = await schoolOf('gradingScale', id);
  const facts = await schoolWriter(viewer, schoolId, id);
  const { title, levels } = validate(updateGradingScaleSchema, input);
  return writeTransaction(async (tx) => {
    const scale = await tx.gradingScale.update({ ...query, where: { id }, data: { title, levels } });
    await recordEvent(tx, gradebookEvents.scaleUpdate, {
      realm: { type: 'SCHOOL', id: schoolId },
      objectId: id,
      actorId: viewer.id,
      scope: facts,
    });
    return scale;
  });
}

export async function deleteGradingScale(viewer: Viewer, id: number) {
  const schoolId = await schoolOf('gradingScale', id);
  const facts = await schoolWriter(viewer, schoolId, id);
  await writeTransaction(async (tx) => {
    await tx.gradingScale.delete({ where: { id } });
    await recordEvent(tx, gradebookEvents.scaleDelete, {
      realm: { type: 'SCHOOL', id: schoolId },
      objectId: id,
      actorId: viewer.id,
      scope: facts,
    });
  });
  return { id };
}

/** Checks that the category is the section's and the scale and period its school's, naming the member that is not. */
async function checkReferences(
  { sectionId, schoolId }: { sectionId: number; schoolId: number },
  refs: { categoryId?: number | null; scaleId?: number | null; periodId?: number | null },
) {
  const [category, scale, period] = await Promise.all([
    refs.categoryId != null
      ? findByStorableId(refs.categoryId, (id) => db().gradingCategory.findFirst({ where: { id, sectionId } }))
      : null,
    refs.scaleId != null
      ? findByStorableId(refs.scaleId, (id) => db().gradingScale.findFirst({ where: { id, schoolId } }))
      : null,
    refs.periodId != null
      ? findByStorableId(refs.periodId, (id) => db().gradingPeriod.findFirst({ where: { id, schoolId } }))
      : null,
  ]);
  const issues = [
    ...(refs.categoryId != null && !category
      ? [{ field: 'categoryId', message: 'must be a grading category of this section' }]
      : []),
    ...(refs.scaleId != null && !scale
      ? [{ field: 'scaleId', message: "must be a grading scale of this section's school" }]
      : []),
    ...(refs.periodId != null && !period
      ? [{ field: 'periodId', message: "must be a grading period of this section's school" }]
      : []),
  ];
  if (issues.length) throw new ValidationError(issues);
  return category;
}

/** The section and kind of an item; not found when it does not exist. */
async function assignmentOf(id: number) {
  const assignment = await findByStorableId(id, (id) =>
    db().assignment.findUnique({ where: { id }, select: { sectionId: true, type: true } }),
  );
  if (!assignment) throw new NotFoundError('Assignment', id);
  return assignment;
}

export async function createAssignment(
  viewer: Viewer,
  sectionId: number,
  input: unknown,
  query: Query<Prisma.AssignmentSelect, Prisma.AssignmentInclude>,
) {
  const facts = await gradebookWriter(viewer, sectionId);
  const realm = { type: 'SECTION' as const, id: sectionId };
  const fields = validate(createAssignmentSchema, input);
  const category = await checkReferences({ sectionId, schoolId: facts.schoolId! }, fields);
  // A new assignment takes its category's points and scale unless it names its own.
  const maxPoints = fields.maxPoints ?? category?.defaultMaxPoints;
  const scaleId = fields.scaleId ?? category?.defaultGradingScaleId ?? undefined;
  return writeTransaction(async (tx) => {
    const assignment = await tx.assignment.create({ ...query, data: { ...fields, sectionId, maxPoints, scaleId } });
    const data = { gradeItemType: fields.type ?? 'ASSIGNMENT' };
    await recordEvent(tx, gradebookEvents.gradeItemUpdate, {
      realm,
      objectId: assignment.id,
      actorId: viewer.id,
      scope: facts,
      data,
    });
    return assignment;
  });
}

export async function updateAssignment(
  viewer: Viewer,
  id: number,
  input: unknown,
  query: Query<Prisma.AssignmentSelect, Prisma.AssignmentInclude>,
) {
  const { sectionId, type } = await assignmentOf(id);
  const facts = await gradebookWriter(viewer, sectionId, id, 'Assignment');
  const realm = { type: 'SECTION' as const, id: sectionId };
  const fields = validate(updateAssignmentSchema, input);
  await checkReferences({ sectionId, schoolId: facts.schoolId! }, fields);
  return writeTransaction(async (tx) => {
    const assignment = await tx.assignment.update({ ...query, where: { id }, data: fields });
    const data = { gradeItemType: fields.type ?? type };
    await recordEvent(tx, gradebookEvents.gradeItemUpdate, {
      realm,
      objectId: id,
      actorId: viewer.id,
      scope: facts,
      data,
    });
    return assignment;
  });
}

export async function deleteAssignment(viewer: Viewer, id: number) {
  const { sectionId, type } = await assignmentOf(id);
  const facts = await gradebookWriter(viewer, sectionId, id, 'Assignment');
  const realm = { type: 'SECTION' as const, id: sectionId };
  await writeTransaction(async (tx) => {
    await tx.assignment.delete({ where: { id } });
    await recordEvent(tx, gradebookEvents.gradeItemDelete, {
      realm,
      objectId: id,
      actorId: viewer.id,
      scope: facts,
      data: { gradeItemType: type },
    });
  });
  return { id };
}

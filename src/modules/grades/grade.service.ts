import { z } from 'zod';
import { allowsReading, verdictOf } from '../../auth/policy';
import { isStorableId } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { ValidationError } from '../../core/errors';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import type { Prisma } from '../../generated/prisma/client';
import type { GradeException } from '../../generated/prisma/enums';
import { type GradebookReach, readableReach } from '../gradebook/gradebook.policy';
import { gradePolicy, gradeWriter } from './grade.policy';
import { type ScaleLevel, computeGrades, letterFor, pointsForLetter } from './grade-calculation';
import { finalCommentItemsSchema, gradeItemsSchema } from './grade.validation';

const gradeEntries = z.object({
  entries: z.array(
    z.object({ enrollment_id: z.int(), assignment_id: z.int().optional(), period_id: z.string().optional() }),
  ),
});

/** What an entry reads of its view, `GET /sections/{id}/grades` of one enrollment (grade.rest.ts). */
type GradesAnswer = {
  grades?: { grade: object[] };
  final_grade?: { period: { period_id: string; grade: number | null }[] }[];
};

export const gradeEvents = {
  /**
   * One write of grades or final comments is one event with an entry per item, as the platform's `grades` trigger
   * reports; each entry's object is the grade (or the enrollment's final grade) as the /v1 grades list shows it.
   */
  update: defineEvent('grades.update', {
    object: 'Section',
    realms: ['SECTION'],
    description: 'Grades or final comments of a section were set (one event per write, an entry per item).',
    data: gradeEntries,
    // Grades are for the section's teachers, the student and their parents; the live stream carries no per-student filter.
    audience: 'administrators',
    entries: ({ entries }, { realmId }) =>
      entries.map((entry) => {
        const query = new URLSearchParams({ enrollment_id: String(entry.enrollment_id) });
        if (entry.assignment_id !== undefined) query.set('assignment_id', String(entry.assignment_id));
        return {
          ids: entry,
          view: `/sections/${realmId}/grades?${query}`,
          pick: (body: GradesAnswer) =>
            (entry.assignment_id !== undefined ? body.grades?.grade[0] : body.final_grade?.[0]) ?? null,
          // The platform's grade event entries carry the enrollment's course grade after the write.
          members: (body: GradesAnswer): Record<string, unknown> => {
            const final = body.final_grade?.[0]?.period.find((period) => period.period_id === 'final');
            return final ? { updated_overall_grade: final.grade } : {};
          },
        };
      }),
  }),
};

export interface GradeRow {
  enrollmentId: number;
  assignmentId: number;
  grade: number | null;
  exception: GradeException | null;
  comment: string;
  commentVisible: boolean;
  updatedAt: Date;
}

export interface GradebookAssignment {
  id: number;
  title: string;
  type: 'ASSIGNMENT' | 'DISCUSSION';
  maxPoints: number;
  categoryId: number | null;
  scaleId: number | null;
  periodId: number | null;
  isFinal: boolean;
  scale: { levels: unknown } | null;
}

/** A grade with what the wire shows beside it: its assignment, and the letter it earns on the assignment's scale. */
export interface GradeView extends GradeRow {
  assignment: GradebookAssignment;
  letter: string | null;
}

export interface PeriodView {
  /** `p<id>`, `other` or `final`. */
  key: string;
  title: string;
  weight: number;
}

export interface PeriodGradeView {
  key: string;
  grade: number | null;
  comment: string;
  commentVisible: boolean;
  override: number | null;
  categories: { categoryId: number; grade: number | null }[];
}

export interface EnrollmentGradesView {
  enrollmentId: number;
  userId: number;
  periods: PeriodGradeView[];
}

export interface SectionGradesView {
  sectionId: number;
  /** Every grade the filters select; GraphQL pages them and renders the page's with `viewOf`. */
  grades: GradeRow[];
  viewOf(grade: GradeRow): GradeView;
  periods: PeriodView[];
  categories: { id: number; title: string }[];
  enrollments: EnrollmentGradesView[];
}

/** Rows by enrollment (Map.groupBy arrives with Node 21). */
function byEnrollment<Row extends { enrollmentId: number }>(rows: Row[]): Map<number, Row[]> {
  const groups = new Map<number, Row[]>();
  for (const row of rows) {
    const group = groups.get(row.enrollmentId);
    if (group) group.push(row);
    else groups.set(row.enrollmentId, [row]);
  }
  return groups;
}

const periodKey = (periodId: number | null) => (periodId === null ? 'other' : `p${periodId}`);
const levelsOf = (assignment: GradebookAssignment) => (assignment.scale?.levels as ScaleLevel[] | undefined) ?? null;

/**
 * Everything a grades answer is computed from, in a fixed number of statements whatever the number of students and
 * assignments: the section with its school's periods and district's setting, its assignments with their scales, its
 * categories, and the reached enrollments with their grades and period grades.
 */
async function loadGradebook(sectionId: number, reach: GradebookReach, enrollmentId: number | null) {
  const enrollmentFilter = {
    ...(reach.all ? {} : { in: reach.enrollmentIds }),
    // An id past what the database stores names no enrollment.
    ...(enrollmentId !== null ? { equals: isStorableId(enrollmentId) ? enrollmentId : -1 } : {}),
  };
  const ofEnrollments = Object.keys(enrollmentFilter).length ? { enrollmentId: enrollmentFilter } : {};
  const [section, assignments, categories, enrollments, grades, periodGrades] = await Promise.all([
    db().section.findUniqueOrThrow({
      where: { id: sectionId },
      select: {
        course: {
          select: {
            school: {
              select: {
                district: { select: { incompleteCountsAsZero: true } },
                gradingPeriods: {
                  select: { id: true, title: true, weight: true },
                  orderBy: [{ startsOn: 'asc' }, { id: 'asc' }],
                },
              },
            },
          },
        },
      },
    }),
    db().assignment.findMany({
      where: { sectionId },
      select: {
        id: true,
        title: true,
        type: true,
        maxPoints: true,
        categoryId: true,
        scaleId: true,
        periodId: true,
        isFinal: true,
        scale: { select: { levels: true } },
      },
      orderBy: { id: 'asc' },
    }),
    db().gradingCategory.findMany({ where: { sectionId }, orderBy: [{ delta: 'asc' }, { id: 'asc' }] }),
    db().enrollment.findMany({
      where: { sectionId, admin: false, ...(Object.keys(enrollmentFilter).length ? { id: enrollmentFilter } : {}) },
      select: { id: true, userId: true },
      orderBy: { id: 'asc' },
    }),
    db().grade.findMany({
      where: { sectionId, ...ofEnrollments },
      orderBy: [{ enrollmentId: 'asc' }, { assignmentId: 'asc' }],
    }),
    db().periodGrade.findMany({ where: { sectionId, ...ofEnrollments } }),
  ]);
  const { district, gradingPeriods } = section.course.school;
  return { district, gradingPeriods, assignments, categories, enrollments, grades, periodGrades };
}

export interface GradeFilters {
  assignmentId?: number | null;
  enrollmentId?: number | null;
  changedSince?: Date | null;
}

/**
 * A section's grades, with computed period and final grades, for its teachers and administrators (the platform's
 * `GET /sections/{id}/grades`): a student or parent is refused (403), as the platform refuses them, and reads their part
 * with `userGrades`; null when the section is hidden.
 */
export async function sectionGrades(
  viewer: Viewer,
  sectionId: number,
  filters: GradeFilters,
): Promise<SectionGradesView | null> {
  if (!allowsReading(await verdictOf(viewer, gradePolicy, 'readSection', sectionId))) return null;
  return gradebookView(sectionId, { all: true }, filters);
}

/** The section's grades within the reach (all, or their own or their children's), with computed period and final grades. */
async function gradebookView(
  sectionId: number,
  reach: GradebookReach,
  filters: GradeFilters,
): Promise<SectionGradesView> {
  const book = await loadGradebook(sectionId, reach, filters.enrollmentId ?? null);
  // Comments the teacher has not released are the teachers' own.
  const comment = (text: string, visible: boolean) => (reach.all || visible ? text : '');
  const assignments = new Map(book.assignments.map((assignment) => [assignment.id, assignment]));

  const usedPeriods = new Set(book.assignments.map((assignment) => periodKey(assignment.periodId)));
  const periods: PeriodView[] = [
    ...book.gradingPeriods
      .filter((period) => usedPeriods.has(`p${period.id}`))
      .map((period) => ({ key: `p${period.id}`, title: period.title, weight: period.weight })),
    ...(usedPeriods.has('other') ? [{ key: 'other', title: 'Other', weight: 1 }] : []),
  ];
  const rules = {
    categories: book.categories,
    items: book.assignments.map((assignment) => ({ ...assignment, period: periodKey(assignment.periodId) })),
    periods,
    incompleteCountsAsZero: book.district.incompleteCountsAsZero,
  };

  const gradesByEnrollment = byEnrollment(book.grades);
  const periodGradesByEnrollment = byEnrollment(book.periodGrades);
  const enrollments = book.enrollments.map(({ id, userId }): EnrollmentGradesView => {
    const given = new Map((gradesByEnrollment.get(id) ?? []).map((grade) => [grade.assignmentId, grade]));
    const stored = new Map((periodGradesByEnrollment.get(id) ?? []).map((row) => [row.period, row]));
    const overrides = new Map(
      [...stored].flatMap(([key, row]) => (row.override === null ? [] : [[key, row.override] as const])),
    );
    const computed = computeGrades(rules, given, overrides);
    const withComments = (
      key: string,
      grade: number | null,
      categories: PeriodGradeView['categories'],
    ): PeriodGradeView => {
      const row = stored.get(key);
      return {
        key,
        grade,
        categories,
        comment: comment(row?.comment ?? '', row?.commentVisible ?? false),
        commentVisible: row?.commentVisible ?? false,
        override: row?.override ?? null,
      };
    };
    return {
      enrollmentId: id,
      userId,
      periods: [
        ...computed.periods.map((period) => withComments(period.key, period.grade, period.categories)),
        withComments('final', computed.final, []),
      ],
    };
  });

  const reached = new Set(book.enrollments.map((enrollment) => enrollment.id));
  const listed = book.grades.filter(
    (grade) =>
      (filters.assignmentId == null || grade.assignmentId === filters.assignmentId) &&
      (filters.changedSince == null || grade.updatedAt >= filters.changedSince) &&
      reached.has(grade.enrollmentId),
  );
  const viewOf = (grade: GradeRow): GradeView => {
    const assignment = assignments.get(grade.assignmentId)!;
    const levels = levelsOf(assignment);
    const percent =
      grade.grade !== null && assignment.maxPoints > 0 ? (grade.grade / assignment.maxPoints) * 100 : null;
    return {
      ...grade,
      comment: comment(grade.comment, grade.commentVisible),
      assignment,
      letter: levels && percent !== null ? letterFor(levels, percent) : null,
    };
  };
  return {
    sectionId,
    grades: listed,
    viewOf,
    periods,
    categories: book.categories.map(({ id, title }) => ({ id, title })),
    enrollments,
  };
}

/**
 * One user's grades in one section (the platform's `/users/{id}/grades?section_id=`): the section is required, as on
 * the platform (403 without it); null when the user is not enrolled in it as a student or is hidden from the viewer.
 */
export async function userGrades(viewer: Viewer, userId: number, sectionId: number | null) {
  const enrollment =
    sectionId !== null && isStorableId(sectionId) && isStorableId(userId)
      ? await db().enrollment.findFirst({ where: { sectionId, userId, admin: false }, select: { id: true } })
      : null;
  const enrollmentId = enrollment?.id ?? null;
  const allowed = allowsReading(await verdictOf(viewer, gradePolicy, 'readEnrollment', { sectionId, enrollmentId }));
  if (!allowed || sectionId === null || enrollmentId === null) return null;
  // The rule allowed it, so the viewer's reach (memoised per request) holds the enrollment.
  return gradebookView(sectionId, (await readableReach(viewer, sectionId))!, { enrollmentId });
}

type Issue = { field: string; message: string };

/** The section's assignments and student enrollments among the ids named, for checking items. */
async function sectionMembers(sectionId: number, assignmentIds: number[], enrollmentIds: number[]) {
  const storable = (ids: number[]) => [...new Set(ids)].filter(isStorableId);
  const [assignments, enrollments] = await Promise.all([
    db().assignment.findMany({
      where: { sectionId, id: { in: storable(assignmentIds) } },
      select: { id: true, maxPoints: true, scale: { select: { levels: true } } },
    }),
    db().enrollment.findMany({
      where: { sectionId, admin: false, id: { in: storable(enrollmentIds) } },
      select: { id: true },
    }),
  ]);
  return {
    assignments: new Map(assignments.map((row) => [row.id, row])),
    enrollments: new Set(enrollments.map((row) => row.id)),
  };
}

/** The items with a repeated key given once, as the last of them says: items apply in order, so the last one wins. */
const lastOfEach = <T>(items: T[], key: (item: T) => string) => [
  ...new Map(items.map((item) => [key(item), item])).values(),
];

/**
 * Sets grades: each item replaces the enrollment's grade on the assignment (a letter is read through the assignment's
 * scale; an exception sets the grade to null; a comment the item does not show is hidden from the student and their
 * parents, spec 2.11). All items are written, or none: one bad item is a 400 naming it. An enrollment graded twice on
 * an item takes the last grade given, as if the items applied in order.
 */
export async function setGrades(viewer: Viewer, sectionId: number, input: unknown) {
  const facts = await gradeWriter(viewer, sectionId);
  const items = validate(gradeItemsSchema, { grades: input }).grades;
  const { assignments, enrollments } = await sectionMembers(
    sectionId,
    items.map((item) => item.assignmentId),
    items.map((item) => item.enrollmentId),
  );
  const issues: Issue[] = [];
  const rows = items.map((item, at) => {
    const field = (member: string) => `grades.${at}.${member}`;
    const assignment = assignments.get(item.assignmentId);
    if (!assignment) issues.push({ field: field('assignmentId'), message: 'must be an assignment of this section' });
    if (!enrollments.has(item.enrollmentId))
      issues.push({ field: field('enrollmentId'), message: 'must be a student enrollment of this section' });
    const exception = item.exception ?? null;
    let grade: number | null = null;
    if (!exception && assignment) {
      const value = item.grade;
      const numeric =
        typeof value === 'number' ? value : value != null && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : null;
      const levels = assignment.scale?.levels as ScaleLevel[] | undefined;
      grade =
        numeric ?? (typeof value === 'string' && levels ? pointsForLetter(levels, value, assignment.maxPoints) : null);
      if (value == null || value === '')
        issues.push({ field: field('grade'), message: 'is required unless an exception is given' });
      else if (grade === null)
        issues.push({
          field: field('grade'),
          message: levels
            ? "must be points or a letter of the assignment's grading scale"
            : 'must be a number of points',
        });
      else if (grade < 0 || grade > 1_000_000)
        issues.push({ field: field('grade'), message: 'must be between 0 and 1,000,000 points' });
    }
    return {
      enrollmentId: item.enrollmentId,
      assignmentId: item.assignmentId,
      sectionId,
      grade,
      exception,
      comment: item.comment ?? '',
      commentVisible: item.commentVisible ?? false,
    } as const;
  });
  if (issues.length) throw new ValidationError(issues);
  const written = lastOfEach(rows, (row) => `${row.enrollmentId}:${row.assignmentId}`);
  await writeTransaction(async (tx) => {
    for (const row of written) {
      const { enrollmentId, assignmentId, ...values } = row;
      await tx.grade.upsert({
        where: { enrollmentId_assignmentId: { enrollmentId, assignmentId } },
        create: row,
        update: values,
      });
    }
    const entries = written.map((row) => ({ enrollment_id: row.enrollmentId, assignment_id: row.assignmentId }));
    await recordGradesWritten(tx, viewer, sectionId, facts, entries);
  });
  return { count: written.length };
}

/**
 * Sets final comments (and, from GraphQL, overrides) of enrollments for a period or the course final: each item
 * replaces the comment and whether the student sees it; an override is kept unless the item gives one. All or none.
 */
export async function setFinalComments(viewer: Viewer, sectionId: number, input: unknown) {
  const facts = await gradeWriter(viewer, sectionId);
  const items = validate(finalCommentItemsSchema, { finalComments: input }).finalComments;
  const { enrollments } = await sectionMembers(
    sectionId,
    [],
    items.map((item) => item.enrollmentId),
  );
  const periodIds = items.flatMap((item) => (item.periodId.startsWith('p') ? [Number(item.periodId.slice(1))] : []));
  const known = new Set(
    (
      await db().gradingPeriod.findMany({
        where: { schoolId: facts.schoolId!, id: { in: periodIds.filter(isStorableId) } },
        select: { id: true },
      })
    ).map((row) => `p${row.id}`),
  );
  const issues: Issue[] = items.flatMap((item, at) => [
    ...(enrollments.has(item.enrollmentId)
      ? []
      : [{ field: `finalComments.${at}.enrollmentId`, message: 'must be a student enrollment of this section' }]),
    ...(item.periodId.startsWith('p') && !known.has(item.periodId)
      ? [
          {
            field: `finalComments.${at}.periodId`,
            message: "must be a grading period of this section's school, other or final",
          },
        ]
      : []),
  ]);
  if (issues.length) throw new ValidationError(issues);
  const written = lastOfEach(items, (item) => `${item.enrollmentId}:${item.periodId}`);
  await writeTransaction(async (tx) => {
    for (const item of written) {
      const values = {
        comment: item.comment,
        commentVisible: item.commentVisible ?? false,
        ...(item.override !== undefined ? { override: item.override } : {}),
      };
      await tx.periodGrade.upsert({
        where: { enrollmentId_period: { enrollmentId: item.enrollmentId, period: item.periodId } },
        create: { enrollmentId: item.enrollmentId, sectionId, period: item.periodId, ...values },
        update: values,
      });
    }
    const entries = written.map((item) => ({ enrollment_id: item.enrollmentId, period_id: item.periodId }));
    await recordGradesWritten(tx, viewer, sectionId, facts, entries);
  });
  return { count: written.length };
}

/** One event for a write of a section's grades, naming the grades it wrote. */
function recordGradesWritten(
  tx: Prisma.TransactionClient,
  viewer: Viewer,
  sectionId: number,
  facts: Awaited<ReturnType<typeof gradeWriter>>,
  entries: Record<string, number | string>[],
) {
  return recordEvent(tx, gradeEvents.update, {
    realm: { type: 'SECTION', id: sectionId },
    objectId: sectionId,
    actorId: viewer.id,
    scope: facts,
    data: { entries },
  });
}

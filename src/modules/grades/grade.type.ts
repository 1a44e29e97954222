import { GradeException } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';
import { pageArgs, pageWindow, offsetListBeside } from '../../graphql/paging';
import { arrayConnection, connectionOf } from '../../graphql/connections';
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../graphql/builder';
import type { Model } from '../../graphql/columns';
import { readById } from '../../graphql/reads-by-id';
import { AssignmentType, GradeItemTypeEnum, GradingPeriodType, GradingScaleType } from '../gradebook/gradebook.type';
import { GradingCategoryType } from '../grading-categories/grading-category.type';
import { EnrollmentType, SectionType } from '../roster/roster.type';
import { UserType } from '../users/user.type';
import type { EnrollmentGradesView, GradeView, PeriodGradeView, PeriodView, SectionGradesView } from './grade.service';

/**
 * An object the grades name by database id (the item, the enrollment, its student, the category), read with what the
 * document selects of it. The grades of a page name theirs in the same turn, so each kind is one statement
 * (readById). No visibility rule applies past the grades': they name only what belongs to the section whose grades
 * the viewer reads (a student's own enrollment, the section's items, categories and periods, the school's scales).
 */
function gradeReference(model: Model, id: number, context: Context, info: GraphQLResolveInfo): Promise<never>;
function gradeReference(model: Model, id: number | null, context: Context, info: GraphQLResolveInfo): Promise<null>;
async function gradeReference(model: Model, id: number | null, context: Context, info: GraphQLResolveInfo) {
  if (id === null) return null;
  const selection = await queryFromInfo({ context, info, typeName: model, awaitSelections: true });
  // The row is of the field's type, with what the document selects of it.
  return readById<never>(model, selection, id);
}

/** The grading period a period key (`p<id>`) names; null for `other` and `final`. */
const periodIdOf = (key: string) => (/^p\d+$/.test(key) ? Number(key.slice(1)) : null);

/** The text a `...Id` field adds to its description: which id it holds, and where the object is. */
const databaseIdOf = (object: string) =>
  `A database id, as /v1 has it; \`${object}\` is the object, with its global id.`;

export const GradeExceptionEnum = builder.enumType(GradeException, {
  name: 'GradeException',
  description: 'An exception to a grade; the grade is null while one is set.',
  values: {
    EXCUSED: { description: 'The student is excused from the item; it does not count against them (`exception` 1).' },
    INCOMPLETE: { description: 'The work is incomplete and not graded yet (`exception` 2).' },
  },
});

const GradeType = builder.objectRef<GradeView>('Grade').implement({
  description: "An enrollment's grade on a graded item.",
  fields: (t) => ({
    enrollmentId: t.exposeID('enrollmentId', { description: `The graded enrollment. ${databaseIdOf('enrollment')}` }),
    enrollment: t.field({
      type: EnrollmentType,
      description: 'The graded enrollment (`enrollmentId`).',
      resolve: (grade, _args, context, info) => gradeReference('Enrollment', grade.enrollmentId, context, info),
    }),
    assignmentId: t.exposeID('assignmentId', { description: `The graded item. ${databaseIdOf('assignment')}` }),
    assignment: t.field({
      type: AssignmentType,
      description: 'The graded item (`assignmentId`).',
      resolve: (grade, _args, context, info) => gradeReference('Assignment', grade.assignmentId, context, info),
    }),
    type: t.field({
      type: GradeItemTypeEnum,
      description: 'Kind of graded item.',
      resolve: (grade) => grade.assignment.type,
    }),
    maxPoints: t.float({ description: 'Points the item is worth.', resolve: (grade) => grade.assignment.maxPoints }),
    isFinal: t.boolean({
      description: 'Whether the item is a midterm or final.',
      resolve: (grade) => grade.assignment.isFinal,
    }),
    categoryId: t.id({
      nullable: true,
      description: `The item's grading category. ${databaseIdOf('category')}`,
      resolve: (grade) => grade.assignment.categoryId,
    }),
    category: t.field({
      type: GradingCategoryType,
      nullable: true,
      description: "The item's grading category (`categoryId`); null when it has none.",
      resolve: (grade, _args, context, info) =>
        gradeReference('GradingCategory', grade.assignment.categoryId, context, info),
    }),
    scaleId: t.id({
      nullable: true,
      description: `The item's grading scale; null for numeric. ${databaseIdOf('scale')}`,
      resolve: (grade) => grade.assignment.scaleId,
    }),
    scale: t.field({
      type: GradingScaleType,
      nullable: true,
      description: "The item's grading scale (`scaleId`); null for numeric items.",
      resolve: (grade, _args, context, info) => gradeReference('GradingScale', grade.assignment.scaleId, context, info),
    }),
    periodId: t.string({
      description: "The item's period: `p<id>` or `other` (`period` is the grading period).",
      resolve: (grade) => (grade.assignment.periodId === null ? 'other' : `p${grade.assignment.periodId}`),
    }),
    period: t.field({
      type: GradingPeriodType,
      nullable: true,
      description: "The item's grading period (`periodId`); null for `other`.",
      resolve: (grade, _args, context, info) =>
        gradeReference('GradingPeriod', grade.assignment.periodId, context, info),
    }),
    grade: t.exposeFloat('grade', { nullable: true, description: 'Points earned; null while ungraded or excepted.' }),
    exception: t.expose('exception', {
      type: GradeExceptionEnum,
      nullable: true,
      description: 'An exception (excused, incomplete), if any.',
    }),
    letter: t.exposeString('letter', {
      nullable: true,
      description: "The letter the grade earns on the item's grading scale; null for numeric items.",
    }),
    comment: t.string({
      nullable: true,
      description:
        "The teacher's comment; null when there is none, and for a student or parent while it is not released to them.",
      resolve: (grade) => grade.comment || null,
    }),
    commentVisible: t.exposeBoolean('commentVisible', { description: 'Whether the student sees the comment.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the grade was last changed.' }),
  }),
});

const GradebookPeriodType = builder.objectRef<PeriodView>('GradebookPeriod').implement({
  description:
    "A grading period as a section's grades are grouped: a school period (`p<id>`), or `other` for items without one.",
  fields: (t) => ({
    id: t.exposeString('key', { description: '`p<id>` or `other`.' }),
    title: t.exposeString('title', { description: 'Title.' }),
    weight: t.exposeInt('weight', { description: 'Weight in the course final grade.' }),
  }),
});

const CategoryGradeType = builder.objectRef<PeriodGradeView['categories'][number]>('CategoryGrade').implement({
  description: "A grading category's computed grade in a period.",
  fields: (t) => ({
    categoryId: t.exposeID('categoryId', { description: `The grading category. ${databaseIdOf('category')}` }),
    category: t.field({
      type: GradingCategoryType,
      description: 'The grading category (`categoryId`).',
      resolve: (grade, _args, context, info) => gradeReference('GradingCategory', grade.categoryId, context, info),
    }),
    grade: t.exposeFloat('grade', { nullable: true, description: 'Percent; null while nothing in it counts.' }),
  }),
});

const PeriodGradeType = builder.objectRef<PeriodGradeView>('PeriodGrade').implement({
  description:
    "An enrollment's computed grade for a period or the course final, with the teacher's comment and override.",
  fields: (t) => ({
    periodId: t.exposeString('key', {
      description: '`p<id>`, `other`, or `final` for the course final (`period` is the grading period).',
    }),
    period: t.field({
      type: GradingPeriodType,
      nullable: true,
      description: 'The grading period (`periodId`); null for `other` and the course final.',
      resolve: (grade, _args, context, info) => gradeReference('GradingPeriod', periodIdOf(grade.key), context, info),
    }),
    grade: t.exposeFloat('grade', {
      nullable: true,
      description: 'Percent (the override when one is set); null while nothing counts.',
    }),
    override: t.exposeFloat('override', {
      nullable: true,
      description: "The teacher's override of the computed percent, if any.",
    }),
    comment: t.string({
      nullable: true,
      description:
        "The teacher's comment; null when there is none, and for a student or parent while it is not released to them.",
      resolve: (grade) => grade.comment || null,
    }),
    commentVisible: t.exposeBoolean('commentVisible', { description: 'Whether the student sees the comment.' }),
    categories: t.field({
      type: [CategoryGradeType],
      description: "Each category's grade in the period (none for the final).",
      resolve: (period) => period.categories,
    }),
  }),
});

const EnrollmentGradesType = builder.objectRef<EnrollmentGradesView>('EnrollmentGrades').implement({
  description: "An enrollment's period and final grades.",
  fields: (t) => ({
    enrollmentId: t.exposeID('enrollmentId', { description: `The enrollment. ${databaseIdOf('enrollment')}` }),
    enrollment: t.field({
      type: EnrollmentType,
      description: 'The enrollment (`enrollmentId`).',
      resolve: (view, _args, context, info) => gradeReference('Enrollment', view.enrollmentId, context, info),
    }),
    userId: t.exposeID('userId', { description: `The enrolled student. ${databaseIdOf('user')}` }),
    user: t.field({
      type: UserType,
      description: 'The enrolled student (`userId`).',
      resolve: (view, _args, context, info) => gradeReference('User', view.userId, context, info),
    }),
    periods: t.field({
      type: [PeriodGradeType],
      description: 'A grade per period, then the course final (`final`).',
      resolve: (view) => view.periods,
    }),
  }),
});

const GradebookCategoryType = builder
  .objectRef<SectionGradesView['categories'][number]>('GradebookCategory')
  .implement({
    description: 'A grading category as the grades name it.',
    fields: (t) => ({
      id: t.exposeID('id', { description: 'Grading category id.' }),
      title: t.exposeString('title', { description: 'Title.' }),
    }),
  });

export const SectionGradesType = builder.objectRef<SectionGradesView>('SectionGrades').implement({
  description:
    "A section's grades as the viewer reaches them (all for its teachers; a student's own; a parent's children's), with computed period and final grades.",
  fields: (t) => ({
    sectionId: t.exposeID('sectionId', { description: `The section. ${databaseIdOf('section')}` }),
    section: t.field({
      type: SectionType,
      description: 'The section (`sectionId`).',
      resolve: (view, _args, context, info) => gradeReference('Section', view.sectionId, context, info),
    }),
    grades: t.field({
      ...offsetListBeside('gradesConnection'),
      type: [GradeType],
      description: 'A page of the grades the filters select, by enrollment then item.',
      args: pageArgs,
      resolve: (view, args) => {
        const { start, limit } = pageWindow(args);
        return view.grades.slice(start, start + limit).map(view.viewOf);
      },
    }),
    gradesConnection: t.connection(
      {
        type: GradeType,
        description:
          'The grades `grades` pages, as a Relay connection in the same order (cursors are positions in this answer).',
        resolve: (view, args) => arrayConnection(args, view.grades, (page) => page.map(view.viewOf)),
      },
      connectionOf(GradeType),
    ),
    total: t.int({ description: 'Number of grades the filters select.', resolve: (view) => view.grades.length }),
    periods: t.field({
      type: [GradebookPeriodType],
      description: "The periods the section's items are in, by first day, then `other`.",
      resolve: (view) => view.periods,
    }),
    categories: t.field({
      type: [GradebookCategoryType],
      description: "The section's grading categories.",
      resolve: (view) => view.categories,
    }),
    enrollments: t.field({
      type: [EnrollmentGradesType],
      description: 'Period and final grades of each enrollment selected.',
      resolve: (view) => view.enrollments,
    }),
  }),
});

export const GradesWrittenType = builder.objectRef<{ count: number }>('GradesWritten').implement({
  description: 'Grades or final comments were written, all of them.',
  fields: (t) => ({ count: t.exposeInt('count', { description: 'Number of items written.' }) }),
});

import { GradeException } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';
import { pageArgs, pageWindow, offsetListBeside } from '../../graphql/paging';
import { arrayConnection, connectionOf } from '../../graphql/connections';
import { GradeItemTypeEnum } from '../gradebook/gradebook.type';
import type { EnrollmentGradesView, GradeView, PeriodGradeView, PeriodView, SectionGradesView } from './grade.service';

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
    enrollmentId: t.exposeID('enrollmentId', { description: 'The graded enrollment.' }),
    assignmentId: t.exposeID('assignmentId', { description: 'The graded item.' }),
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
      description: "The item's grading category.",
      resolve: (grade) => grade.assignment.categoryId,
    }),
    scaleId: t.id({
      nullable: true,
      description: "The item's grading scale; null for numeric.",
      resolve: (grade) => grade.assignment.scaleId,
    }),
    periodId: t.string({
      description: "The item's period: `p<id>` or `other`.",
      resolve: (grade) => (grade.assignment.periodId === null ? 'other' : `p${grade.assignment.periodId}`),
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
    categoryId: t.exposeID('categoryId', { description: 'The grading category.' }),
    grade: t.exposeFloat('grade', { nullable: true, description: 'Percent; null while nothing in it counts.' }),
  }),
});

const PeriodGradeType = builder.objectRef<PeriodGradeView>('PeriodGrade').implement({
  description:
    "An enrollment's computed grade for a period or the course final, with the teacher's comment and override.",
  fields: (t) => ({
    periodId: t.exposeString('key', { description: '`p<id>`, `other`, or `final` for the course final.' }),
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
    enrollmentId: t.exposeID('enrollmentId', { description: 'The enrollment.' }),
    userId: t.exposeID('userId', { description: 'The enrolled student.' }),
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
    sectionId: t.exposeID('sectionId', { description: 'The section.' }),
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

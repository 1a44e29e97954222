import { thenMaybe } from '../../core/maybe-promise';
import { allowsReading, verdictOf } from '../../auth/policy';
import { NotFoundError, ValidationError } from '../../core/errors';
import { isStorableId } from '../../auth/realms';
import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { deleteMutation, objectMutation, required } from '../../graphql/operations';
import { pageArgs, pageOf, paged } from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { gradebookPolicy, schoolGradingPolicy } from './gradebook.policy';
import type { Viewer } from '../../auth/viewer';
import {
  createAssignment,
  createGradingPeriod,
  createGradingScale,
  deleteAssignment,
  deleteGradingPeriod,
  deleteGradingScale,
  updateAssignment,
  updateGradingPeriod,
  updateGradingScale,
} from './gradebook.service';
import { GradeItemTypeEnum } from './gradebook.type';
import { checkedTotalCount, connectionOptions, keysetWindow, orderedWindow } from '../../graphql/connections';
import { registerNodeVisibility, visibleThrough } from '../../graphql/nodes';

/** The order of a school's grading periods: by first day, ids breaking ties. */
const periodOrder = [{ startsOn: 'asc' as const }, { id: 'asc' as const }];

builder.queryField('gradingPeriods', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: ['GradingPeriod'],
    nullable: true,
    description: 'The grading periods of a school, by first day; null when the school does not exist or is hidden.',
    args: { schoolId: t.arg.id({ required: true, description: 'The school.' }) },
    resolve: async (query, _root, args, { viewer }) => {
      const schoolId = parseId(args.schoolId, 'School', 'schoolId');
      if (!allowsReading(await verdictOf(viewer, schoolGradingPolicy, 'read', schoolId))) return null;
      return db().gradingPeriod.findMany({ ...query, where: { schoolId }, orderBy: periodOrder });
    },
  }),
);

builder.queryField('gradingPeriodsConnection', (t) =>
  t.withAuth({ authenticated: true }).prismaConnection({
    type: 'GradingPeriod',
    ...connectionOptions,
    // The cursor holds the period's place in the order (first day, id): see orderedWindow.
    cursor: 'startsOn_id',
    nullable: true,
    description: 'The periods `gradingPeriods` lists, as a Relay connection in the same order (by first day); null when the school does not exist or is hidden.',
    args: { schoolId: t.arg.id({ required: true, description: 'The school.' }) },
    resolve: async (query, _root, args, { viewer }) => {
      const selection = { ...query }; // consumed on the null path too (see findIfVisible)
      const schoolId = parseId(args.schoolId, 'School', 'schoolId');
      if (!allowsReading(await verdictOf(viewer, schoolGradingPolicy, 'read', schoolId))) return null;
      return db().gradingPeriod.findMany(orderedWindow('GradingPeriod', selection, { schoolId }, periodOrder));
    },
  }, checkedTotalCount((args: { schoolId: string | number }) => db().gradingPeriod.count({ where: { schoolId: parseId(args.schoolId, 'School', 'schoolId') } }))),
);

builder.queryField('gradingScales', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: ['GradingScale'],
    nullable: true,
    description: 'The grading scales of a school; null when the school does not exist or is hidden.',
    args: { schoolId: t.arg.id({ required: true, description: 'The school.' }) },
    resolve: async (query, _root, args, { viewer }) => {
      const schoolId = parseId(args.schoolId, 'School', 'schoolId');
      if (!allowsReading(await verdictOf(viewer, schoolGradingPolicy, 'read', schoolId))) return null;
      return db().gradingScale.findMany({ ...query, where: { schoolId }, orderBy: { id: 'asc' } });
    },
  }),
);

builder.queryField('gradingScalesConnection', (t) =>
  t.withAuth({ authenticated: true }).prismaConnection({
    type: 'GradingScale',
    ...connectionOptions,
    nullable: true,
    description: 'The scales `gradingScales` lists, as a Relay connection in the same order; null when the school does not exist or is hidden.',
    args: { schoolId: t.arg.id({ required: true, description: 'The school.' }) },
    resolve: async (query, _root, args, { viewer }) => {
      const selection = { ...query }; // consumed on the null path too (see findIfVisible)
      const schoolId = parseId(args.schoolId, 'School', 'schoolId');
      if (!allowsReading(await verdictOf(viewer, schoolGradingPolicy, 'read', schoolId))) return null;
      return db().gradingScale.findMany(keysetWindow(selection, { schoolId }));
    },
  }, checkedTotalCount((args: { schoolId: string | number }) => db().gradingScale.count({ where: { schoolId: parseId(args.schoolId, 'School', 'schoolId') } }))),
);

const AssignmentPage = pageOf('Assignment', 'A page of a section\'s graded items.');

/** Whether the viewer reads the section's gradebook: false when the section is hidden, a 403 when it is closed to them. */
const readsGradebook = async (viewer: Viewer, sectionId: number) => allowsReading(await verdictOf(viewer, gradebookPolicy, 'read', sectionId));

builder.queryField('assignments', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: AssignmentPage,
    nullable: true,
    description: 'The graded items of a section, for those who read its gradebook; null when the section does not exist or is hidden.',
    args: { sectionId: t.arg.id({ required: true, description: 'The course section.' }), ...pageArgs },
    resolve: async (_root, args, { viewer }) => {
      const sectionId = parseId(args.sectionId, 'Section', 'sectionId');
      if (!(await readsGradebook(viewer, sectionId))) return null;
      const where = { sectionId };
      return paged(args, { findMany: (query) => db().assignment.findMany({ ...query, where }), count: () => db().assignment.count({ where }) });
    },
  }),
);

builder.queryField('assignmentsConnection', (t) =>
  t.withAuth({ authenticated: true }).prismaConnection({
    type: 'Assignment',
    ...connectionOptions,
    nullable: true,
    description: 'The items `assignments` lists, as a Relay connection in the same order; null when the section does not exist or is hidden.',
    args: { sectionId: t.arg.id({ required: true, description: 'The course section.' }) },
    resolve: async (query, _root, args, { viewer }) => {
      const selection = { ...query }; // consumed on the null path too (see findIfVisible)
      const sectionId = parseId(args.sectionId, 'Section', 'sectionId');
      if (!(await readsGradebook(viewer, sectionId))) return null;
      return db().assignment.findMany(keysetWindow(selection, { sectionId }));
    },
  }, checkedTotalCount((args: { sectionId: string | number }) => db().assignment.count({ where: { sectionId: parseId(args.sectionId, 'Section', 'sectionId') } }))),
);

builder.queryField('assignment', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'Assignment',
    nullable: true,
    description: 'A graded item of a section; null when it or the section does not exist or is hidden.',
    args: { sectionId: t.arg.id({ required: true, description: 'The course section.' }), id: t.arg.id({ required: true, description: 'Assignment id.' }) },
    resolve: async (query, _root, args, { viewer }) => {
      const sectionId = parseId(args.sectionId, 'Section', 'sectionId');
      if (!allowsReading(await verdictOf(viewer, gradebookPolicy, 'read', sectionId))) return null;
      const id = parseId(args.id, 'Assignment');
      return isStorableId(id) ? db().assignment.findFirst({ ...query, where: { id, sectionId } }) : null;
    },
  }),
);

const periodInput = (name: string, create: boolean) =>
  builder.inputType(name, {
    description: create ? 'A new grading period.' : 'Changes to a grading period; members left out keep their values.',
    fields: (t) => ({
      title: t.string({ required: create, description: 'Title, such as "Fall 2026".' }),
      startsOn: t.string({ required: create, description: 'First day, YYYY-MM-DD.' }),
      endsOn: t.string({ required: create, description: 'Last day, YYYY-MM-DD.' }),
      weight: t.int({ description: 'Weight in the course final grade; default 1.' }),
    }),
  });

const LevelInput = builder.inputType('GradingScaleLevelInput', {
  description: 'A level of a grading scale.',
  fields: (t) => ({
    grade: t.string({ required: true, description: 'The letter grade, such as "A".' }),
    minimum: t.float({ required: true, description: 'The lowest percent that earns it.' }),
  }),
});
const scaleInput = (name: string, create: boolean) =>
  builder.inputType(name, {
    description: create ? 'A new grading scale.' : 'Changes to a grading scale; members left out keep their values.',
    fields: (t) => ({
      title: t.string({ required: create, description: 'Title.' }),
      levels: t.field({ type: [LevelInput], required: create, description: 'The levels, highest first; a new list replaces the old one.' }),
    }),
  });

const assignmentInput = (name: string, create: boolean) =>
  builder.inputType(name, {
    description: create ? 'A new graded item.' : 'Changes to a graded item; members left out keep their values, null clears a reference.',
    fields: (t) => ({
      title: t.string({ required: create, description: 'Title.' }),
      type: t.field({ type: GradeItemTypeEnum, description: 'Kind of item; default ASSIGNMENT.' }),
      maxPoints: t.float({ description: 'Points it is worth; default the category\'s default points, else 100.' }),
      categoryId: t.id({ description: 'Grading category of the section; without one the item is ungraded.' }),
      scaleId: t.id({ description: 'Grading scale of the school; default the category\'s.' }),
      periodId: t.id({ description: 'Grading period of the school; without one the item is filed under "other".' }),
      isFinal: t.boolean({ description: 'Whether it is a midterm or final.' }),
    }),
  });

const CreatePeriod = periodInput('CreateGradingPeriodInput', true);
const UpdatePeriod = periodInput('UpdateGradingPeriodInput', false);
const CreateScale = scaleInput('CreateGradingScaleInput', true);
const UpdateScale = scaleInput('UpdateGradingScaleInput', false);
const CreateAssignment = assignmentInput('CreateAssignmentInput', true);
const UpdateAssignment = assignmentInput('UpdateAssignmentInput', false);

objectMutation('createGradingPeriod', {
  type: 'GradingPeriod',
  description: 'Adds a grading period to a school (its administrators).',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ schoolId: arg.id({ required: true, description: 'The school.' }), input: arg(required(CreatePeriod, 'The new grading period.')) }),
  resolve: (viewer, args, query) => createGradingPeriod(viewer, parseId(args.schoolId, 'School', 'schoolId'), args.input, query),
});
objectMutation('updateGradingPeriod', {
  type: 'GradingPeriod',
  description: 'Changes a grading period.',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The grading period to change.' }), input: arg(required(UpdatePeriod, 'What to change; members left out keep their values.')) }),
  resolve: (viewer, args, query) => updateGradingPeriod(viewer, parseId(args.id, 'GradingPeriod'), args.input, query),
});
deleteMutation('deleteGradingPeriod', {
  description: 'Deletes a grading period; its assignments are filed under "other" and its comments and overrides are removed.',
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The grading period to delete.' }) }),
  resolve: (viewer, args) => deleteGradingPeriod(viewer, parseId(args.id, 'GradingPeriod')),
});
objectMutation('createGradingScale', {
  type: 'GradingScale',
  description: 'Adds a grading scale to a school (its administrators).',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ schoolId: arg.id({ required: true, description: 'The school.' }), input: arg(required(CreateScale, 'The new grading scale.')) }),
  resolve: (viewer, args, query) => createGradingScale(viewer, parseId(args.schoolId, 'School', 'schoolId'), args.input, query),
});
objectMutation('updateGradingScale', {
  type: 'GradingScale',
  description: 'Changes a grading scale; grades already given keep their points.',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The grading scale to change.' }), input: arg(required(UpdateScale, 'What to change; members left out keep their values.')) }),
  resolve: (viewer, args, query) => updateGradingScale(viewer, parseId(args.id, 'GradingScale'), args.input, query),
});
deleteMutation('deleteGradingScale', {
  description: 'Deletes a grading scale; assignments and categories that used it become numeric.',
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The grading scale to delete.' }) }),
  resolve: (viewer, args) => deleteGradingScale(viewer, parseId(args.id, 'GradingScale')),
});
objectMutation('createAssignment', {
  type: 'Assignment',
  description: 'Adds a graded item to a section (its teachers and administrators).',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ sectionId: arg.id({ required: true, description: 'The course section.' }), input: arg(required(CreateAssignment, 'The new assignment.')) }),
  resolve: (viewer, args, query) => createAssignment(viewer, parseId(args.sectionId, 'Section', 'sectionId'), args.input, query),
});
objectMutation('updateAssignment', {
  type: 'Assignment',
  description: 'Changes a graded item.',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The assignment to change.' }), input: arg(required(UpdateAssignment, 'What to change; members left out keep their values.')) }),
  resolve: (viewer, args, query) => updateAssignment(viewer, parseId(args.id, 'Assignment'), args.input, query),
});
deleteMutation('deleteAssignment', {
  description: 'Deletes a graded item and its grades.',
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The assignment to delete.' }) }),
  resolve: (viewer, args) => deleteAssignment(viewer, parseId(args.id, 'Assignment')),
});

/** For `node`: an object of a school's or a section's gradebook is seen by whoever its list query shows it to. */
const bySchool = (viewer: Viewer, schoolId: number) => thenMaybe(verdictOf(viewer, schoolGradingPolicy, 'read', schoolId), allowsReading);
const schoolOf = { select: { schoolId: true }, of: (row: { id: number; schoolId: number }) => row.schoolId };
registerNodeVisibility('GradingPeriod', visibleThrough('GradingPeriod', schoolOf, bySchool));
registerNodeVisibility('GradingScale', visibleThrough('GradingScale', schoolOf, bySchool));
registerNodeVisibility(
  'Assignment',
  visibleThrough('Assignment', { select: { sectionId: true }, of: (row: { id: number; sectionId: number }) => row.sectionId }, (viewer, sectionId) =>
    thenMaybe(verdictOf(viewer, gradebookPolicy, 'read', sectionId), allowsReading),
  ),
);

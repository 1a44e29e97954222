import { NotFoundError, ValidationError } from '../../core/errors';
import { builder } from '../../graphql/builder';
import { deleteMutation, objectMutation, required } from '../../graphql/operations';
import { parseId } from '../../graphql/realm';
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

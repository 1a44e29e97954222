import { NotFoundError } from '../../core/errors';
import { deleteMutation, objectMutation, required } from '../../graphql/operations';
import { inputFromSchema } from '../../graphql/inputs';
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
import {
  createAssignmentSchema,
  createGradingPeriodSchema,
  createGradingScaleSchema,
  gradingScaleLevelSchema,
  updateAssignmentSchema,
  updateGradingPeriodSchema,
  updateGradingScaleSchema,
} from './gradebook.validation';

const changes = 'members left out keep their values';
const CreatePeriod = inputFromSchema('CreateGradingPeriodInput', createGradingPeriodSchema, 'A new grading period.');
const UpdatePeriod = inputFromSchema(
  'UpdateGradingPeriodInput',
  updateGradingPeriodSchema,
  `Changes to a grading period; ${changes}.`,
);
const LevelInput = inputFromSchema('GradingScaleLevelInput', gradingScaleLevelSchema, 'A level of a grading scale.');
const CreateScale = inputFromSchema('CreateGradingScaleInput', createGradingScaleSchema, 'A new grading scale.', {
  levels: LevelInput,
});
const UpdateScale = inputFromSchema(
  'UpdateGradingScaleInput',
  updateGradingScaleSchema,
  `Changes to a grading scale; ${changes}.`,
  { levels: LevelInput },
);
const CreateAssignment = inputFromSchema('CreateAssignmentInput', createAssignmentSchema, 'A new graded item.', {
  type: GradeItemTypeEnum,
});
const UpdateAssignment = inputFromSchema(
  'UpdateAssignmentInput',
  updateAssignmentSchema,
  `Changes to a graded item; ${changes}, null clears a reference.`,
  { type: GradeItemTypeEnum },
);

objectMutation('createGradingPeriod', {
  type: 'GradingPeriod',
  description: 'Adds a grading period to a school (its administrators).',
  args: (arg) => ({
    schoolId: arg.id({ required: true, description: 'The school.' }),
    input: arg(required(CreatePeriod, 'The new grading period.')),
  }),
  resolve: (viewer, args, query) =>
    createGradingPeriod(viewer, parseId(args.schoolId, 'School', 'schoolId'), args.input, query),
});
objectMutation('updateGradingPeriod', {
  type: 'GradingPeriod',
  description: 'Changes a grading period.',
  args: (arg) => ({
    id: arg.id({ required: true, description: 'The grading period to change.' }),
    input: arg(required(UpdatePeriod, 'What to change; members left out keep their values.')),
  }),
  resolve: (viewer, args, query) => updateGradingPeriod(viewer, parseId(args.id, 'GradingPeriod'), args.input, query),
});
deleteMutation('deleteGradingPeriod', {
  description:
    'Deletes a grading period; its assignments are filed under "other" and its comments and overrides are removed.',
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The grading period to delete.' }) }),
  resolve: (viewer, args) => deleteGradingPeriod(viewer, parseId(args.id, 'GradingPeriod')),
});
objectMutation('createGradingScale', {
  type: 'GradingScale',
  description: 'Adds a grading scale to a school (its administrators).',
  args: (arg) => ({
    schoolId: arg.id({ required: true, description: 'The school.' }),
    input: arg(required(CreateScale, 'The new grading scale.')),
  }),
  resolve: (viewer, args, query) =>
    createGradingScale(viewer, parseId(args.schoolId, 'School', 'schoolId'), args.input, query),
});
objectMutation('updateGradingScale', {
  type: 'GradingScale',
  description: 'Changes a grading scale; grades already given keep their points.',
  args: (arg) => ({
    id: arg.id({ required: true, description: 'The grading scale to change.' }),
    input: arg(required(UpdateScale, 'What to change; members left out keep their values.')),
  }),
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
  args: (arg) => ({
    sectionId: arg.id({ required: true, description: 'The course section.' }),
    input: arg(required(CreateAssignment, 'The new assignment.')),
  }),
  resolve: (viewer, args, query) =>
    createAssignment(viewer, parseId(args.sectionId, 'Section', 'sectionId'), args.input, query),
});
objectMutation('updateAssignment', {
  type: 'Assignment',
  description: 'Changes a graded item.',
  args: (arg) => ({
    id: arg.id({ required: true, description: 'The assignment to change.' }),
    input: arg(required(UpdateAssignment, 'What to change; members left out keep their values.')),
  }),
  resolve: (viewer, args, query) => updateAssignment(viewer, parseId(args.id, 'Assignment'), args.input, query),
});
deleteMutation('deleteAssignment', {
  description: 'Deletes a graded item and its grades.',
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The assignment to delete.' }) }),
  resolve: (viewer, args) => deleteAssignment(viewer, parseId(args.id, 'Assignment')),
});

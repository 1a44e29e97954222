import { NotFoundError } from '../../core/errors';
import { deleteMutation, objectMutation, required } from '../../graphql/operations';
import { changesInput, inputFromSchema } from '../../graphql/inputs';
import { parseId } from '../../graphql/realm';
import { createGradingGroup, deleteGradingGroup, updateGradingGroup } from './grading-group.service';
import { createGradingGroupSchema, updateGradingGroupSchema } from './grading-group.validation';

const CreateGradingGroupInput = inputFromSchema(
  'CreateGradingGroupInput',
  createGradingGroupSchema,
  'A new grading group.',
);
const UpdateGradingGroupInput = changesInput('UpdateGradingGroupInput', updateGradingGroupSchema, 'a grading group');

objectMutation('createGradingGroup', {
  type: 'GradingGroup',
  description: 'Makes a grading group of enrollments of a section (its administrators).',
  args: (arg) => ({
    sectionId: arg.id({ required: true, description: 'The course section.' }),
    input: arg(required(CreateGradingGroupInput, 'The new grading group.')),
  }),
  resolve: (viewer, args, query) =>
    createGradingGroup(viewer, parseId(args.sectionId, 'Section', 'sectionId'), args.input, query),
});
objectMutation('updateGradingGroup', {
  type: 'GradingGroup',
  description: 'Renames a grading group or replaces its enrollments.',
  args: (arg) => ({
    id: arg.id({ required: true, description: 'The grading group to change.' }),
    input: arg(required(UpdateGradingGroupInput, 'What to change; members left out keep their values.')),
  }),
  resolve: (viewer, args, query) => updateGradingGroup(viewer, parseId(args.id, 'GradingGroup'), args.input, query),
});
deleteMutation('deleteGradingGroup', {
  description: 'Deletes a grading group; what was assigned to it is no longer assigned through it.',
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The grading group to delete.' }) }),
  resolve: (viewer, args) => deleteGradingGroup(viewer, parseId(args.id, 'GradingGroup')),
});

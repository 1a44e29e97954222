import { NotFoundError, ValidationError } from '../../core/errors';
import { builder } from '../../graphql/builder';
import { deleteMutation, objectMutation, required } from '../../graphql/operations';
import { parseId } from '../../graphql/realm';
import { createGradingGroup, deleteGradingGroup, updateGradingGroup } from './grading-group.service';

const gradingGroupInput = (name: string, description: string, create: boolean) =>
  builder.inputType(name, {
    description,
    fields: (t) => ({
      title: t.string({ required: create, description: 'Title.' }),
      enrollmentIds: t.idList({ description: 'Enrollments of the section in the group; a new list replaces the old one.' }),
    }),
  });
const CreateGradingGroupInput = gradingGroupInput('CreateGradingGroupInput', 'A new grading group.', true);
const UpdateGradingGroupInput = gradingGroupInput('UpdateGradingGroupInput', 'Changes to a grading group; members left out keep their values.', false);

objectMutation('createGradingGroup', {
  type: 'GradingGroup',
  description: 'Makes a grading group of enrollments of a section (its administrators).',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ sectionId: arg.id({ required: true, description: 'The course section.' }), input: arg(required(CreateGradingGroupInput, 'The new grading group.')) }),
  resolve: (viewer, args, query) => createGradingGroup(viewer, parseId(args.sectionId, 'Section', 'sectionId'), args.input, query),
});
objectMutation('updateGradingGroup', {
  type: 'GradingGroup',
  description: 'Renames a grading group or replaces its enrollments.',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The grading group to change.' }), input: arg(required(UpdateGradingGroupInput, 'What to change; members left out keep their values.')) }),
  resolve: (viewer, args, query) => updateGradingGroup(viewer, parseId(args.id, 'GradingGroup'), args.input, query),
});
deleteMutation('deleteGradingGroup', {
  description: 'Deletes a grading group; what was assigned to it is no longer assigned through it.',
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The grading group to delete.' }) }),
  resolve: (viewer, args) => deleteGradingGroup(viewer, parseId(args.id, 'GradingGroup')),
});

import { objectIdInput, objectIdMember, withMembers } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import { parseId } from '../../graphql/realm';
import { createGradingGroup, deleteGradingGroup, updateGradingGroup } from './grading-group.service';
import { createGradingGroupSchema, updateGradingGroupSchema } from './grading-group.validation';

payloadMutation('createGradingGroup', {
  description: 'Makes a grading group of enrollments of a section (its administrators).',
  input: withMembers(createGradingGroupSchema, { sectionId: objectIdMember('The course section.') }),
  inputDescription: 'A new grading group of a section.',
  payload: { gradingGroup: { model: 'GradingGroup', description: 'The new grading group.' } },
  resolve: async (viewer, { sectionId, ...input }, select) => ({
    gradingGroup: await createGradingGroup(
      viewer,
      parseId(sectionId, 'Section', 'sectionId'),
      input,
      select('gradingGroup'),
    ),
  }),
});
payloadMutation('updateGradingGroup', {
  description: 'Renames a grading group or replaces its enrollments.',
  input: withMembers(updateGradingGroupSchema, { id: objectIdMember('The grading group to change.') }),
  inputDescription: 'The grading group, and changes to it; members left out keep their values.',
  payload: { gradingGroup: { model: 'GradingGroup', description: 'The grading group as changed.' } },
  resolve: async (viewer, { id, ...changes }, select) => ({
    gradingGroup: await updateGradingGroup(viewer, parseId(id, 'GradingGroup'), changes, select('gradingGroup')),
  }),
});
payloadMutation('deleteGradingGroup', {
  description: 'Deletes a grading group; what was assigned to it is no longer assigned through it.',
  input: objectIdInput('The grading group to delete.'),
  inputDescription: 'The grading group to delete.',
  payload: { deletedGradingGroupId: { deleted: 'GradingGroup', description: 'Global id of the deleted group.' } },
  resolve: async (viewer, { id }) => ({
    deletedGradingGroupId: (await deleteGradingGroup(viewer, parseId(id, 'GradingGroup'))).id,
  }),
});

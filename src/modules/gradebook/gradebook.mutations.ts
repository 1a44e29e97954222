import { inputFromSchema, objectIdInput, objectIdMember, withMembers } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
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
const LevelInput = inputFromSchema('GradingScaleLevelInput', gradingScaleLevelSchema, 'A level of a grading scale.');
const school = { schoolId: objectIdMember('The school.') };
const section = { sectionId: objectIdMember('The course section.') };

payloadMutation('createGradingPeriod', {
  description: 'Adds a grading period to a school (its administrators).',
  input: withMembers(createGradingPeriodSchema, school),
  inputDescription: 'A new grading period of a school.',
  payload: { gradingPeriod: { model: 'GradingPeriod', description: 'The new grading period.' } },
  resolve: async (viewer, { schoolId, ...input }, select) => ({
    gradingPeriod: await createGradingPeriod(
      viewer,
      parseId(schoolId, 'School', 'schoolId'),
      input,
      select('gradingPeriod'),
    ),
  }),
});
payloadMutation('updateGradingPeriod', {
  description: 'Changes a grading period.',
  input: withMembers(updateGradingPeriodSchema, { id: objectIdMember('The grading period to change.') }),
  inputDescription: `The grading period, and changes to it; ${changes}.`,
  payload: { gradingPeriod: { model: 'GradingPeriod', description: 'The grading period as changed.' } },
  resolve: async (viewer, { id, ...input }, select) => ({
    gradingPeriod: await updateGradingPeriod(viewer, parseId(id, 'GradingPeriod'), input, select('gradingPeriod')),
  }),
});
payloadMutation('deleteGradingPeriod', {
  description:
    'Deletes a grading period; its assignments are filed under "other" and its comments and overrides are removed.',
  input: objectIdInput('The grading period to delete.'),
  inputDescription: 'The grading period to delete.',
  payload: { deletedGradingPeriodId: { deleted: 'GradingPeriod', description: 'Global id of the deleted period.' } },
  resolve: async (viewer, { id }) => ({
    deletedGradingPeriodId: (await deleteGradingPeriod(viewer, parseId(id, 'GradingPeriod'))).id,
  }),
});
payloadMutation('createGradingScale', {
  description: 'Adds a grading scale to a school (its administrators).',
  input: withMembers(createGradingScaleSchema, school),
  inputDescription: 'A new grading scale of a school.',
  types: { levels: LevelInput },
  payload: { gradingScale: { model: 'GradingScale', description: 'The new grading scale.' } },
  resolve: async (viewer, { schoolId, ...input }, select) => ({
    gradingScale: await createGradingScale(
      viewer,
      parseId(schoolId, 'School', 'schoolId'),
      input,
      select('gradingScale'),
    ),
  }),
});
payloadMutation('updateGradingScale', {
  description: 'Changes a grading scale; grades already given keep their points.',
  input: withMembers(updateGradingScaleSchema, { id: objectIdMember('The grading scale to change.') }),
  inputDescription: `The grading scale, and changes to it; ${changes}.`,
  types: { levels: LevelInput },
  payload: { gradingScale: { model: 'GradingScale', description: 'The grading scale as changed.' } },
  resolve: async (viewer, { id, ...input }, select) => ({
    gradingScale: await updateGradingScale(viewer, parseId(id, 'GradingScale'), input, select('gradingScale')),
  }),
});
payloadMutation('deleteGradingScale', {
  description: 'Deletes a grading scale; assignments and categories that used it become numeric.',
  input: objectIdInput('The grading scale to delete.'),
  inputDescription: 'The grading scale to delete.',
  payload: { deletedGradingScaleId: { deleted: 'GradingScale', description: 'Global id of the deleted scale.' } },
  resolve: async (viewer, { id }) => ({
    deletedGradingScaleId: (await deleteGradingScale(viewer, parseId(id, 'GradingScale'))).id,
  }),
});
payloadMutation('createAssignment', {
  description: 'Adds a graded item to a section (its teachers and administrators).',
  input: withMembers(createAssignmentSchema, section),
  inputDescription: 'A new graded item of a section.',
  types: { type: GradeItemTypeEnum },
  payload: { assignment: { model: 'Assignment', description: 'The new assignment.' } },
  resolve: async (viewer, { sectionId, ...input }, select) => ({
    assignment: await createAssignment(viewer, parseId(sectionId, 'Section', 'sectionId'), input, select('assignment')),
  }),
});
payloadMutation('updateAssignment', {
  description: 'Changes a graded item.',
  input: withMembers(updateAssignmentSchema, { id: objectIdMember('The assignment to change.') }),
  inputDescription: `The graded item, and changes to it; ${changes}, null clears a reference.`,
  types: { type: GradeItemTypeEnum },
  payload: { assignment: { model: 'Assignment', description: 'The assignment as changed.' } },
  resolve: async (viewer, { id, ...input }, select) => ({
    assignment: await updateAssignment(viewer, parseId(id, 'Assignment'), input, select('assignment')),
  }),
});
payloadMutation('deleteAssignment', {
  description: 'Deletes a graded item and its grades.',
  input: objectIdInput('The assignment to delete.'),
  inputDescription: 'The assignment to delete.',
  payload: { deletedAssignmentId: { deleted: 'Assignment', description: 'Global id of the deleted assignment.' } },
  resolve: async (viewer, { id }) => ({
    deletedAssignmentId: (await deleteAssignment(viewer, parseId(id, 'Assignment'))).id,
  }),
});

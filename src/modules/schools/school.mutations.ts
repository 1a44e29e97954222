import { objectIdInput, objectIdMember, withMembers } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import { parseId } from '../../graphql/realm';
import { createBuilding, createSchool, deleteSchool, updateSchool } from './school.service';
import { createSchoolSchema, updateSchoolSchema } from './school.validation';

payloadMutation('createSchool', {
  description: "Creates a school in the viewer's district (district administrators).",
  input: createSchoolSchema,
  inputDescription: 'A new school.',
  payload: { school: { model: 'School', description: 'The new school.' } },
  resolve: async (viewer, input, select) => ({ school: await createSchool(viewer, input, select('school')) }),
});
payloadMutation('createBuilding', {
  description: 'Creates a building of a school (its district or school administrators).',
  input: withMembers(createSchoolSchema, { schoolId: objectIdMember('The school the building belongs to.') }),
  inputDescription: 'A new building, and the school it belongs to.',
  // A building is a School; `building` tells it from the school it belongs to.
  payload: { building: { model: 'School', description: 'The new building.' } },
  resolve: async (viewer, { schoolId, ...building }, select) => ({
    building: await createBuilding(viewer, parseId(schoolId, 'School', 'schoolId'), building, select('building')),
  }),
});
payloadMutation('updateSchool', {
  description: 'Changes a school or building (its district or school administrators).',
  input: withMembers(updateSchoolSchema, { id: objectIdMember('The school or building to change.') }),
  inputDescription: 'The school or building, and changes to it; members left out keep their values.',
  payload: { school: { model: 'School', description: 'The school or building as changed.' } },
  resolve: async (viewer, { id, ...changes }, select) => ({
    school: await updateSchool(viewer, parseId(id, 'School'), changes, select('school')),
  }),
});
payloadMutation('deleteSchool', {
  description:
    "Deletes a school with everything in it (district administrators), or a building (also its school's administrators).",
  input: objectIdInput('The school or building to delete.'),
  inputDescription: 'The school or building to delete.',
  payload: { deletedSchoolId: { deleted: 'School', description: 'Global id of the deleted school or building.' } },
  resolve: async (viewer, { id }) => ({ deletedSchoolId: (await deleteSchool(viewer, parseId(id, 'School'))).id }),
});

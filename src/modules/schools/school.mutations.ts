import { NotFoundError, ValidationError } from '../../core/errors';
import { deleteMutation, objectMutation, required } from '../../graphql/operations';
import { changesInput, inputFromSchema } from '../../graphql/inputs';
import { parseId } from '../../graphql/realm';
import { createBuilding, createSchool, deleteSchool, updateSchool } from './school.service';
import { createSchoolSchema, updateSchoolSchema } from './school.validation';

const CreateSchoolInput = inputFromSchema('CreateSchoolInput', createSchoolSchema, 'A new school or building.');
const UpdateSchoolInput = changesInput('UpdateSchoolInput', updateSchoolSchema, 'a school or building');

objectMutation('createSchool', {
  type: 'School',
  description: "Creates a school in the viewer's district (district administrators).",
  args: (arg) => ({ input: arg(required(CreateSchoolInput, 'The new school.')) }),
  resolve: (viewer, args, query) => createSchool(viewer, args.input, query),
});
objectMutation('createBuilding', {
  type: 'School',
  description: 'Creates a building of a school (its district or school administrators).',
  args: (arg) => ({
    schoolId: arg.id({ required: true, description: 'The school the building belongs to.' }),
    input: arg(required(CreateSchoolInput, 'The new building.')),
  }),
  resolve: (viewer, args, query) =>
    createBuilding(viewer, parseId(args.schoolId, 'School', 'schoolId'), args.input, query),
});
objectMutation('updateSchool', {
  type: 'School',
  description: 'Changes a school or building (its district or school administrators).',
  args: (arg) => ({
    id: arg.id({ required: true, description: 'The school to change.' }),
    input: arg(required(UpdateSchoolInput, 'What to change; members left out keep their values.')),
  }),
  resolve: (viewer, args, query) => updateSchool(viewer, parseId(args.id, 'School'), args.input, query),
});
deleteMutation('deleteSchool', {
  description:
    "Deletes a school with everything in it (district administrators), or a building (also its school's administrators).",
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The school to delete.' }) }),
  resolve: (viewer, args) => deleteSchool(viewer, parseId(args.id, 'School')),
});

import { type InputFieldBuilder, builder } from '../../graphql/builder';
import { NotFoundError, ValidationError } from '../../core/errors';
import { deleteMutation, objectMutation, required } from '../../graphql/operations';
import { parseId } from '../../graphql/realm';
import { createBuilding, createSchool, deleteSchool, updateSchool } from './school.service';

const optionalSchoolFields = (t: InputFieldBuilder) => ({
  address1: t.string({ description: 'First address line.' }),
  address2: t.string({ description: 'Second address line.' }),
  city: t.string({ description: 'City.' }),
  state: t.string({ description: 'State or region.' }),
  postalCode: t.string({ description: 'Postal code.' }),
  country: t.string({ description: 'Country.' }),
  website: t.string({ description: 'Website URL.' }),
  phone: t.string({ description: 'Phone number.' }),
  fax: t.string({ description: 'Fax number.' }),
  pictureUrl: t.string({ description: 'Picture URL.' }),
  buildingCode: t.string({ description: 'Code of the building, used by imports.' }),
});

const CreateSchoolInput = builder.inputType('CreateSchoolInput', {
  description: 'A new school or building.',
  fields: (t) => ({ title: t.string({ required: true, description: 'Name of the school.' }), ...optionalSchoolFields(t) }),
});

const UpdateSchoolInput = builder.inputType('UpdateSchoolInput', {
  description: 'Changes to a school or building; members left out keep their values.',
  fields: (t) => ({ title: t.string({ description: 'Name of the school.' }), ...optionalSchoolFields(t) }),
});

objectMutation('createSchool', {
  type: 'School',
  description: 'Creates a school in the viewer\'s district (district administrators).',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ input: arg(required(CreateSchoolInput, 'The new school.')) }),
  resolve: (viewer, args, query) => createSchool(viewer, args.input, query),
});
objectMutation('createBuilding', {
  type: 'School',
  description: 'Creates a building of a school (its district or school administrators).',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({
    schoolId: arg.id({ required: true, description: 'The school the building belongs to.' }),
    input: arg(required(CreateSchoolInput, 'The new building.')),
  }),
  resolve: (viewer, args, query) => createBuilding(viewer, parseId(args.schoolId, 'School', 'schoolId'), args.input, query),
});
objectMutation('updateSchool', {
  type: 'School',
  description: 'Changes a school or building (its district or school administrators).',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The school to change.' }), input: arg(required(UpdateSchoolInput, 'What to change; members left out keep their values.')) }),
  resolve: (viewer, args, query) => updateSchool(viewer, parseId(args.id, 'School'), args.input, query),
});
deleteMutation('deleteSchool', {
  description: 'Deletes a school with everything in it (district administrators), or a building (also its school\'s administrators).',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The school to delete.' }) }),
  resolve: (viewer, args) => deleteSchool(viewer, parseId(args.id, 'School')),
});

import { type InputFieldBuilder, builder } from '../../graphql/builder';
import { DeletedType } from '../../graphql/deleted';
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

builder.mutationFields((t) => ({
  createSchool: t.withAuth({ authenticated: true }).prismaField({
    type: 'School',
    description: 'Creates a school in the viewer\'s district (district administrators).',
    errors: {},
    args: { input: t.arg({ type: CreateSchoolInput, required: true }) },
    resolve: (query, _root, args, { viewer }) => createSchool(viewer, args.input, query),
  }),
  createBuilding: t.withAuth({ authenticated: true }).prismaField({
    type: 'School',
    description: 'Creates a building of a school (its district or school administrators).',
    errors: {},
    args: {
      schoolId: t.arg.id({ required: true, description: 'The school the building belongs to.' }),
      input: t.arg({ type: CreateSchoolInput, required: true }),
    },
    resolve: (query, _root, args, { viewer }) =>
      createBuilding(viewer, parseId(args.schoolId, 'schoolId'), args.input, query),
  }),
  updateSchool: t.withAuth({ authenticated: true }).prismaField({
    type: 'School',
    description: 'Changes a school or building (its district or school administrators).',
    errors: {},
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateSchoolInput, required: true }) },
    resolve: (query, _root, args, { viewer }) => updateSchool(viewer, parseId(args.id), args.input, query),
  }),
  deleteSchool: t.withAuth({ authenticated: true }).field({
    type: DeletedType,
    description: 'Deletes a school with everything in it (district administrators), or a building (also its school\'s administrators).',
    errors: {},
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { viewer }) => deleteSchool(viewer, parseId(args.id)),
  }),
}));

import { z } from 'zod';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import { UserErrors } from '../../rest/user-errors';
import {
  type LinkBuilder,
  createRoute,
  deleteRoute,
  listRoute,
  selfLink,
  updateRoute,
  viewRoute,
} from '../../rest/route';
import { text, wireBody } from '../../rest/wire-body';

const RestSchool = graphql(`
  fragment RestSchool on School @_unmask {
    id: databaseId title address1 address2 city state postalCode country website phone fax pictureUrl buildingCode
  }
`);

/** Every school field is a string on the wire, the id included (spec 2.9). */
export const schoolWire = z
  .object({
    id: z.string(),
    title: z.string(),
    address1: z.string(),
    address2: z.string(),
    city: z.string(),
    state: z.string(),
    postal_code: z.string(),
    country: z.string(),
    website: z.string(),
    phone: z.string(),
    fax: z.string(),
    picture_url: z.string(),
    building_code: z.string(),
    links: selfLink,
  })
  .meta({ id: 'School', description: 'A school or a building of a school (spec 2.9).' });

function schoolToWire(school: ResultOf<typeof RestSchool>, link: LinkBuilder): z.input<typeof schoolWire> {
  return {
    id: school.id,
    title: school.title,
    address1: school.address1 ?? '',
    address2: school.address2 ?? '',
    city: school.city ?? '',
    state: school.state ?? '',
    postal_code: school.postalCode ?? '',
    country: school.country ?? '',
    website: school.website ?? '',
    phone: school.phone ?? '',
    fax: school.fax ?? '',
    picture_url: school.pictureUrl ?? '',
    building_code: school.buildingCode ?? '',
    links: { self: link(`/schools/${school.id}`) },
  };
}

const schoolMembers = {
  title: text('title'),
  address1: text('address1'),
  address2: text('address2'),
  city: text('city'),
  state: text('state'),
  postal_code: text('postalCode'),
  country: text('country'),
  website: text('website'),
  phone: text('phone'),
  fax: text('fax'),
  picture_url: text('pictureUrl'),
  building_code: text('buildingCode'),
};
const createBody = wireBody(schoolMembers, ['title']);
const updateBody = wireBody(schoolMembers);

export const schoolRoutes = [
  listRoute({
    path: '/schools',
    summary: "List the schools of the caller's district",
    item: 'school',
    wire: schoolWire,
    document: graphql(
      `query($start: Int!, $limit: Int!) { schools(start: $start, limit: $limit) { total items { ...RestSchool } } }`,
      [RestSchool],
    ),
    variables: () => ({}),
    shape: schoolToWire,
  }),
  viewRoute({
    path: '/schools/{id}',
    summary: 'View a school or building',
    wire: schoolWire,
    document: graphql(`query($id: ID!) { school(id: $id) { ...RestSchool } }`, [RestSchool]),
    variables: ({ params }) => ({ id: params.id }),
    shape: schoolToWire,
  }),
  createRoute({
    path: '/schools',
    summary: 'Create a school (district administrators)',
    body: createBody,
    wire: schoolWire,
    document: graphql(
      `mutation($input: CreateSchoolInput!) {
        createSchool(input: $input) { userErrors { ...UserErrors } school { ...RestSchool } }
      }`,
      [UserErrors, RestSchool],
    ),
    variables: ({ input }) => ({ input }),
    payload: 'school',
    shape: schoolToWire,
  }),
  updateRoute({
    path: '/schools/{id}',
    summary: 'Update a school or building',
    body: updateBody,
    document: graphql(
      `mutation($input: UpdateSchoolInput!) { updateSchool(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: ({ params, input }) => ({ input: { ...input, id: params.id } }),
  }),
  deleteRoute({
    path: '/schools/{id}',
    summary: 'Delete a school with everything in it, or a building',
    document: graphql(
      `mutation($input: DeleteSchoolInput!) { deleteSchool(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: ({ params }) => ({ input: { id: params.id } }),
  }),
  listRoute({
    path: '/schools/{id}/buildings',
    summary: 'List the buildings of a school',
    item: 'building',
    wire: schoolWire,
    document: graphql(
      `query($id: ID!, $start: Int!, $limit: Int!) { buildings(schoolId: $id, start: $start, limit: $limit) { total items { ...RestSchool } } }`,
      [RestSchool],
    ),
    variables: ({ params }) => ({ id: params.id }),
    shape: schoolToWire,
  }),
  createRoute({
    path: '/schools/{id}/buildings',
    summary: 'Create a building of a school',
    body: createBody,
    wire: schoolWire,
    document: graphql(
      `mutation($input: CreateBuildingInput!) {
        createBuilding(input: $input) { userErrors { ...UserErrors } building { ...RestSchool } }
      }`,
      [UserErrors, RestSchool],
    ),
    variables: ({ params, input }) => ({ input: { ...input, schoolId: params.id } }),
    payload: 'building',
    shape: schoolToWire,
  }),
];

import type { LinkBuilder } from '../../rest/route';
import { createRoute, deleteRoute, listRoute, payloadSelection, updateRoute, viewRoute } from '../../rest/route';
import { type WireBody, text } from '../../rest/wire-body';

const schoolFields = /* GraphQL */ `
  fragment RestSchool on School {
    id title address1 address2 city state postalCode country website phone fax pictureUrl buildingCode
  }
`;

interface RestSchool {
  id: string;
  title: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  website: string;
  phone: string;
  fax: string;
  pictureUrl: string;
  buildingCode: string;
}

/** Every school field is a string on the wire, the id included (spec 2.9). */
function schoolToWire(school: RestSchool, link: LinkBuilder) {
  return {
    id: school.id,
    title: school.title,
    address1: school.address1,
    address2: school.address2,
    city: school.city,
    state: school.state,
    postal_code: school.postalCode,
    country: school.country,
    website: school.website,
    phone: school.phone,
    fax: school.fax,
    picture_url: school.pictureUrl,
    building_code: school.buildingCode,
    links: { self: link(`/schools/${school.id}`) },
  };
}

const schoolBody: WireBody = {
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

export const schoolRoutes = [
  listRoute<RestSchool>({
    path: '/schools',
    item: 'school',
    document: `query($start: Int!, $limit: Int!) { schools(start: $start, limit: $limit) { total items { ...RestSchool } } } ${schoolFields}`,
    variables: () => ({}),
    shape: schoolToWire,
  }),
  viewRoute<RestSchool>({
    path: '/schools/{id}',
    document: `query($id: ID!) { school(id: $id) { ...RestSchool } } ${schoolFields}`,
    variables: ({ params }) => ({ id: params.id }),
    shape: schoolToWire,
  }),
  createRoute<RestSchool>({
    path: '/schools',
    body: schoolBody,
    requiredFields: ['title'],
    document: `mutation($input: CreateSchoolInput!) { ${payloadSelection('createSchool', 'input: $input', 'RestSchool')} } ${schoolFields}`,
    variables: ({ input }) => ({ input }),
    shape: schoolToWire,
  }),
  updateRoute({
    path: '/schools/{id}',
    body: schoolBody,
    document: `mutation($id: ID!, $input: UpdateSchoolInput!) { ${payloadSelection('updateSchool', 'id: $id, input: $input')} }`,
    variables: ({ params, input }) => ({ id: params.id, input }),
  }),
  deleteRoute({
    path: '/schools/{id}',
    document: `mutation($id: ID!) { ${payloadSelection('deleteSchool', 'id: $id')} }`,
    variables: ({ params }) => ({ id: params.id }),
  }),
  listRoute<RestSchool>({
    path: '/schools/{id}/buildings',
    item: 'building',
    document: `query($id: ID!, $start: Int!, $limit: Int!) { buildings(schoolId: $id, start: $start, limit: $limit) { total items { ...RestSchool } } } ${schoolFields}`,
    variables: ({ params }) => ({ id: params.id }),
    shape: schoolToWire,
  }),
  createRoute<RestSchool>({
    path: '/schools/{id}/buildings',
    body: schoolBody,
    requiredFields: ['title'],
    document: `mutation($id: ID!, $input: CreateSchoolInput!) { ${payloadSelection('createBuilding', 'schoolId: $id, input: $input', 'RestSchool')} } ${schoolFields}`,
    variables: ({ params, input }) => ({ id: params.id, input }),
    shape: schoolToWire,
  }),
];

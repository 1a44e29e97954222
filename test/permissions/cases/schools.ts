import { createSchool, unique } from '../../support/factories';
import { outcome, permissionCases } from '../../support/permissions';

const id = (object: { id: number }) => String(object.id);
const hasId = (items: { id: string }[], object: { id: number }) => items.some((item) => item.id === id(object));

// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
export default permissionCases('schools', async () => ({}), [
  {
    route: 'GET /schools',
    name: "lists the district's schools",
    expect: 'h o o o o o o',
    request: () => ({ query: { limit: '200' } }),
    finds: (answer, f) => hasId(answer.school, f.school),
  },
  {
    route: 'GET /schools/{id}',
    name: 'a school of the district',
    expect: 'h o o o o o o',
    request: (f) => ({ params: { id: f.school.id } }),
  },
  {
    route: 'GET /schools/{id}',
    name: 'a building',
    expect: 'h o o o o o o',
    request: (f) => ({ params: { id: f.building.id } }),
  },
  {
    route: 'GET /schools/{id}',
    name: 'a school of another district',
    expect: 'o h h h h h h',
    request: (f) => ({ params: { id: f.farSchool.id } }),
  },
  {
    route: 'POST /schools',
    name: 'district administrators, in their own district',
    expect: 'o f f f f f o',
    request: () => ({ body: { title: unique('School') } }),
  },
  {
    route: 'PUT /schools/{id}',
    name: "the cast's school",
    expect: 'h f f f f o o',
    request: (f, caller) => ({ params: { id: f.school.id }, body: { website: `https://${caller.person}.example` } }),
  },
  {
    route: 'PUT /schools/{id}',
    name: 'another school of the district',
    expect: 'h f f f f f o',
    request: (f, caller) => ({
      params: { id: f.otherSchool.id },
      body: { website: `https://${caller.person}.example` },
    }),
  },
  {
    route: 'DELETE /schools/{id}',
    name: 'a school of the district',
    expect: 'h f f f f f o',
    request: async (f) => ({ params: { id: (await createSchool(f.district.id)).id } }),
  },
  {
    route: 'DELETE /schools/{id}',
    name: "a building of the cast's school",
    expect: 'h f f f f o o',
    request: async (f) => ({ params: { id: (await createSchool(f.district.id, { parentId: f.school.id })).id } }),
  },
  {
    route: 'GET /schools/{id}/buildings',
    name: "the cast's school",
    expect: 'h o o o o o o',
    request: (f) => ({ params: { id: f.school.id }, query: { limit: '200' } }),
    finds: (answer, f) => hasId(answer.building, f.building),
  },
  {
    route: 'POST /schools/{id}/buildings',
    name: "the cast's school",
    expect: 'h f f f f o o',
    request: (f) => ({ params: { id: f.school.id }, body: { title: unique('Building') } }),
  },

  {
    graphql: '{ schools(limit: 200) { items { id: databaseId } } }',
    name: "lists the district's schools",
    expect: 'h o o o o o o',
    finds: (answer, f) => hasId(answer.items, f.school),
  },
  {
    graphql: '{ schoolsConnection(first: 200) { edges { node { id: databaseId } } } }',
    name: "lists the district's schools",
    expect: 'h o o o o o o',
    finds: (answer, f) =>
      hasId(
        answer.edges.map((edge: { node: { id: string } }) => edge.node),
        f.school,
      ),
  },
  {
    graphql: 'query($id: ID!) { school(id: $id) { id: databaseId } }',
    name: 'a school of the district',
    expect: 'h o o o o o o',
    variables: (f) => ({ id: id(f.school) }),
  },
  {
    graphql: 'query($id: ID!) { buildings(schoolId: $id, limit: 200) { items { id: databaseId } } }',
    name: "the cast's school",
    expect: 'h o o o o o o',
    variables: (f) => ({ id: id(f.school) }),
    finds: (answer, f) => hasId(answer.items, f.building),
  },
  {
    graphql: 'query($id: ID!) { buildingsConnection(schoolId: $id, first: 200) { edges { node { id: databaseId } } } }',
    name: "the cast's school",
    expect: 'h o o o o o o',
    variables: (f) => ({ id: id(f.school) }),
    finds: (answer, f) =>
      hasId(
        answer.edges.map((edge: { node: { id: string } }) => edge.node),
        f.building,
      ),
  },
  {
    graphql: `mutation($input: CreateSchoolInput!) { createSchool(input: $input) { ${outcome} } }`,
    name: 'district administrators, in their own district',
    expect: 'o f f f f f o',
    variables: () => ({ input: { title: unique('School') } }),
  },
  {
    graphql: `mutation($input: CreateBuildingInput!) { createBuilding(input: $input) { ${outcome} } }`,
    name: "the cast's school",
    expect: 'h f f f f o o',
    variables: (f) => ({ input: { schoolId: id(f.school), title: unique('Building') } }),
  },
  {
    graphql: `mutation($input: UpdateSchoolInput!) { updateSchool(input: $input) { ${outcome} } }`,
    name: "a building of the cast's school",
    expect: 'h f f f f o o',
    variables: (f, caller) => ({ input: { id: id(f.building), phone: caller.person } }),
  },
  {
    graphql: `mutation($input: DeleteSchoolInput!) { deleteSchool(input: $input) { ${outcome} } }`,
    name: 'a school of the district',
    expect: 'h f f f f f o',
    variables: async (f) => ({ input: { id: id(await createSchool(f.district.id)) } }),
  },
  {
    graphql: `mutation($input: DeleteSchoolInput!) { deleteSchool(input: $input) { ${outcome} } }`,
    name: 'a building of another district',
    expect: 'o h h h h h h',
    variables: async (f) => ({
      input: { id: id(await createSchool(f.otherDistrict.id, { parentId: f.farSchool.id })) },
    }),
  },
]);

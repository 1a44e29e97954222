import { issueAccessToken, issueApiClient } from '../../../src/modules/access/access.service';
import { createUser } from '../../support/factories';
import { type Fixture, outcome, permissionCases } from '../../support/permissions';

const id = (object: { id: number }) => String(object.id);
const createApiClientDoc = `mutation($input: CreateApiClientInput!) { createApiClient(input: $input) { ${outcome} } }`;
const deleteApiClientDoc = `mutation($input: DeleteApiClientInput!) { deleteApiClient(input: $input) { ${outcome} } }`;
const deleteAccessTokenDoc = `mutation($input: DeleteAccessTokenInput!) { deleteAccessToken(input: $input) { ${outcome} } }`;
/** Credentials issued straight to a user, fresh for each request that revokes them. */
const freshApiClient = async (f: Fixture<unknown>, user: { id: number }) => ({
  input: { id: id(await issueApiClient(f.server.serverKey, { userId: user.id })) },
});
const freshAccessToken = async (user: { id: number }) => ({
  input: { id: id(await issueAccessToken({ userId: user.id })) },
});

// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
export default permissionCases(
  'access',
  async (world) => ({ otherSchoolAdmin: await createUser(world.school.id, 'SCHOOL_ADMIN') }),
  [
    { graphql: '{ apiClients { id: databaseId } }', name: "the viewer's own", expect: 'o o o o o o o' },
    { graphql: '{ accessTokens { id: databaseId } }', name: "the viewer's own", expect: 'o o o o o o o' },
    { graphql: '{ apiClientsConnection { totalCount } }', name: "the viewer's own", expect: 'o o o o o o o' },
    { graphql: '{ accessTokensConnection { totalCount } }', name: "the viewer's own", expect: 'o o o o o o o' },
    { graphql: createApiClientDoc, name: 'for the viewer', expect: 'o o o o o o o', variables: () => ({ input: {} }) },
    {
      graphql: createApiClientDoc,
      name: 'for a student',
      expect: 'h h o f f o o',
      variables: (f) => ({ input: { userId: id(f.student) } }),
    },
    {
      graphql: createApiClientDoc,
      name: 'for a teacher',
      expect: 'h h f o f o o',
      variables: (f) => ({ input: { userId: id(f.teacher) } }),
    },
    {
      graphql: createApiClientDoc,
      name: 'for a parent',
      expect: 'h h f f o o o',
      variables: (f) => ({ input: { userId: id(f.parent) } }),
    },
    {
      graphql: createApiClientDoc,
      name: 'for another school administrator',
      expect: 'h h f f f f o',
      variables: (f) => ({ input: { userId: id(f.otherSchoolAdmin) } }),
    },
    {
      graphql: createApiClientDoc,
      name: 'for a district administrator',
      expect: 'h h f f f f o',
      variables: (f) => ({ input: { userId: id(f.districtAdmin) } }),
    },
    {
      graphql: createApiClientDoc,
      name: 'for a student of another school',
      expect: 'h o h h h h o',
      variables: (f) => ({ input: { userId: id(f.otherSchoolStudent) } }),
    },
    {
      graphql: 'mutation { createAccessToken(input: {}) { __typename } }',
      name: 'for the viewer',
      expect: 'o o o o o o o',
    },
    {
      graphql: deleteApiClientDoc,
      name: "a student's",
      expect: 'h h o f f o o',
      variables: (f) => freshApiClient(f, f.student),
    },
    {
      graphql: deleteApiClientDoc,
      name: "another school administrator's",
      expect: 'h h f f f f o',
      variables: (f) => freshApiClient(f, f.otherSchoolAdmin),
    },
    {
      graphql: deleteAccessTokenDoc,
      name: "a teacher's",
      expect: 'h h f o f o o',
      variables: (f) => freshAccessToken(f.teacher),
    },
    {
      graphql: deleteAccessTokenDoc,
      name: "another school administrator's",
      expect: 'h h f f f f o',
      variables: (f) => freshAccessToken(f.otherSchoolAdmin),
    },
  ],
);

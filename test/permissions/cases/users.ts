import { unique } from '../../support/factories';
import { outcome, permissionCases } from '../../support/permissions';

const id = (object: { id: number }) => String(object.id);
const newUser = (schoolId: number, fields: Record<string, unknown> = {}) => ({
  input: {
    schoolId: String(schoolId),
    username: unique('user'),
    nameFirst: 'New',
    nameLast: 'User',
    role: 'STUDENT',
    ...fields,
  },
});
const createUserDoc = `mutation($input: CreateUserInput!) { createUser(input: $input) { ${outcome} } }`;

// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
export default permissionCases('users', async () => ({}), [
  {
    route: 'GET /users/{id}',
    name: 'a student',
    expect: 'h h o o o o o',
    request: (f) => ({ params: { id: f.student.id } }),
  },
  {
    route: 'GET /users/{id}',
    name: 'a student of another school',
    expect: 'h o h h h h o',
    request: (f) => ({ params: { id: f.otherSchoolStudent.id } }),
  },
  {
    route: 'GET /users/{id}',
    name: 'a district administrator',
    expect: 'h h o o o o o',
    request: (f) => ({ params: { id: f.districtAdmin.id } }),
  },
  {
    route: 'GET /users/{id}',
    name: 'a district administrator of another district',
    expect: 'o h h h h h h',
    request: (f) => ({ params: { id: f.outsider.id } }),
  },
  { route: 'GET /users/me', name: 'redirects everyone to themselves', expect: 'o o o o o o o' },

  {
    graphql: 'query($id: ID!) { user(id: $id) { id: databaseId } }',
    name: 'a student',
    expect: 'h h o o o o o',
    variables: (f) => ({ id: id(f.student) }),
  },
  { graphql: '{ viewer { id: databaseId } }', name: 'everyone', expect: 'o o o o o o o' },
  {
    graphql: createUserDoc,
    name: "a student of the cast's school",
    expect: 'h f f f f o o',
    variables: (f) => newUser(f.school.id),
  },
  {
    graphql: createUserDoc,
    name: 'a student of another school',
    expect: 'h f f f f f o',
    variables: (f) => newUser(f.otherSchool.id),
  },
  {
    graphql: createUserDoc,
    name: 'a district administrator',
    expect: 'h f f f f f o',
    variables: (f) => newUser(f.school.id, { role: 'DISTRICT_ADMIN' }),
  },
  {
    graphql: createUserDoc,
    name: 'a teacher with trigger administration',
    expect: 'h f f f f f o',
    variables: (f) => newUser(f.school.id, { role: 'TEACHER', triggerAdmin: true }),
  },
]);

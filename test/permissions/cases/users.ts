import { db } from '../../../src/db/database';
import { createUser, unique } from '../../support/factories';
import { type Fixture, outcome, permissionCases } from '../../support/permissions';

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

const newWireUser = () => ({ school_uid: unique('P'), name_first: 'New', name_last: 'User', role_id: 1214 });
/** A user of the cast's school made for one request, which changes or deletes it. */
const freshStudent = (f: Fixture<Shared>) => createUser(f.school.id, 'STUDENT');
/** A student of the cast's school made inactive for one request, which reads or reactivates them. */
const inactiveStudent = async (f: Fixture<Shared>) => {
  const { id: userId } = await freshStudent(f);
  return db().user.update({ where: { id: userId }, data: { deactivatedAt: new Date() } });
};
const inList = (answer: { user: { id: number | string; response_code?: number }[] }, code: number) =>
  answer.user[0]?.response_code === code;
const findsStudent = (items: { id: number | string }[], f: Fixture<Shared>) =>
  items.some((item) => String(item.id) === String(f.student.id));

interface Shared {
  schoolUid: string;
}

// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
// Users are written by their administrators only: the school's (not a district administrator) and the district's. A
// bulk write by anyone else is refused whole; one by an administrator of another district finds no user (404 items).
export default permissionCases<Shared>(
  'users',
  async (world) => {
    const schoolUid = unique('ext');
    await db().user.update({ where: { id: world.student.id }, data: { schoolUid } });
    return { schoolUid };
  },
  [
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

    {
      route: 'GET /users',
      name: "a student of the cast's school, by building",
      expect: 'h h o o o o o',
      request: (f) => ({ query: { building_id: String(f.building.id), limit: '200' } }),
      finds: (answer, f) => findsStudent(answer.user, f),
    },
    {
      graphql:
        'query($buildingId: ID!) { usersConnection(buildingId: $buildingId, first: 200) { nodes { id: databaseId } } }',
      name: "a student of the cast's school, by building",
      expect: 'h h o o o o o',
      variables: (f) => ({ buildingId: id(f.building) }),
      finds: (answer, f) => findsStudent(answer.nodes, f),
    },
    {
      route: 'GET /users/ext/{schoolUid:word}',
      name: "a student of the cast's school",
      expect: 'h h o o o o o',
      request: (f) => ({ params: { schoolUid: f.schoolUid } }),
    },
    {
      route: 'GET /users/{id}/sections',
      name: "of a student of the cast's school (the cast's parent is theirs)",
      expect: 'h h o f o o o',
      request: (f) => ({ params: { id: f.student.id } }),
    },
    {
      route: 'GET /users/{id}/groups',
      name: "of a student of the cast's school (the cast's parent is theirs)",
      expect: 'h h o f o o o',
      request: (f) => ({ params: { id: f.student.id } }),
    },
    {
      route: 'POST /users',
      name: "one student of the cast's school",
      expect: 'h f f f f o o',
      request: (f) => ({ body: { ...newWireUser(), school_id: f.school.id } }),
    },
    {
      route: 'POST /users',
      name: "a bulk of a student of the cast's school",
      expect: 'h f f f f o o',
      request: (f) => ({ body: { users: { user: [{ ...newWireUser(), school_id: f.school.id }] } } }),
      finds: (answer) => inList(answer, 200),
    },
    {
      route: 'PUT /users/{id}',
      name: "a student of the cast's school",
      expect: 'h h f f f o o',
      request: async (f) => ({ params: { id: (await freshStudent(f)).id }, body: { position: 'Monitor' } }),
    },
    {
      route: 'PUT /users',
      name: "a student of the cast's school",
      expect: 'h f f f f o o',
      request: async (f) => ({ body: { users: { user: [{ id: (await freshStudent(f)).id, position: 'Monitor' }] } } }),
      finds: (answer) => inList(answer, 200),
    },
    {
      route: 'DELETE /users/{id}',
      name: "a student of the cast's school (made inactive)",
      expect: 'h h f f f o o',
      request: async (f) => ({ params: { id: (await freshStudent(f)).id } }),
    },
    {
      route: 'DELETE /users',
      name: "a student of the cast's school",
      expect: 'h f f f f o o',
      request: async (f) => ({ query: { uids: String((await freshStudent(f)).id) } }),
      finds: (answer) => inList(answer, 204),
    },
    {
      route: 'GET /users/inactive',
      name: "an inactive student of the cast's school",
      expect: 'h f f f f o o',
      request: async (f) => {
        await inactiveStudent(f);
        return { query: { limit: '200' } };
      },
      finds: (answer, f) => answer.user.some((user: { school_id: number }) => user.school_id === f.school.id),
    },
    {
      route: 'GET /users/inactive/{id}',
      name: "an inactive student of the cast's school",
      expect: 'h h h h h o o',
      request: async (f) => ({ params: { id: (await inactiveStudent(f)).id } }),
    },
    {
      route: 'PUT /users/inactive',
      name: "an inactive student of the cast's school",
      expect: 'h f f f f o o',
      request: async (f) => ({ body: { users: { user: [{ id: (await inactiveStudent(f)).id }] } } }),
      finds: (answer) => inList(answer, 200),
    },
    {
      graphql: '{ users(active: false, limit: 200) { items { school { id: databaseId } } } }',
      name: "an inactive student of the cast's school",
      expect: 'h f f f f o o',
      variables: async (f) => {
        await inactiveStudent(f);
        return {};
      },
      finds: (answer, f) => answer.items.some((user: { school: { id: string } }) => user.school.id === id(f.school)),
    },
    {
      graphql: `mutation($input: DeactivateUserInput!) { deactivateUser(input: $input) { ${outcome} } }`,
      name: "a student of the cast's school",
      expect: 'h h f f f o o',
      variables: async (f) => ({ input: { id: id(await freshStudent(f)) } }),
    },
    {
      graphql: `mutation($input: DeactivateUsersInput!) { deactivateUsers(input: $input) { ${outcome} results { code } } }`,
      name: "a student of the cast's school",
      expect: 'h f f f f o o',
      variables: async (f) => ({ input: { ids: [id(await freshStudent(f))], keepEnrollments: true } }),
      finds: (answer) => answer.results[0].code === 'DEACTIVATED',
    },
    {
      graphql: `mutation($input: ReactivateUserInput!) { reactivateUser(input: $input) { ${outcome} } }`,
      name: "an inactive student of the cast's school (hidden from all but administrators)",
      expect: 'h h h h h o o',
      variables: async (f) => ({ input: { id: id(await inactiveStudent(f)) } }),
    },
    {
      graphql: `mutation($input: ReactivateUsersInput!) { reactivateUsers(input: $input) { ${outcome} results { code } } }`,
      name: "an inactive student of the cast's school",
      expect: 'h f f f f o o',
      variables: async (f) => ({ input: { ids: [id(await inactiveStudent(f))] } }),
      finds: (answer) => answer.results[0].code === 'REACTIVATED',
    },
    {
      graphql: 'query($id: ID!) { users(buildingId: $id, limit: 200) { items { id: databaseId } } }',
      name: "a student of the cast's school, by building",
      expect: 'h h o o o o o',
      variables: (f) => ({ id: id(f.building) }),
      finds: (answer, f) => findsStudent(answer.items, f),
    },
    {
      graphql: `mutation($input: CreateUsersInput!) { createUsers(input: $input) { ${outcome} results { code } } }`,
      name: "a student of the cast's school",
      expect: 'h f f f f o o',
      variables: (f) => ({ input: { items: [newUser(f.school.id).input] } }),
      finds: (answer) => answer.results[0].code === 'CREATED',
    },
    {
      graphql: `mutation($input: UpdateUserInput!) { updateUser(input: $input) { ${outcome} } }`,
      name: "a student of the cast's school",
      expect: 'h h f f f o o',
      variables: async (f) => ({ input: { id: id(await freshStudent(f)), position: 'Monitor' } }),
    },
    {
      graphql: `mutation($input: UpdateUsersInput!) { updateUsers(input: $input) { ${outcome} results { code } } }`,
      name: "a student of the cast's school",
      expect: 'h f f f f o o',
      variables: async (f) => ({ input: { items: [{ id: id(await freshStudent(f)), position: 'Monitor' }] } }),
      finds: (answer) => answer.results[0].code === 'UPDATED',
    },
    {
      graphql: `mutation($input: DeleteUserInput!) { deleteUser(input: $input) { ${outcome} } }`,
      name: "a student of the cast's school",
      expect: 'h h f f f o o',
      variables: async (f) => ({ input: { id: id(await freshStudent(f)) } }),
    },
    {
      graphql: `mutation($input: DeleteUsersInput!) { deleteUsers(input: $input) { ${outcome} results { code } } }`,
      name: "a student of the cast's school",
      expect: 'h f f f f o o',
      variables: async (f) => ({ input: { ids: [id(await freshStudent(f))] } }),
      finds: (answer) => answer.results[0].code === 'DELETED',
    },
  ],
);

import { createFriendRequest, createGroup, createInvite, createUser } from '../../support/factories';
import { type Fixture, outcome, permissionCases } from '../../support/permissions';

const id = (object: { id: number }) => String(object.id);
/** A fresh invite of the cast's student to a fresh group, so that each request answers one of its own. */
const freshInvite = async (f: Fixture<unknown>) =>
  createInvite(f.student.id, { groupId: (await createGroup(f.school.id)).id });
/** A fresh request to the cast's student from a fresh schoolmate. */
const freshRequest = async (f: Fixture<unknown>) =>
  createFriendRequest((await createUser(f.school.id, 'STUDENT')).id, f.student.id);
const freshStudent = async (f: Fixture<unknown>) => id(await createUser(f.school.id, 'STUDENT'));

// Invites and friend requests are addressed to one user (the cast's student): theirs to read and answer, their district
// administrators' to read; refused to others who see the student, hidden from those who do not.
// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
export default permissionCases(
  'invites and friend requests',
  async (world) => ({
    schoolGroup: await createGroup(world.school.id, { admins: [world.teacher.id], members: [world.student.id] }),
  }),
  [
    {
      route: 'GET /users/{userId}/invites/{realm:word}',
      name: "the student's group invites",
      expect: 'h h o f f f o',
      request: (f) => ({ params: { userId: f.student.id, realm: 'groups' } }),
    },
    {
      route: 'PUT /users/{userId}/invites/{realm:word}/{id}',
      name: "deny one of the student's invites",
      expect: 'h h o f f f f',
      request: async (f) => ({
        params: { userId: f.student.id, realm: 'groups', id: (await freshInvite(f)).id },
        body: { invite: { invite_action: 'deny' } },
      }),
    },
    {
      route: 'GET /users/{userId}/requests/friends',
      name: "the student's friend requests",
      expect: 'h h o f f f o',
      request: (f) => ({ params: { userId: f.student.id } }),
    },
    {
      route: 'PUT /users/{userId}/requests/friends/{id}',
      name: "deny one of the student's requests",
      expect: 'h h o f f f f',
      request: async (f) => ({
        params: { userId: f.student.id, id: (await freshRequest(f)).id },
        body: { request_action: 'deny' },
      }),
    },

    {
      graphql: 'query($userId: ID!) { invites(userId: $userId, realm: GROUP) { total } }',
      name: "the student's group invites",
      expect: 'h h o f f f o',
      variables: (f) => ({ userId: id(f.student) }),
    },
    {
      graphql: 'query($userId: ID!) { invitesConnection(userId: $userId, realm: GROUP) { totalCount } }',
      name: "the student's group invites",
      expect: 'h h o f f f o',
      variables: (f) => ({ userId: id(f.student) }),
    },
    {
      graphql: `mutation($userId: ID!, $id: ID!) { answerInvite(input: { userId: $userId, realm: GROUP, id: $id, action: DENY }) { ${outcome} } }`,
      name: "deny one of the student's invites",
      expect: 'h h o f f f f',
      variables: async (f) => ({ userId: id(f.student), id: id(await freshInvite(f)) }),
    },
    {
      graphql: `mutation($realm: RealmInput!, $userId: ID!) { createInvite(input: { realm: $realm, userId: $userId }) { ${outcome} } }`,
      name: 'a schoolmate to a school group, by its administrators',
      expect: 'h h f o f o o',
      variables: async (f) => ({ realm: { type: 'GROUP', id: id(f.schoolGroup) }, userId: await freshStudent(f) }),
    },
    {
      graphql: 'query($userId: ID!) { friendRequests(userId: $userId) { total } }',
      name: "the student's friend requests",
      expect: 'h h o f f f o',
      variables: (f) => ({ userId: id(f.student) }),
    },
    {
      graphql: 'query($userId: ID!) { friendRequestsConnection(userId: $userId) { totalCount } }',
      name: "the student's friend requests",
      expect: 'h h o f f f o',
      variables: (f) => ({ userId: id(f.student) }),
    },
    {
      graphql: `mutation($userId: ID!, $id: ID!) { answerFriendRequest(input: { userId: $userId, id: $id, action: DENY }) { ${outcome} } }`,
      name: "deny one of the student's requests",
      expect: 'h h o f f f f',
      variables: async (f) => ({ userId: id(f.student), id: id(await freshRequest(f)) }),
    },
    {
      graphql: `mutation($userId: ID!) { sendFriendRequest(input: { userId: $userId }) { ${outcome} } }`,
      name: "to a student of the cast's school, by those who see them",
      expect: 'h h o o o o o',
      variables: async (f) => ({ userId: await freshStudent(f) }),
    },

    // The district's time zone is read by everyone in it and set by its administrators.
    {
      graphql: 'query($id: ID!) { district(id: $id) { timeZone } }',
      name: "the cast's district",
      expect: 'h o o o o o o',
      variables: (f) => ({ id: id(f.district) }),
    },
    {
      graphql: `mutation($id: ID!) { updateDistrict(input: { id: $id, timeZone: "UTC" }) { ${outcome} } }`,
      name: "the cast's district",
      expect: 'h f f f f f o',
      variables: (f) => ({ id: id(f.district) }),
    },
  ],
);

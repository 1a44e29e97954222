import { db } from '../../../src/db/database';
import { createGroup, createGroupCategory, createUser, unique } from '../../support/factories';
import { type Fixture as TestFixture, type PermissionCase, outcome, permissionCases } from '../../support/permissions';

const id = (object: { id: number }) => String(object.id);
const hasId = (items: { id: string }[], object: { id: number }) => items.some((item) => item.id === id(object));
type Member = { user: { id: string } };

type Fixture = TestFixture<{ schoolGroup: { id: number } }>;
const membershipOf = (f: Fixture) =>
  db().groupMembership.findUniqueOrThrow({
    where: { groupId_userId: { groupId: f.schoolGroup.id, userId: f.student.id } },
  });
/** A fresh member of the school group, for a removal each request. */
const freshMembership = async (f: Fixture) =>
  db().groupMembership.create({
    data: { groupId: f.schoolGroup.id, userId: (await createUser(f.school.id, 'STUDENT')).id },
  });
/** A group of the school with no members and a code of its own (the factory's codes are not in the code alphabet). */
const freshGroupWithCode = async (f: { school: { id: number } }) => {
  const group = await createGroup(f.school.id, { privacyLevel: 'GROUP' });
  return db().group.update({ where: { id: group.id }, data: { accessCode: `P${group.id}-JOIN` } });
};
const groupReaders = 'h h o o o o o';
const groupAdmins = 'h h f o f o o';

/** /v1 group enrollments (memberships) and their GraphQL twins. */
const membershipCases: PermissionCase<{ schoolGroup: { id: number } }>[] = [
  {
    route: 'GET /groups/{group_id}/enrollments',
    name: "a school group's members, to the school",
    expect: groupReaders,
    request: (f: Fixture) => ({ params: { group_id: f.schoolGroup.id } }),
  },
  {
    route: 'GET /groups/{group_id}/enrollments/{id}',
    name: "a student's membership of a school group",
    expect: groupReaders,
    request: async (f: Fixture) => ({ params: { group_id: f.schoolGroup.id, id: (await membershipOf(f)).id } }),
  },
  {
    route: 'POST /groups/{group_id}/enrollments',
    name: 'a user of the school to a school group',
    expect: groupAdmins,
    request: async (f: Fixture) => ({
      params: { group_id: f.schoolGroup.id },
      body: { uid: String((await createUser(f.school.id, 'STUDENT')).id) },
    }),
  },
  {
    route: 'PUT /groups/{group_id}/enrollments/{id}',
    name: "a member's administration",
    expect: groupAdmins,
    request: async (f: Fixture) => ({
      params: { group_id: f.schoolGroup.id, id: (await membershipOf(f)).id },
      body: { admin: 0 },
    }),
  },
  {
    route: 'DELETE /groups/{group_id}/enrollments/{id}',
    name: 'a member of a school group',
    expect: groupAdmins,
    request: async (f: Fixture) => ({ params: { group_id: f.schoolGroup.id, id: (await freshMembership(f)).id } }),
  },
  {
    graphql: 'query($id: ID!) { groupMemberships(groupId: $id) { total items { id: databaseId } } }',
    name: "a school group's members, to the school",
    expect: groupReaders,
    variables: (f: Fixture) => ({ id: id(f.schoolGroup) }),
  },
  {
    graphql: 'query($id: ID!) { groupMembershipsConnection(groupId: $id) { totalCount } }',
    name: "a school group's members, to the school",
    expect: groupReaders,
    variables: (f: Fixture) => ({ id: id(f.schoolGroup) }),
  },
  {
    graphql: 'query($group: ID!, $id: ID!) { groupMembership(groupId: $group, id: $id) { id: databaseId } }',
    name: "a student's membership of a school group",
    expect: groupReaders,
    variables: async (f: Fixture) => ({ group: id(f.schoolGroup), id: id(await membershipOf(f)) }),
  },
  {
    graphql: `mutation($input: UpdateGroupMembershipInput!) { updateGroupMembership(input: $input) { ${outcome} } }`,
    name: "a member's administration",
    expect: groupAdmins,
    variables: async (f: Fixture) => ({ input: { id: id(await membershipOf(f)), admin: false } }),
  },
  {
    graphql: `mutation($input: DeleteGroupMembershipInput!) { deleteGroupMembership(input: $input) { ${outcome} } }`,
    name: 'a member of a school group',
    expect: groupAdmins,
    variables: async (f: Fixture) => ({ input: { id: id(await freshMembership(f)) } }),
  },
];

// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
export default permissionCases(
  'groups',
  async (world) => ({
    schoolGroup: await createGroup(world.school.id, { admins: [world.teacher.id], members: [world.student.id] }),
    everyoneGroup: await createGroup(world.school.id, {
      privacyLevel: 'EVERYONE',
      admins: [world.teacher.id],
      members: [world.student.id, world.parent.id],
    }),
    privateGroup: await createGroup(world.school.id, {
      privacyLevel: 'GROUP',
      admins: [world.teacher.id],
      members: [world.student.id],
    }),
    buildingGroup: await createGroup(world.school.id, { privacyLevel: 'BUILDING', buildingId: world.building.id }),
    farGroup: await createGroup(world.farSchool.id, { privacyLevel: 'EVERYONE' }),
    category: await createGroupCategory(world.district.id),
  }),
  [
    ...membershipCases,
    {
      route: 'GET /groups',
      name: 'lists a school group',
      expect: 'h h o o o o o',
      request: () => ({ query: { limit: '200' } }),
      finds: (answer, f) => hasId(answer.group, f.schoolGroup),
    },
    {
      route: 'GET /groups',
      name: 'lists a group-privacy group',
      expect: 'h h o o h o o',
      request: () => ({ query: { limit: '200' } }),
      finds: (answer, f) => hasId(answer.group, f.privateGroup),
    },
    {
      route: 'GET /groups',
      name: 'lists a group open to everyone',
      expect: 'h o o o o o o',
      request: () => ({ query: { limit: '200' } }),
      finds: (answer, f) => hasId(answer.group, f.everyoneGroup),
    },
    {
      route: 'GET /groups/{id}',
      name: 'a school group',
      expect: 'h h o o o o o',
      request: (f) => ({ params: { id: f.schoolGroup.id } }),
    },
    {
      route: 'GET /groups/{id}',
      name: 'a group-privacy group',
      expect: 'h h o o h o o',
      request: (f) => ({ params: { id: f.privateGroup.id } }),
    },
    {
      route: 'GET /groups/{id}',
      name: 'a group open to everyone',
      expect: 'h o o o o o o',
      request: (f) => ({ params: { id: f.everyoneGroup.id } }),
    },
    {
      route: 'GET /groups/{id}',
      name: 'a building group',
      expect: 'h h o o h o o',
      request: (f) => ({ params: { id: f.buildingGroup.id } }),
    },
    {
      route: 'GET /groups/{id}',
      name: "another district's group",
      expect: 'o h h h h h h',
      request: (f) => ({ params: { id: f.farGroup.id } }),
    },
    {
      route: 'POST /groups',
      name: 'staff create groups in their school',
      expect: 'h f f o f o o',
      request: (f) => ({ body: { title: unique('Club'), school_id: id(f.school) } }),
    },
    {
      route: 'PUT /groups/{id}',
      name: 'a school group',
      expect: 'h h f o f o o',
      request: (f, caller) => ({ params: { id: f.schoolGroup.id }, body: { description: `by ${caller.person}` } }),
    },
    {
      route: 'PUT /groups/{id}',
      name: 'a group open to everyone',
      expect: 'h f f o f o o',
      request: (f, caller) => ({ params: { id: f.everyoneGroup.id }, body: { description: `by ${caller.person}` } }),
    },
    {
      route: 'DELETE /groups/{id}',
      name: 'a school group',
      expect: 'h h f o f o o',
      request: async (f) => ({
        params: { id: (await createGroup(f.school.id, { admins: [f.teacher.id], members: [f.student.id] })).id },
      }),
    },
    {
      route: 'GET /groups/categories',
      name: "lists the district's categories",
      expect: 'h o o o o o o',
      request: () => ({ query: { limit: '200' } }),
      finds: (answer, f) => hasId(answer.category, f.category),
    },

    {
      graphql: '{ groups(limit: 200) { items { id: databaseId } } }',
      name: 'lists a school group',
      expect: 'h h o o o o o',
      finds: (answer, f) => hasId(answer.items, f.schoolGroup),
    },
    {
      graphql: '{ groupsConnection(first: 200) { edges { node { id: databaseId } } } }',
      name: 'lists a school group',
      expect: 'h h o o o o o',
      finds: (answer, f) =>
        hasId(
          answer.edges.map((edge: { node: { id: string } }) => edge.node),
          f.schoolGroup,
        ),
    },
    {
      graphql: 'query($id: ID!) { group(id: $id) { id: databaseId } }',
      name: 'a group-privacy group',
      expect: 'h h o o h o o',
      variables: (f) => ({ id: id(f.privateGroup) }),
    },
    {
      graphql: '{ groupCategories(limit: 200) { items { id: databaseId } } }',
      name: "lists the district's categories",
      expect: 'h o o o o o o',
      finds: (answer, f) => hasId(answer.items, f.category),
    },
    {
      graphql: '{ groupCategoriesConnection(first: 200) { edges { node { id: databaseId } } } }',
      name: "lists the district's categories",
      expect: 'h o o o o o o',
      finds: (answer, f) =>
        hasId(
          answer.edges.map((edge: { node: { id: string } }) => edge.node),
          f.category,
        ),
    },
    {
      graphql: `mutation($input: CreateGroupInput!) { createGroup(input: $input) { ${outcome} } }`,
      name: 'staff create groups in their school',
      expect: 'h f f o f o o',
      variables: (f) => ({ input: { title: unique('Club'), schoolId: id(f.school) } }),
    },
    {
      graphql: `mutation($input: UpdateGroupInput!) { updateGroup(input: $input) { ${outcome} } }`,
      name: 'a school group',
      expect: 'h h f o f o o',
      variables: (f, caller) => ({ input: { id: id(f.schoolGroup), website: `https://${caller.person}.example` } }),
    },
    {
      graphql: `mutation($input: DeleteGroupInput!) { deleteGroup(input: $input) { ${outcome} } }`,
      name: 'a school group',
      expect: 'h h f o f o o',
      variables: async (f) => ({
        input: { id: id(await createGroup(f.school.id, { admins: [f.teacher.id], members: [f.student.id] })) },
      }),
    },
    {
      graphql: `mutation($input: CreateGroupCategoryInput!) { createGroupCategory(input: $input) { ${outcome} } }`,
      name: 'district administrators, in their own district',
      expect: 'o f f f f f o',
      variables: () => ({ input: { title: unique('Category') } }),
    },
    {
      graphql: `mutation($input: AddGroupMemberInput!) { addGroupMember(input: $input) { ${outcome} } }`,
      name: 'a user of the school to a school group',
      expect: 'h h f o f o o',
      variables: async (f) => ({
        input: { groupId: id(f.schoolGroup), userId: id(await createUser(f.school.id, 'STUDENT')) },
      }),
    },
    {
      graphql: `mutation($input: CreateGroupMembershipsInput!) { createGroupMemberships(input: $input) { ${outcome} } }`,
      name: 'users of the school to a school group, item by item',
      expect: 'h h f o f o o',
      variables: async (f) => ({
        input: { groupId: id(f.schoolGroup), items: [{ userId: id(await createUser(f.school.id, 'STUDENT')) }] },
      }),
    },
    {
      route: 'POST /groups/accesscode',
      name: "a fresh group's code, by anyone of its district",
      expect: 'h o o o o o o',
      request: async (f) => ({ body: { access_code: (await freshGroupWithCode(f)).accessCode } }),
    },
    {
      graphql: `mutation($input: JoinGroupInput!) { joinGroup(input: $input) { ${outcome} } }`,
      name: "a fresh group's code, by anyone of its district",
      expect: 'h o o o o o o',
      variables: async (f) => ({ input: { accessCode: (await freshGroupWithCode(f)).accessCode } }),
    },
    {
      graphql: `mutation($input: RemoveGroupMemberInput!) { removeGroupMember(input: $input) { ${outcome} } }`,
      name: 'a member of a school group',
      expect: 'h h f o f o o',
      variables: async (f) => {
        const group = await createGroup(f.school.id, { admins: [f.teacher.id], members: [f.student.id] });
        return { input: { groupId: id(group), userId: id(f.student) } };
      },
    },

    // A group open to everyone shows its members only to those who may see them as users (user(id)).
    {
      graphql: 'query($id: ID!) { group(id: $id) { members { user { id: databaseId username } } } }',
      name: 'members: a student, to those who see the student',
      expect: 'h h o o o o o',
      variables: (f) => ({ id: id(f.everyoneGroup) }),
      finds: (answer, f) => answer.members.some((member: Member) => member.user.id === id(f.student)),
    },
    {
      graphql: '{ groups(limit: 40) { items { id: databaseId members { user { id: databaseId } } } } }',
      name: 'members of listed groups: a student, to those who see the student',
      expect: 'h h o o o o o',
      finds: (answer, f) =>
        answer.items.some(
          (group: { id: string; members: Member[] }) =>
            group.id === id(f.everyoneGroup) && group.members.some((member) => member.user.id === id(f.student)),
        ),
    },
    {
      graphql: 'query($id: ID!) { group(id: $id) { memberCount } }',
      name: 'memberCount: counts the members the viewer sees (3)',
      expect: 'h h o o o o o',
      variables: (f) => ({ id: id(f.everyoneGroup) }),
      finds: (answer) => answer.memberCount === 3,
    },
  ],
);

import type { RealmRef } from '../../../src/auth/realms';
import { createBlogPosts, createGroup, createSection, unique } from '../../support/factories';
import { type Fixture, outcome, permissionCases } from '../../support/permissions';

const id = (object: { id: number }) => String(object.id);
const hasId = (items: { id: string }[], object: { id: number }) => items.some((item) => item.id === id(object));
const input = (realm: RealmRef) => ({ type: realm.type, id: String(realm.id) });

type Realms = Record<'district' | 'school' | 'student' | 'section' | 'group', RealmRef>;

/** A post written by the teacher in the group realm, fresh for a case that deletes it. */
const freshGroupPost = async (f: Fixture<{ realms: Realms }>, authorId = f.teacher.id) =>
  (await createBlogPosts(f.realms.group, 1, { authorId }))[0]!;

// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
export default permissionCases(
  'posts',
  async (world) => {
    const group = await createGroup(world.school.id, { admins: [world.teacher.id], members: [world.student.id] });
    const section = await createSection(world.school.id, [
      { userId: world.teacher.id, admin: true },
      { userId: world.student.id },
    ]);
    const realms: Realms = {
      district: { type: 'DISTRICT', id: world.district.id },
      school: { type: 'SCHOOL', id: world.school.id },
      student: { type: 'USER', id: world.student.id },
      section: { type: 'SECTION', id: section.id },
      group: { type: 'GROUP', id: group.id },
    };
    const posts = Object.fromEntries(
      await Promise.all(
        Object.entries(realms).map(async ([name, realm]) => [
          name,
          (await createBlogPosts(realm, 1, { authorId: world.teacher.id }))[0]!,
        ]),
      ),
    ) as Record<keyof Realms, { id: number }>;
    return { realms, posts };
  },
  [
    {
      route: 'GET /[realm]/posts',
      name: "a district's",
      expect: 'h o o o o o o',
      request: (f) => ({ realm: f.realms.district }),
      finds: (answer, f) => hasId(answer.post, f.posts.district),
    },
    {
      route: 'GET /[realm]/posts',
      name: "a school's",
      expect: 'h o o o o o o',
      request: (f) => ({ realm: f.realms.school }),
      finds: (answer, f) => hasId(answer.post, f.posts.school),
    },
    {
      route: 'GET /[realm]/posts',
      name: "a student's",
      expect: 'h h o o o o o',
      request: (f) => ({ realm: f.realms.student }),
      finds: (answer, f) => hasId(answer.post, f.posts.student),
    },
    {
      route: 'GET /[realm]/posts',
      name: "a section's (closed to those not enrolled)",
      expect: 'h h o o f o o',
      request: (f) => ({ realm: f.realms.section }),
      finds: (answer, f) => hasId(answer.post, f.posts.section),
    },
    {
      route: 'GET /[realm]/posts',
      name: "a school group's",
      expect: 'h h o o o o o',
      request: (f) => ({ realm: f.realms.group }),
      finds: (answer, f) => hasId(answer.post, f.posts.group),
    },
    {
      route: 'GET /[realm]/posts/{id}',
      name: 'in a school group',
      expect: 'h h o o o o o',
      request: (f) => ({ realm: f.realms.group, params: { id: f.posts.group.id } }),
    },
    {
      route: 'GET /[realm]/posts/{id}',
      name: 'in a section',
      expect: 'h h o o f o o',
      request: (f) => ({ realm: f.realms.section, params: { id: f.posts.section.id } }),
    },
    {
      route: 'POST /[realm]/posts',
      name: 'in a district',
      expect: 'h f f f f f o',
      request: (f) => ({ realm: f.realms.district, body: { title: unique('Post') } }),
    },
    {
      route: 'POST /[realm]/posts',
      name: 'in a school',
      expect: 'h f f f f o o',
      request: (f) => ({ realm: f.realms.school, body: { title: unique('Post') } }),
    },
    {
      route: 'POST /[realm]/posts',
      name: "in a student's realm",
      expect: 'h h o f f o o',
      request: (f) => ({ realm: f.realms.student, body: { title: unique('Post') } }),
    },
    {
      route: 'POST /[realm]/posts',
      name: 'in a section',
      expect: 'h h f o f o o',
      request: (f) => ({ realm: f.realms.section, body: { title: unique('Post') } }),
    },
    {
      route: 'POST /[realm]/posts',
      name: 'in a group whose members post',
      expect: 'h h o o f o o',
      request: (f) => ({ realm: f.realms.group, body: { title: unique('Post') } }),
    },
    {
      route: 'PUT /[realm]/posts/{id}',
      name: "the teacher's, in a group",
      expect: 'h h f o f o o',
      request: (f, caller) => ({
        realm: f.realms.group,
        params: { id: f.posts.group.id },
        body: { body: `by ${caller.person}` },
      }),
    },
    {
      route: 'DELETE /[realm]/posts/{id}',
      name: "the teacher's, in a group",
      expect: 'h h f o f o o',
      request: async (f) => ({ realm: f.realms.group, params: { id: (await freshGroupPost(f)).id } }),
    },
    {
      route: 'DELETE /[realm]/posts/{id}',
      name: "the student's, in a group",
      expect: 'h h o o f o o',
      request: async (f) => ({ realm: f.realms.group, params: { id: (await freshGroupPost(f, f.student.id)).id } }),
    },

    {
      graphql: 'query($realm: RealmInput!) { blogPosts(realm: $realm) { items { id: databaseId } } }',
      name: "a section's",
      expect: 'h h o o f o o',
      variables: (f) => ({ realm: input(f.realms.section) }),
      finds: (answer, f) => hasId(answer.items, f.posts.section),
    },
    {
      graphql:
        'query($realm: RealmInput!) { blogPostsConnection(realm: $realm) { edges { node { id: databaseId } } } }',
      name: "a section's",
      expect: 'h h o o f o o',
      variables: (f) => ({ realm: input(f.realms.section) }),
      finds: (answer, f) =>
        hasId(
          answer.edges.map((edge: { node: { id: string } }) => edge.node),
          f.posts.section,
        ),
    },
    {
      graphql: 'query($realm: RealmInput!, $id: ID!) { blogPost(realm: $realm, id: $id) { id: databaseId } }',
      name: "in a student's realm",
      expect: 'h h o o o o o',
      variables: (f) => ({ realm: input(f.realms.student), id: id(f.posts.student) }),
    },
    {
      graphql: `mutation($input: CreateBlogPostInput!) { createBlogPost(input: $input) { ${outcome} } }`,
      name: 'in a school',
      expect: 'h f f f f o o',
      variables: (f) => ({ input: { realm: input(f.realms.school), title: unique('Post') } }),
    },
    {
      graphql: `mutation($input: UpdateBlogPostInput!) { updateBlogPost(input: $input) { ${outcome} } }`,
      name: "the teacher's, in a group",
      expect: 'h h f o f o o',
      variables: (f, caller) => ({
        input: { realm: input(f.realms.group), id: id(f.posts.group), body: `by ${caller.person}` },
      }),
    },
    {
      graphql: `mutation($input: DeleteBlogPostInput!) { deleteBlogPost(input: $input) { ${outcome} } }`,
      name: "the teacher's, in a group",
      expect: 'h h f o f o o',
      variables: async (f) => ({ input: { realm: input(f.realms.group), id: id(await freshGroupPost(f)) } }),
    },
  ],
);

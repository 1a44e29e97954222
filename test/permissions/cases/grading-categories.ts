import type { RealmRef } from '../../../src/auth/realms';
import { db } from '../../../src/db/database';
import { createSection, createUser } from '../../support/factories';
import { type Fixture, outcome, permissionCases } from '../../support/permissions';

interface Shared {
  section: RealmRef;
  category: { id: number };
}
type F = Fixture<Shared>;

const id = (object: { id: number }) => String(object.id);
const hasId = (items: { id: number | string }[], object: { id: number }) =>
  items.some((item) => String(item.id) === id(object));
const freshCategory = (f: F) => db().gradingCategory.create({ data: { sectionId: f.section.id, title: 'Fresh' } });

// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
// Categories are read by whoever reads the section's gradebook: its teachers, its students, the parents of its students
// (here the parent's child is enrolled) and the school's and district's administrators; they are kept by the section's
// teachers and administrators. Another school's student and an outsider do not know the section (404).
export default permissionCases<Shared>(
  'grading categories',
  async (world) => {
    const child = await createUser(world.school.id, 'STUDENT');
    const section = await createSection(world.school.id, [
      { userId: world.teacher.id, admin: true },
      { userId: world.student.id },
      { userId: child.id },
    ]);
    await db().parentLink.create({ data: { parentId: world.parent.id, childId: child.id } });
    const category = await db().gradingCategory.create({ data: { sectionId: section.id, title: 'Homework' } });
    return { section: { type: 'SECTION', id: section.id }, category };
  },
  [
    {
      route: 'GET /[realm]/grading_categories',
      name: "a section's",
      expect: 'h h o o o o o',
      request: (f) => ({ realm: f.section, query: { limit: '200' } }),
      finds: (answer, f) => hasId(answer.grading_category, f.category),
    },
    {
      route: 'GET /[realm]/grading_categories/{id}',
      name: "a section's",
      expect: 'h h o o o o o',
      request: (f) => ({ realm: f.section, params: { id: f.category.id } }),
    },
    {
      route: 'POST /[realm]/grading_categories',
      name: 'in a section',
      expect: 'h h f o f o o',
      request: (f) => ({ realm: f.section, body: { grading_categories: { grading_category: [{ title: 'New' }] } } }),
      finds: (answer) => answer.grading_category[0].response_code === 200,
    },
    {
      route: 'PUT /[realm]/grading_categories',
      name: "a section's",
      expect: 'h h f o f o o',
      request: (f, caller) => ({
        realm: f.section,
        body: { grading_categories: { grading_category: [{ id: f.category.id, title: `by ${caller.person}` }] } },
      }),
      finds: (answer) => answer.grading_category[0].response_code === 204,
    },
    {
      route: 'PUT /[realm]/grading_categories/{id}',
      name: "a section's",
      expect: 'h h f o f o o',
      request: (f, caller) => ({
        realm: f.section,
        params: { id: f.category.id },
        body: { title: `by ${caller.person}` },
      }),
    },
    {
      route: 'DELETE /[realm]/grading_categories/{id}',
      name: "a section's",
      expect: 'h h f o f o o',
      request: async (f) => ({ realm: f.section, params: { id: (await freshCategory(f)).id } }),
    },

    {
      graphql:
        'query($sectionId: ID!) { gradingCategories(sectionId: $sectionId, limit: 200) { items { id: databaseId } } }',
      name: "a section's",
      expect: 'h h o o o o o',
      variables: (f) => ({ sectionId: id(f.section) }),
      finds: (answer, f) => hasId(answer.items, f.category),
    },
    {
      graphql:
        'query($sectionId: ID!) { gradingCategoriesConnection(sectionId: $sectionId, first: 200) { edges { node { id: databaseId } } } }',
      name: "a section's",
      expect: 'h h o o o o o',
      variables: (f) => ({ sectionId: id(f.section) }),
      finds: (answer, f) =>
        hasId(
          answer.edges.map((edge: { node: { id: string } }) => edge.node),
          f.category,
        ),
    },
    {
      graphql:
        'query($sectionId: ID!, $id: ID!) { gradingCategory(sectionId: $sectionId, id: $id) { id: databaseId } }',
      name: "a section's",
      expect: 'h h o o o o o',
      variables: (f) => ({ sectionId: id(f.section), id: id(f.category) }),
    },
    {
      graphql: `mutation($sectionId: ID!, $items: [CreateGradingCategoryInput!]!) {
        createGradingCategories(input: { sectionId: $sectionId, items: $items }) { ${outcome} results { code } } }`,
      name: 'in a section',
      expect: 'h h f o f o o',
      variables: (f) => ({ sectionId: id(f.section), items: [{ title: 'New' }] }),
      finds: (answer) => answer.results[0].code === 'CREATED',
    },
    {
      graphql: `mutation($sectionId: ID!, $items: [GradingCategoryChangeInput!]!) {
        updateGradingCategories(input: { sectionId: $sectionId, items: $items }) { ${outcome} results { code } } }`,
      name: "a section's",
      expect: 'h h f o f o o',
      variables: (f, caller) => ({
        sectionId: id(f.section),
        items: [{ id: id(f.category), title: `by ${caller.person}` }],
      }),
      finds: (answer) => answer.results[0].code === 'UPDATED',
    },
    {
      graphql: `mutation($input: UpdateGradingCategoryInput!) { updateGradingCategory(input: $input) { ${outcome} } }`,
      name: "a section's",
      expect: 'h h f o f o o',
      variables: (f, caller) => ({ input: { id: id(f.category), title: `by ${caller.person}` } }),
    },
    {
      graphql: `mutation($id: ID!) { deleteGradingCategory(input: { id: $id }) { ${outcome} } }`,
      name: "a section's",
      expect: 'h h f o f o o',
      variables: async (f) => ({ id: id(await freshCategory(f)) }),
    },
  ],
);

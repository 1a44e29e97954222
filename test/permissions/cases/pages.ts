import { createGradingGroup, createPage, createSection } from '../../support/factories';
import { type Fixture, outcome, permissionCases } from '../../support/permissions';

const id = (object: { id: number }) => String(object.id);
type Tables = { section: { id: number }; page: { id: number }; draft: { id: number } };
const sectionRealm = (f: Fixture<Tables>) => ({ type: 'SECTION' as const, id: f.section.id });
const graphqlRealm = (f: Fixture<Tables>) => ({ realm: { type: 'SECTION', id: id(f.section) } });
const hasId = (items: { id: string }[], object: { id: number }) => items.some((item) => item.id === id(object));

// A section's pages: its readers read the published ones (a same-school user who is not enrolled is refused, as for
// posts), its administrators write them and see drafts. Grading groups are the administrators' alone.
// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
export default permissionCases<Tables>(
  'pages',
  async (world) => {
    const section = await createSection(world.school.id, [
      { userId: world.teacher.id, admin: true },
      { userId: world.student.id },
    ]);
    const realm = { type: 'SECTION' as const, id: section.id };
    return { section, page: await createPage(realm), draft: await createPage(realm, { published: false }) };
  },
  [
    {
      route: 'GET /[realm]/pages',
      name: "a section's",
      expect: 'h h o o f o o',
      request: (f) => ({ realm: sectionRealm(f) }),
    },
    {
      route: 'GET /[realm]/pages',
      name: 'a draft, to those who write pages',
      expect: 'h h h o f o o',
      request: (f) => ({ realm: sectionRealm(f), query: { limit: '200' } }),
      finds: (answer, f) => answer.page.some((page: { id: number }) => page.id === f.draft.id),
    },
    {
      route: 'GET /[realm]/page/{id}',
      name: "a section's",
      expect: 'h h o o f o o',
      request: (f) => ({ realm: sectionRealm(f), params: { id: f.page.id } }),
    },
    {
      route: 'GET /[realm]/pages/{id}',
      name: 'a draft',
      expect: 'h h h o f o o',
      request: (f) => ({ realm: sectionRealm(f), params: { id: f.draft.id } }),
    },
    {
      route: 'POST /[realm]/pages',
      name: 'in a section',
      expect: 'h h f o f o o',
      request: (f) => ({ realm: sectionRealm(f), body: { title: 'Notes' } }),
    },
    {
      route: 'PUT /[realm]/pages/{id}',
      name: "a section's",
      expect: 'h h f o f o o',
      request: (f, caller) => ({
        realm: sectionRealm(f),
        params: { id: f.page.id },
        body: { title: `by ${caller.person}` },
      }),
    },
    {
      route: 'DELETE /[realm]/pages/{id}',
      name: "a section's",
      expect: 'h h f o f o o',
      request: async (f) => ({ realm: sectionRealm(f), params: { id: (await createPage(sectionRealm(f))).id } }),
    },

    {
      graphql: 'query($realm: RealmInput!, $id: ID!) { page(realm: $realm, id: $id) { id: databaseId } }',
      name: 'a draft',
      expect: 'h h h o f o o',
      variables: (f) => ({ ...graphqlRealm(f), id: id(f.draft) }),
    },
    {
      graphql: 'query($realm: RealmInput!) { pages(realm: $realm, limit: 200) { items { id: databaseId } } }',
      name: "a section's",
      expect: 'h h o o f o o',
      variables: graphqlRealm,
      finds: (answer, f) => hasId(answer.items, f.page),
    },
    {
      graphql:
        'query($realm: RealmInput!) { pagesConnection(realm: $realm, first: 200) { edges { node { id: databaseId } } } }',
      name: "a section's",
      expect: 'h h o o f o o',
      variables: graphqlRealm,
      finds: (answer, f) =>
        hasId(
          answer.edges.map((edge: { node: { id: string } }) => edge.node),
          f.page,
        ),
    },
    {
      graphql: `mutation($input: CreatePageInput!) { createPage(input: $input) { ${outcome} } }`,
      name: 'in a section',
      expect: 'h h f o f o o',
      variables: (f) => ({ input: { ...graphqlRealm(f), title: 'Notes' } }),
    },
    {
      graphql: `mutation($input: UpdatePageInput!) { updatePage(input: $input) { ${outcome} } }`,
      name: "a section's",
      expect: 'h h f o f o o',
      variables: (f) => ({ input: { ...graphqlRealm(f), id: id(f.page), inline: true } }),
    },
    {
      graphql: `mutation($input: DeletePageInput!) { deletePage(input: $input) { ${outcome} } }`,
      name: "a section's",
      expect: 'h h f o f o o',
      variables: async (f) => ({ input: { ...graphqlRealm(f), id: id(await createPage(sectionRealm(f))) } }),
    },

    {
      graphql: 'query($sectionId: ID!) { gradingGroups(sectionId: $sectionId) { id: databaseId } }',
      name: "a section's",
      expect: 'h h f o f o o',
      variables: (f) => ({ sectionId: id(f.section) }),
    },
    {
      graphql: 'query($sectionId: ID!) { gradingGroupsConnection(sectionId: $sectionId) { totalCount } }',
      name: "a section's",
      expect: 'h h f o f o o',
      variables: (f) => ({ sectionId: id(f.section) }),
    },
    {
      graphql: `mutation($sectionId: ID!) { createGradingGroup(input: { sectionId: $sectionId, title: "A" }) { ${outcome} } }`,
      name: 'in a section',
      expect: 'h h f o f o o',
      variables: (f) => ({ sectionId: id(f.section) }),
    },
    {
      graphql: `mutation($id: ID!) { updateGradingGroup(input: { id: $id, title: "B" }) { ${outcome} } }`,
      name: "a section's",
      expect: 'h h f o f o o',
      variables: async (f) => ({ id: id(await createGradingGroup(f.section.id)) }),
    },
    {
      graphql: `mutation($id: ID!) { deleteGradingGroup(input: { id: $id }) { ${outcome} } }`,
      name: "a section's",
      expect: 'h h f o f o o',
      variables: async (f) => ({ id: id(await createGradingGroup(f.section.id)) }),
    },
  ],
);

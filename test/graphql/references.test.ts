import { beforeAll, describe, expect, it } from 'vitest';
import { type GraphQLClient, graphqlClientFor } from '../support/client';
import { createBlogPosts, createGroup, createSection, createWorld, type World } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();

const realmSelection = /* GraphQL */ `
  realm {
    __typename
    ... on District { databaseId title }
    ... on School { databaseId title district { title } }
    ... on User { databaseId nameDisplay }
    ... on Section { databaseId title course { title } }
    ... on Group { databaseId title school { title } }
  }
`;
const postSelection = `items { databaseId authorId realmType realmId author { databaseId nameDisplay school { title } } ${realmSelection} }`;

/** A page of posts of every kind of realm, each post with its author and its realm. */
const query = /* GraphQL */ `
  query ($limit: Int!, $district: ID!, $school: ID!, $user: ID!, $section: ID!, $group: ID!) {
    district: blogPosts(realm: { type: DISTRICT, id: $district }, limit: $limit) { ${postSelection} }
    school: blogPosts(realm: { type: SCHOOL, id: $school }, limit: $limit) { ${postSelection} }
    user: blogPosts(realm: { type: USER, id: $user }, limit: $limit) { ${postSelection} }
    section: blogPosts(realm: { type: SECTION, id: $section }, limit: $limit) { ${postSelection} }
    group: blogPosts(realm: { type: GROUP, id: $group }, limit: $limit) { ${postSelection} }
  }
`;

describe('references as objects', () => {
  let world: World;
  let graphql: GraphQLClient;
  let realms: Record<'district' | 'school' | 'user' | 'section' | 'group', string>;
  let authors: number[];

  beforeAll(async () => {
    world = await createWorld();
    const { school, teacher, student, schoolAdmin } = world;
    const section = await createSection(school.id, [{ userId: teacher.id, admin: true }, { userId: student.id }]);
    const group = await createGroup(school.id, { admins: [teacher.id], members: [student.id] });
    realms = {
      district: String(world.district.id),
      school: String(school.id),
      user: String(teacher.id),
      section: String(section.id),
      group: String(group.id),
    };
    authors = [teacher.id, student.id, schoolAdmin.id, world.districtAdmin.id];
    const types = { district: 'DISTRICT', school: 'SCHOOL', user: 'USER', section: 'SECTION', group: 'GROUP' } as const;
    for (const [name, id] of Object.entries(realms)) {
      // Twenty posts a realm, by four different authors.
      for (let index = 0; index < 20; index++) {
        await createBlogPosts({ type: types[name as keyof typeof types], id: Number(id) }, 1, {
          authorId: authors[index % authors.length],
        });
      }
    }
    graphql = await graphqlClientFor(server, world.districtAdmin);
  });

  async function statementsFor(limit: number) {
    const before = server.database.statementCount;
    const result = await graphql(query, { limit, ...realms });
    expect(result.errors).toBeUndefined();
    return { statements: server.database.statementCount - before, data: result.data };
  }

  it('resolve author and realm to the rows their ids name', async () => {
    const { data } = await statementsFor(4);
    expect(data.group.items[0].realm).toMatchObject({
      __typename: 'Group',
      databaseId: realms.group,
      school: { title: world.school.title },
    });
    expect(data.school.items[0].realm).toMatchObject({
      __typename: 'School',
      databaseId: realms.school,
      district: { title: world.district.title },
    });
    expect(data.district.items[0].realm).toMatchObject({
      __typename: 'District',
      databaseId: realms.district,
      title: world.district.title,
    });
    expect(data.user.items[0].realm).toMatchObject({ __typename: 'User', databaseId: realms.user });
    expect(data.section.items[0].realm).toMatchObject({ __typename: 'Section', databaseId: realms.section });
    expect(data.section.items[0].realm.course.title).toEqual(expect.any(String));
    for (const page of Object.values(data) as {
      items: { authorId: string; author: { databaseId: string; school: { title: string } } }[];
    }[]) {
      expect(page.items.map((post) => post.author.databaseId)).toEqual(page.items.map((post) => post.authorId));
      expect(page.items.map((post) => post.author.school.title)).toEqual(page.items.map(() => world.school.title));
    }
    expect(data.group.items.map((post: { authorId: string }) => Number(post.authorId))).toEqual(authors);
  });

  it('load 5 realms × 20 posts with authors and realms in about as many statements as 5 × 2', async () => {
    await statementsFor(1); // warm the viewer's realm facts once
    const small = await statementsFor(2);
    const large = await statementsFor(20);
    expect(Object.values(large.data).map((page: any) => page.items.length)).toEqual([20, 20, 20, 20, 20]);
    // The loader batches what resolves in one tick; on PostgreSQL the five pages arrive at different moments, so a
    // kind's batch may split in two, by page and never by post: at most one statement more per page, whatever its size
    // (one statement per post would be 90 more).
    expect(Math.abs(large.statements - small.statements)).toBeLessThanOrEqual(5);
  });

  it('show no author the viewer may not look up as a user', async () => {
    const post = (
      await createBlogPosts({ type: 'SCHOOL', id: world.school.id }, 1, { authorId: world.outsider.id })
    )[0]!;
    const result = await graphql(
      `query($school: ID!, $post: ID!) { blogPost(realm: { type: SCHOOL, id: $school }, id: $post) { authorId author { databaseId } } }`,
      { school: realms.school, post: String(post.id) },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.blogPost).toEqual({ authorId: String(world.outsider.id), author: null });
    const lookup = await graphql(`query($id: ID!) { user(id: $id) { databaseId } }`, { id: String(world.outsider.id) });
    expect(lookup.data?.user ?? null).toBeNull();
  });
});

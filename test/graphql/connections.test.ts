import { beforeAll, describe, expect, it } from 'vitest';
import { type GraphQLClient, graphqlClientFor } from '../support/client';
import { db } from '../../src/db/database';
import { createBlogPosts, createGroup, createSection, createUser, createWorld, type World } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();

type Page = {
  edges: { cursor: string; node: { id: string } }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number;
};

const pageSelection =
  'totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id: databaseId } }';
const ids = (page: Page) => page.edges.map((edge) => edge.node.id);

describe('connections beside the offset lists', () => {
  let world: World;
  let teacher: GraphQLClient;
  let groupId: string;
  let sectionId: string;

  beforeAll(async () => {
    world = await createWorld();
    const { school, otherSchool, teacher: me, student } = world;
    const others = [await createUser(otherSchool.id, 'STUDENT'), await createUser(otherSchool.id, 'STUDENT')];
    const mates = [student, await createUser(school.id, 'STUDENT'), await createUser(school.id, 'STUDENT')];
    // Groups the teacher sees (their school's) and groups they do not (another school's, school-only).
    for (let index = 0; index < 7; index++) await createGroup(school.id, { admins: [me.id] });
    for (let index = 0; index < 3; index++) await createGroup(otherSchool.id);
    // A group open to everyone with members of both schools: the teacher sees only their own school's people.
    const open = await createGroup(school.id, {
      privacyLevel: 'EVERYONE',
      admins: [me.id],
      members: [others[0]!.id, mates[0]!.id, others[1]!.id, mates[1]!.id, mates[2]!.id],
    });
    groupId = String(open.id);
    const section = await createSection(school.id, [
      { userId: me.id, admin: true },
      { userId: others[0]!.id },
      { userId: mates[0]!.id },
      { userId: mates[1]!.id },
    ]);
    sectionId = String(section.id);
    teacher = await graphqlClientFor(server, me);
  });

  /** Every page of a connection, walking forwards with `first`/`after` or backwards with `last`/`before`. */
  async function walk(field: string, args: string, direction: 'forwards' | 'backwards', size: number) {
    const pages: Page[] = [];
    let cursor: string | null = null;
    for (;;) {
      const window = direction === 'forwards' ? `first: ${size}, after: $cursor` : `last: ${size}, before: $cursor`;
      const result = await teacher(
        `query($cursor: String) { list: ${field}(${args}${args ? ', ' : ''}${window}) { ${pageSelection} } }`,
        { cursor },
      );
      expect(result.errors).toBeUndefined();
      const page: Page = result.data.list;
      pages.push(page);
      const more = direction === 'forwards' ? page.pageInfo.hasNextPage : page.pageInfo.hasPreviousPage;
      if (!more) return pages;
      cursor = direction === 'forwards' ? page.pageInfo.endCursor : page.pageInfo.startCursor;
      expect(pages.length).toBeLessThan(50);
    }
  }

  it('groupsConnection walks exactly the groups `groups` lists to the viewer, forwards and backwards', async () => {
    const offset = await teacher('{ groups(limit: 200) { total items { id: databaseId } } }');
    const listed = offset.data.groups.items.map((group: { id: string }) => group.id);
    expect(listed.length).toBeGreaterThanOrEqual(8);
    const hidden = await db().group.findMany({ where: { schoolId: world.otherSchool.id }, select: { id: true } });
    expect(listed).not.toContain(String(hidden[0]!.id));

    const forwards = await walk('groupsConnection', '', 'forwards', 3);
    expect(forwards.flatMap(ids)).toEqual(listed);
    expect(forwards.map((page) => page.totalCount)).toEqual(forwards.map(() => offset.data.groups.total));
    expect(forwards[0]!.edges.length).toBe(3);

    const backwards = await walk('groupsConnection', '', 'backwards', 3);
    expect(backwards.reverse().flatMap(ids)).toEqual(listed);
  });

  it('a cursor stays usable after its row is deleted', async () => {
    const first = (await teacher(`{ groupsConnection(first: 2) { ${pageSelection} } }`)).data.groupsConnection as Page;
    const rest = (
      await teacher(`query($after: String) { groupsConnection(first: 200, after: $after) { ${pageSelection} } }`, {
        after: first.pageInfo.endCursor,
      })
    ).data.groupsConnection as Page;
    const victim = await createGroup(world.school.id);
    const withVictim = (await teacher(`{ groupsConnection(first: 200) { ${pageSelection} } }`)).data
      .groupsConnection as Page;
    const victimCursor = withVictim.edges.find((edge) => edge.node.id === String(victim.id))!.cursor;
    await db().group.delete({ where: { id: victim.id } });
    const after = await teacher(`query($after: String) { groupsConnection(after: $after) { ${pageSelection} } }`, {
      after: victimCursor,
    });
    expect(after.errors).toBeUndefined();
    expect(ids(after.data.groupsConnection)).toEqual([]);
    const before = await teacher(
      `query($before: String) { groupsConnection(last: 200, before: $before) { ${pageSelection} } }`,
      { before: victimCursor },
    );
    expect(ids(before.data.groupsConnection)).toEqual([...ids(first), ...ids(rest)]);
  });

  it('membersConnection and enrollmentsConnection show exactly the people `members` and `enrollments` show', async () => {
    const result = await teacher(
      `query($group: ID!, $section: ID!) {
        group(id: $group) { memberCount members { id: databaseId } membersConnection(first: 2) { ${pageSelection} } }
        section(id: $section) { enrollments { id: databaseId } enrollmentsConnection(first: 200) { ${pageSelection} } }
      }`,
      { group: groupId, section: sectionId },
    );
    expect(result.errors).toBeUndefined();
    const { group, section } = result.data;
    expect(group.members.length).toBe(4); // the teacher and three of their school's students; not the other school's two
    expect(group.membersConnection.totalCount).toBe(group.memberCount);
    expect(ids(group.membersConnection)).toEqual(group.members.slice(0, 2).map((member: { id: string }) => member.id));
    expect(group.membersConnection.pageInfo.hasNextPage).toBe(true);
    const next = await teacher(
      `query($group: ID!, $after: String) { group(id: $group) { membersConnection(first: 2, after: $after) { ${pageSelection} } } }`,
      {
        group: groupId,
        after: group.membersConnection.pageInfo.endCursor,
      },
    );
    expect(ids(next.data.group.membersConnection)).toEqual(
      group.members.slice(2).map((member: { id: string }) => member.id),
    );
    expect(ids(section.enrollmentsConnection)).toEqual(
      section.enrollments.map((enrollment: { id: string }) => enrollment.id),
    );
    expect(section.enrollmentsConnection.totalCount).toBe(3);
  });

  it('a connection of a realm hidden from the viewer is null, as its offset list is, even when only its count is asked', async () => {
    await createBlogPosts({ type: 'SCHOOL', id: world.farSchool.id }, 2);
    await createBlogPosts({ type: 'SCHOOL', id: world.school.id }, 3);
    const query = `query($school: ID!) {
      blogPosts(realm: { type: SCHOOL, id: $school }) { total }
      blogPostsConnection(realm: { type: SCHOOL, id: $school }) { totalCount }
      pages(realm: { type: SCHOOL, id: $school }) { total }
      pagesConnection(realm: { type: SCHOOL, id: $school }) { totalCount }
      buildings(schoolId: $school) { total }
      buildingsConnection(schoolId: $school) { totalCount }
    }`;
    const hidden = await teacher(query, { school: String(world.farSchool.id) });
    expect(hidden.errors).toBeUndefined();
    expect(hidden.data).toEqual({
      blogPosts: null,
      blogPostsConnection: null,
      pages: null,
      pagesConnection: null,
      buildings: null,
      buildingsConnection: null,
    });
    const own = await teacher(query, { school: String(world.school.id) });
    expect(own.errors).toBeUndefined();
    expect(own.data.blogPostsConnection.totalCount).toBe(own.data.blogPosts.total);
    expect(own.data.blogPosts.total).toBe(3);
    expect(own.data.pagesConnection.totalCount).toBe(own.data.pages.total);
    expect(own.data.buildingsConnection.totalCount).toBe(own.data.buildings.total);
    expect(own.data.buildings.total).toBe(1);
  });

  it('refuses a cursor or window it cannot use as BAD_USER_INPUT, not as a server error', async () => {
    const cursor = (text: string) => Buffer.from(text).toString('base64');
    const refusals = [
      ['(after: "garbage")', 'Invalid cursor'],
      [`(after: "${cursor('GPC:N:abc')}")`, 'after: is not a cursor of this list'],
      [`(after: "${cursor('GPC:N:1.5')}")`, 'after: is not a cursor of this list'],
      [`(last: 2, before: "${cursor('GPC:S:7')}")`, 'before: is not a cursor of this list'],
      [`(first: 2, before: "${cursor('GPC:N:7')}")`, ''],
    ];
    for (const [args, message] of refusals) {
      const result = await teacher(`{ groupsConnection${args} { totalCount edges { cursor } } }`);
      expect(result.data, args).toBeNull();
      expect(result.errors?.[0]?.extensions?.code, args).toBe('BAD_USER_INPUT');
      expect(result.errors?.[0]?.message, args).toContain(message);
    }
  });

  it('price a connection by its page size, as an offset list by its limit', async () => {
    const query = (first: number) =>
      `{ groupsConnection(first: ${first}) { edges { node { members { user { school { id: databaseId } } } } } } }`;
    const costly = await teacher(query(200));
    expect(costly.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COSTLY');
    const cheap = await teacher(query(5));
    expect(cheap.errors).toBeUndefined();
    expect(cheap.data.groupsConnection.edges).toHaveLength(5);
  });

  it('load a page of 20 groups with a page of members each in as many statements as 5', async () => {
    const query = `query($first: Int!) {
      groupsConnection(first: $first) { totalCount edges { node { id: databaseId school { title } membersConnection(first: 2) { totalCount edges { node { user { nameFirst } } } } } } }
    }`;
    const statements = async (first: number) => {
      const before = server.database.statementCount;
      const result = await teacher(query, { first });
      expect(result.errors).toBeUndefined();
      return { statements: server.database.statementCount - before, size: result.data.groupsConnection.edges.length };
    };
    await statements(1);
    const five = await statements(5);
    const all = await statements(200);
    expect(five.size).toBe(5);
    expect(all.size).toBeGreaterThan(5);
    expect(all.statements).toBe(five.statements);
  });
});

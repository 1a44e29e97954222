import { beforeAll, describe, expect, it } from 'vitest';
import { type GraphQLClient, graphqlClientFor } from '../support/client';
import { db } from '../../src/db/database';
import {
  createAlbum,
  createAlbumItem,
  createGroup,
  createSchool,
  createSection,
  createUser,
  createWorld,
  type World,
} from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();

type Page = {
  edges: { cursor: string; node: { id: string } }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number;
};

const selectionOf = (idField: string) =>
  `totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id: ${idField} } }`;
const ids = (page: Page) => page.edges.map((edge) => edge.node.id);

/**
 * One nested connection over a list made fresh for each test (the tests delete from it): `page(window)` asks for one
 * page of it (the window holds `$cursor`), `listed` are the ids the viewer must see in the list's order (some rows are
 * always hidden from them or filtered out), and `remove` deletes one of them, through the API where there is a way.
 */
interface NestedList {
  page(window: string, cursor: string | null): Promise<{ errors?: { extensions?: { code?: string } }[]; page: Page }>;
  listed: string[];
  remove(id: string): Promise<void>;
}

interface NestedCase {
  name: string;
  create(): Promise<NestedList>;
}

describe('nested connections page by keyset', () => {
  let world: World;
  let teacher: GraphQLClient;

  beforeAll(async () => {
    world = await createWorld();
    teacher = await graphqlClientFor(server, world.teacher);
  });

  /** Asks `client` for one page of a connection, which `pick` finds in the answer. */
  function pager(
    client: GraphQLClient,
    document: (window: string) => string,
    variables: Record<string, unknown>,
    pick: (data: any) => Page,
  ) {
    return async (window: string, cursor: string | null) => {
      const result = await client(document(window), { ...variables, cursor });
      return { errors: result.errors, page: result.errors ? (undefined as never) : pick(result.data) };
    };
  }

  const cases: NestedCase[] = [
    {
      name: 'Group.membersConnection',
      async create() {
        // Open to everyone, with people of another school among its members: the teacher sees only their own school's.
        const mates = [];
        for (let index = 0; index < 5; index++) mates.push(await createUser(world.school.id, 'STUDENT'));
        const hidden = await createUser(world.otherSchool.id, 'STUDENT');
        const group = await createGroup(world.school.id, {
          privacyLevel: 'EVERYONE',
          admins: [world.teacher.id],
          members: [mates[0]!.id, hidden.id, ...mates.slice(1).map((mate) => mate.id)],
        });
        const shown = await teacher('query($group: ID!) { group(id: $group) { members { id: databaseId } } }', {
          group: String(group.id),
        });
        return {
          page: pager(
            teacher,
            (window) =>
              `query($group: ID!, $cursor: String) { group(id: $group) { membersConnection(${window}) { ${selectionOf('databaseId')} } } }`,
            { group: String(group.id) },
            (data) => data.group.membersConnection,
          ),
          listed: shown.data.group.members.map((member: { id: string }) => member.id),
          remove: async (id) => void (await db().groupMembership.delete({ where: { id: Number(id) } })),
        };
      },
    },
    {
      name: 'Section.enrollmentsConnection',
      async create() {
        const students = [];
        for (let index = 0; index < 5; index++) students.push(await createUser(world.school.id, 'STUDENT'));
        const far = await createUser(world.farSchool.id, 'STUDENT');
        const section = await createSection(world.school.id, [
          { userId: world.teacher.id, admin: true },
          { userId: far.id },
          ...students.map((student) => ({ userId: student.id })),
        ]);
        const shown = await teacher(
          'query($section: ID!) { section(id: $section) { enrollments { id: databaseId } } }',
          { section: String(section.id) },
        );
        return {
          page: pager(
            teacher,
            (window) =>
              `query($section: ID!, $cursor: String) { section(id: $section) { enrollmentsConnection(${window}) { ${selectionOf('databaseId')} } } }`,
            { section: String(section.id) },
            (data) => data.section.enrollmentsConnection,
          ),
          listed: shown.data.section.enrollments.map((enrollment: { id: string }) => enrollment.id),
          remove: async (id) => void (await db().enrollment.delete({ where: { id: Number(id) } })),
        };
      },
    },
    {
      name: 'Album.contentsConnection',
      async create() {
        // Display order is not id order, and ties in it fall back on the id: a cursor must hold both to keep its place.
        const section = await createSection(world.school.id, [{ userId: world.teacher.id, admin: true }]);
        const album = await createAlbum({ type: 'SECTION', id: section.id }, { creatorId: world.teacher.id });
        for (const displayOrder of [3, 1, 2, 1, 0, 2, 1]) {
          const item = await createAlbumItem(album.id, world.teacher.id);
          await db().albumContent.update({ where: { id: item.id }, data: { displayOrder } });
        }
        const shown = await teacher('query($album: ID!) { album(id: $album) { contents { id: databaseId } } }', {
          album: String(album.id),
        });
        return {
          page: pager(
            teacher,
            (window) =>
              `query($album: ID!, $cursor: String) { album(id: $album) { contentsConnection(${window}) { ${selectionOf('databaseId')} } } }`,
            { album: String(album.id) },
            (data) => data.album.contentsConnection,
          ),
          listed: shown.data.album.contents.map((item: { id: string }) => item.id),
          async remove(id) {
            const deleted = await teacher(
              'mutation($input: DeleteAlbumContentInput!) { deleteAlbumContent(input: $input) { userErrors { code } } }',
              { input: { albumId: String(album.id), id } },
            );
            expect(deleted.errors).toBeUndefined();
            expect(deleted.data.deleteAlbumContent.userErrors).toEqual([]);
          },
        };
      },
    },
    {
      name: 'TriggerTarget.deliveriesConnection',
      async create() {
        // A school of its own, so its trigger administrator's first target is this one; the FAILED deliveries are listed.
        const school = await createSchool(world.district.id);
        const admin = await graphqlClientFor(
          server,
          await createUser(school.id, 'SCHOOL_ADMIN', { triggerAdmin: true }),
        );
        const target = await db().triggerTarget.create({
          data: { schoolId: school.id, url: 'https://receiver.test/hook', secret: 'sealed' },
        });
        const statuses = ['FAILED', 'SUCCEEDED', 'FAILED', 'FAILED', 'PENDING', 'FAILED', 'FAILED', 'FAILED'] as const;
        const listed = [];
        for (const [index, status] of statuses.entries()) {
          const delivery = await db().webhookDelivery.create({
            data: { targetId: target.id, eventId: BigInt(index + 1), type: 'group.create', payload: {}, status },
          });
          if (status === 'FAILED') listed.push(String(delivery.id));
        }
        return {
          page: pager(
            admin,
            (window) =>
              `query($cursor: String) { triggerTargetsConnection(first: 1) { edges { node { deliveriesConnection(status: FAILED, ${window}) { ${selectionOf('id')} } } } } }`,
            {},
            (data) => data.triggerTargetsConnection.edges[0].node.deliveriesConnection,
          ),
          listed,
          remove: async (id) => void (await db().webhookDelivery.delete({ where: { id: BigInt(id) } })),
        };
      },
    },
  ];

  describe.each(cases.map((list) => [list.name, list] as const))('%s', (_name, { create }) => {
    it('goes on after a cursor whose row was deleted with the items that followed it', async () => {
      const list = await create();
      expect(list.listed.length).toBeGreaterThanOrEqual(6);
      const first = (await list.page('first: 2, after: $cursor', null)).page;
      expect(ids(first)).toEqual(list.listed.slice(0, 2));
      expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
      expect(first.totalCount).toBe(list.listed.length);

      await list.remove(list.listed[1]!);
      const next = await list.page('first: 2, after: $cursor', first.pageInfo.endCursor);
      expect(next.errors).toBeUndefined();
      expect(ids(next.page)).toEqual(list.listed.slice(2, 4));
      expect(next.page.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
      expect(next.page.totalCount).toBe(list.listed.length - 1);

      // To the end of the list: the last page says nothing follows it.
      const rest = await list.page('first: 200, after: $cursor', next.page.pageInfo.endCursor);
      expect(ids(rest.page)).toEqual(list.listed.slice(4));
      expect(rest.page.pageInfo.hasNextPage).toBe(false);
    });

    it('goes back before a cursor whose row was deleted with the items that preceded it', async () => {
      const list = await create();
      const count = list.listed.length;
      const last = (await list.page('last: 2, before: $cursor', null)).page;
      expect(ids(last)).toEqual(list.listed.slice(-2));
      expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

      await list.remove(list.listed[count - 2]!);
      const previous = await list.page('last: 2, before: $cursor', last.pageInfo.startCursor);
      expect(previous.errors).toBeUndefined();
      expect(ids(previous.page)).toEqual(list.listed.slice(count - 4, count - 2));
      expect(previous.page.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
      expect(previous.page.totalCount).toBe(count - 1);

      const start = await list.page('last: 200, before: $cursor', previous.page.pageInfo.startCursor);
      expect(ids(start.page)).toEqual(list.listed.slice(0, count - 4));
      expect(start.page.pageInfo.hasPreviousPage).toBe(false);
    });

    it('refuses a cursor that is not one of its own as bad input', async () => {
      const list = await create();
      const forged = Buffer.from('GPC:S:1').toString('base64');
      for (const [window, cursor] of [
        ['first: 2, after: $cursor', 'not a cursor'],
        ['last: 2, before: $cursor', forged],
      ] as const) {
        const refused = await list.page(window, cursor);
        expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      }
    });
  });

  it("counts with the parent's own query when only the count is asked", async () => {
    const group = await createGroup(world.school.id, {
      admins: [world.teacher.id],
      members: [world.student.id, world.otherSchoolStudent.id],
    });
    const statements = async (selection: string) => {
      const before = server.database.statementCount;
      const result = await teacher(`query($group: ID!) { group(id: $group) { ${selection} } }`, {
        group: String(group.id),
      });
      expect(result.errors).toBeUndefined();
      return { statements: server.database.statementCount - before, group: result.data.group };
    };
    const alone = await statements('memberCount');
    const both = await statements('memberCount membersConnection { totalCount }');
    expect(both.group).toEqual({ memberCount: 2, membersConnection: { totalCount: 2 } });
    expect(both.statements).toBe(alone.statements);
  });

  it('an album item cursor holds the display order, so an id cursor of another list does not place it', async () => {
    const album = await cases[2]!.create();
    const members = await cases[0]!.create();
    const memberCursor = (await members.page('first: 1, after: $cursor', null)).page.pageInfo.endCursor;
    const refused = await album.page('first: 2, after: $cursor', memberCursor);
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

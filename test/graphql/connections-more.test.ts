import { beforeAll, describe, expect, it } from 'vitest';
import { type GraphQLClient, graphqlClientFor } from '../support/client';
import { db } from '../../src/db/database';
import {
  createAlbum,
  createAlbumItem,
  createCalendarEvent,
  createFriendRequest,
  createGroup,
  createInvite,
  createSection,
  createUser,
  createWebPackage,
  createWorld,
  type World,
} from '../support/factories';
import { type ConnectionPage, walkConnection } from '../support/connections';
import { useTestServer } from '../support/harness';

const server = useTestServer();

type Page = ConnectionPage<{ id: string }>;
type OffsetList = { items: { id: string }[]; total: number };

/** A page with its items' database ids (Nodes answer them as `databaseId`; webhook deliveries are no Nodes). */
const selectionOf = (idField: string) =>
  `totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id: ${idField} } }`;
const pageSelection = selectionOf('databaseId');
const ids = (page: Page) => page.edges.map((edge) => edge.node.id);
const stringIds = (rows: { id: number | bigint }[]) => rows.map((row) => String(row.id));
const day = (n: number) => new Date(Date.UTC(2026, 8, 1 + n, 9));

/**
 * One list and its connection, for one viewer: `offset` asks for the whole offset list, `connection(window)` for one
 * page of the connection (its document declares `$cursor: String`), and `expected` are the ids the viewer must see,
 * in the list's order (part of the data is always hidden from them, or filtered out, or ordered otherwise than by id).
 */
interface ListCase {
  name: string;
  viewer: 'teacher' | 'triggerAdmin';
  variables: () => Record<string, unknown>;
  offset: string;
  pickList: (data: any) => OffsetList | { id: string }[];
  connection: (window: string) => string;
  pickPage: (data: any) => Page;
  expected: () => string[];
}

describe('connections beside the remaining offset lists', () => {
  let world: World;
  const clients = {} as Record<ListCase['viewer'], GraphQLClient>;
  const fixture = {} as Record<string, any>;

  beforeAll(async () => {
    world = await createWorld();
    const { school, otherSchool, farSchool, teacher, student } = world;
    const section = await createSection(school.id, [{ userId: teacher.id, admin: true }, { userId: student.id }]);
    const otherSection = await createSection(otherSchool.id);
    fixture.section = section;

    // Album items whose display order is not their id order, and comments on two of them.
    const album = await createAlbum({ type: 'SECTION', id: section.id }, { creatorId: teacher.id });
    const items = [];
    for (const displayOrder of [3, 1, 2, 1, 0]) {
      const item = await createAlbumItem(album.id, teacher.id);
      items.push(await db().albumContent.update({ where: { id: item.id }, data: { displayOrder } }));
    }
    fixture.album = album;
    fixture.item = items[0];
    fixture.items = [...items].sort((a, b) => a.displayOrder - b.displayOrder || a.id - b.id);
    fixture.comments = [];
    for (let index = 0; index < 5; index++) {
      fixture.comments.push(
        await db().albumComment.create({
          data: { contentId: items[0]!.id, authorId: student.id, comment: `#${index}` },
        }),
      );
      await db().albumComment.create({ data: { contentId: items[1]!.id, authorId: student.id, comment: 'elsewhere' } });
    }

    // Assignments, grading categories (by delta, then id) and web packages of the section; some of another section.
    fixture.assignments = [];
    for (let index = 0; index < 5; index++)
      fixture.assignments.push(await db().assignment.create({ data: { sectionId: section.id, title: `A${index}` } }));
    await db().assignment.create({ data: { sectionId: otherSection.id, title: 'elsewhere' } });
    const categories = [];
    for (const delta of [2, 0, 1, 0, 2])
      categories.push(
        await db().gradingCategory.create({ data: { sectionId: section.id, title: `C${delta}`, delta } }),
      );
    await db().gradingCategory.create({ data: { sectionId: otherSection.id, delta: -1 } });
    fixture.categories = categories.sort((a, b) => a.delta - b.delta || a.id - b.id);
    fixture.packages = [];
    for (let index = 0; index < 3; index++) fixture.packages.push(await createWebPackage(section.id, teacher.id));
    await createWebPackage(otherSection.id, teacher.id);

    // Events that start out of id order (two at the same time), one outside the days asked, and some of a far school.
    const events: Awaited<ReturnType<typeof createCalendarEvent>>[] = [];
    for (const n of [3, 1, 2, 1, 0, 4])
      events.push(await createCalendarEvent({ type: 'SCHOOL', id: school.id }, { start: day(n) }));
    events.push(await createCalendarEvent({ type: 'SECTION', id: section.id }, { start: day(2) }));
    await createCalendarEvent({ type: 'SCHOOL', id: farSchool.id }, { start: day(1) });
    await createCalendarEvent({ type: 'SCHOOL', id: otherSchool.id }, { start: day(1) });
    await createCalendarEvent({ type: 'SCHOOL', id: school.id }, { start: day(40) });
    const byStart = (list: typeof events) =>
      [...list].sort((a, b) => a.start.getTime() - b.start.getTime() || a.id - b.id);
    fixture.schoolEvents = byStart(events.filter((event) => event.realmType === 'SCHOOL' && event.start <= day(3)));
    fixture.calendar = byStart(events);

    // Invites of the teacher to groups and to a section (only group invites are asked), friend requests, and friends
    // of their own school (seen) and of a far school (hidden).
    fixture.invites = [];
    for (let index = 0; index < 4; index++)
      fixture.invites.push(await createInvite(teacher.id, { groupId: (await createGroup(school.id)).id }));
    await createInvite(teacher.id, { sectionId: otherSection.id });
    fixture.requests = [];
    fixture.friends = [];
    for (let index = 0; index < 4; index++) {
      const mate = await createUser(school.id, 'STUDENT');
      const far = await createUser(farSchool.id, 'STUDENT');
      fixture.requests.push(await createFriendRequest(mate.id, teacher.id));
      fixture.friends.push(mate);
      await db().friendship.createMany({
        data: [mate, far].flatMap((friend) => [
          { userId: teacher.id, friendId: friend.id },
          { userId: friend.id, friendId: teacher.id },
        ]),
      });
    }
    await createFriendRequest(teacher.id, student.id);

    // Webhook targets of the school (seen by its trigger administrator) and of another school, with subscriptions and
    // deliveries of several states.
    const triggerAdmin = await createUser(school.id, 'SCHOOL_ADMIN', { triggerAdmin: true });
    const newTarget = (schoolId: number) =>
      db().triggerTarget.create({ data: { schoolId, url: 'https://receiver.test/hook', secret: 'sealed' } });
    fixture.targets = [];
    fixture.subscriptions = [];
    for (let index = 0; index < 4; index++) {
      const target = await newTarget(school.id);
      fixture.targets.push(target);
      for (const trigger of ['group', 'blog_post'])
        fixture.subscriptions.push(await db().triggerSubscription.create({ data: { targetId: target.id, trigger } }));
      const elsewhere = await newTarget(otherSchool.id);
      await db().triggerSubscription.create({ data: { targetId: elsewhere.id, trigger: 'group' } });
    }
    const statuses = ['FAILED', 'SUCCEEDED', 'FAILED', 'PENDING', 'FAILED', 'FAILED'] as const;
    const deliveries = [];
    for (const [index, status] of statuses.entries()) {
      deliveries.push(
        await db().webhookDelivery.create({
          data: {
            targetId: fixture.targets[0].id,
            eventId: BigInt(index + 1),
            type: 'group.create',
            payload: {},
            status,
          },
        }),
      );
    }
    fixture.failed = deliveries.filter((delivery) => delivery.status === 'FAILED');

    clients.teacher = await graphqlClientFor(server, teacher);
    clients.triggerAdmin = await graphqlClientFor(server, triggerAdmin);
  });

  const sectionVariables = () => ({ section: String(fixture.section.id) });
  const commentVariables = () => ({ album: String(fixture.album.id), item: String(fixture.item.id) });
  const realmVariables = () => ({ realm: { type: 'SCHOOL', id: String(world.school.id) } });
  const teacherVariables = () => ({ user: String(world.teacher.id) });
  const cases: ListCase[] = [
    {
      name: 'albumCommentsConnection',
      viewer: 'teacher',
      variables: commentVariables,
      offset:
        'query($album: ID!, $item: ID!) { list: albumComments(albumId: $album, contentId: $item, limit: 200) { total items { id: databaseId } } }',
      pickList: (data) => data.list,
      connection: (window) =>
        `query($album: ID!, $item: ID!, $cursor: String) { page: albumCommentsConnection(albumId: $album, contentId: $item, ${window}) { ${pageSelection} } }`,
      pickPage: (data) => data.page,
      expected: () => stringIds(fixture.comments),
    },
    {
      name: 'Album.contentsConnection',
      viewer: 'teacher',
      variables: () => ({ album: String(fixture.album.id) }),
      offset: 'query($album: ID!) { album(id: $album) { contents { id: databaseId } } }',
      pickList: (data) => data.album.contents,
      connection: (window) =>
        `query($album: ID!, $cursor: String) { album(id: $album) { contentsConnection(${window}) { ${pageSelection} } } }`,
      pickPage: (data) => data.album.contentsConnection,
      expected: () => stringIds(fixture.items),
    },
    {
      name: 'assignmentsConnection',
      viewer: 'teacher',
      variables: sectionVariables,
      offset:
        'query($section: ID!) { list: assignments(sectionId: $section, limit: 200) { total items { id: databaseId } } }',
      pickList: (data) => data.list,
      connection: (window) =>
        `query($section: ID!, $cursor: String) { page: assignmentsConnection(sectionId: $section, ${window}) { ${pageSelection} } }`,
      pickPage: (data) => data.page,
      expected: () => stringIds(fixture.assignments),
    },
    {
      name: 'gradingCategoriesConnection',
      viewer: 'teacher',
      variables: sectionVariables,
      offset:
        'query($section: ID!) { list: gradingCategories(sectionId: $section, limit: 200) { total items { id: databaseId } } }',
      pickList: (data) => data.list,
      connection: (window) =>
        `query($section: ID!, $cursor: String) { page: gradingCategoriesConnection(sectionId: $section, ${window}) { ${pageSelection} } }`,
      pickPage: (data) => data.page,
      expected: () => stringIds(fixture.categories),
    },
    {
      name: 'webPackagesConnection',
      viewer: 'teacher',
      variables: sectionVariables,
      offset:
        'query($section: ID!) { list: webPackages(sectionId: $section, limit: 200) { total items { id: databaseId } } }',
      pickList: (data) => data.list,
      connection: (window) =>
        `query($section: ID!, $cursor: String) { page: webPackagesConnection(sectionId: $section, ${window}) { ${pageSelection} } }`,
      pickPage: (data) => data.page,
      expected: () => stringIds(fixture.packages),
    },
    {
      name: 'calendarEventsConnection',
      viewer: 'teacher',
      variables: realmVariables,
      offset:
        'query($realm: RealmInput!) { list: calendarEvents(realm: $realm, startDate: "2026-09-01", endDate: "2026-09-04", limit: 200) { total items { id: databaseId } } }',
      pickList: (data) => data.list,
      connection: (window) =>
        `query($realm: RealmInput!, $cursor: String) { page: calendarEventsConnection(realm: $realm, startDate: "2026-09-01", endDate: "2026-09-04", ${window}) { ${pageSelection} } }`,
      pickPage: (data) => data.page,
      expected: () => stringIds(fixture.schoolEvents),
    },
    {
      name: 'calendarConnection',
      viewer: 'teacher',
      variables: () => ({}),
      offset:
        '{ list: calendar(from: "2026-09-01T00:00:00Z", to: "2026-09-30T00:00:00Z", limit: 200) { total items { id: databaseId } } }',
      pickList: (data) => data.list,
      connection: (window) =>
        `query($cursor: String) { page: calendarConnection(from: "2026-09-01T00:00:00Z", to: "2026-09-30T00:00:00Z", ${window}) { ${pageSelection} } }`,
      pickPage: (data) => data.page,
      expected: () => stringIds(fixture.calendar),
    },
    {
      name: 'invitesConnection',
      viewer: 'teacher',
      variables: teacherVariables,
      offset:
        'query($user: ID!) { list: invites(userId: $user, realm: GROUP, limit: 200) { total items { id: databaseId } } }',
      pickList: (data) => data.list,
      connection: (window) =>
        `query($user: ID!, $cursor: String) { page: invitesConnection(userId: $user, realm: GROUP, ${window}) { ${pageSelection} } }`,
      pickPage: (data) => data.page,
      expected: () => stringIds(fixture.invites),
    },
    {
      name: 'friendRequestsConnection',
      viewer: 'teacher',
      variables: teacherVariables,
      offset:
        'query($user: ID!) { list: friendRequests(userId: $user, limit: 200) { total items { id: databaseId } } }',
      pickList: (data) => data.list,
      connection: (window) =>
        `query($user: ID!, $cursor: String) { page: friendRequestsConnection(userId: $user, ${window}) { ${pageSelection} } }`,
      pickPage: (data) => data.page,
      expected: () => stringIds(fixture.requests),
    },
    {
      name: 'User.friendsConnection',
      viewer: 'teacher',
      variables: teacherVariables,
      offset: 'query($user: ID!) { user(id: $user) { friends(limit: 200) { total items { id: databaseId } } } }',
      pickList: (data) => data.user.friends,
      connection: (window) =>
        `query($user: ID!, $cursor: String) { user(id: $user) { friendsConnection(${window}) { ${pageSelection} } } }`,
      pickPage: (data) => data.user.friendsConnection,
      expected: () => stringIds(fixture.friends),
    },
    {
      name: 'triggerTargetsConnection',
      viewer: 'triggerAdmin',
      variables: () => ({}),
      offset: '{ list: triggerTargets(limit: 200) { total items { id: databaseId } } }',
      pickList: (data) => data.list,
      connection: (window) =>
        `query($cursor: String) { page: triggerTargetsConnection(${window}) { ${pageSelection} } }`,
      pickPage: (data) => data.page,
      expected: () => stringIds(fixture.targets),
    },
    {
      name: 'triggerSubscriptionsConnection',
      viewer: 'triggerAdmin',
      variables: () => ({}),
      offset: '{ list: triggerSubscriptions(limit: 200) { total items { id: databaseId } } }',
      pickList: (data) => data.list,
      connection: (window) =>
        `query($cursor: String) { page: triggerSubscriptionsConnection(${window}) { ${pageSelection} } }`,
      pickPage: (data) => data.page,
      expected: () => stringIds(fixture.subscriptions),
    },
    {
      name: 'TriggerTarget.deliveriesConnection',
      viewer: 'triggerAdmin',
      variables: () => ({}),
      offset:
        '{ triggerTargets(limit: 1) { items { deliveries(status: FAILED, limit: 200) { total items { id } } } } }',
      pickList: (data) => data.triggerTargets.items[0].deliveries,
      connection: (window) =>
        `query($cursor: String) { triggerTargetsConnection(first: 1) { edges { node { deliveriesConnection(status: FAILED, ${window}) { ${selectionOf('id')} } } } } }`,
      pickPage: (data) => data.triggerTargetsConnection.edges[0].node.deliveriesConnection,
      expected: () => stringIds(fixture.failed),
    },
  ];

  /** Every page of a connection, walking forwards with `first`/`after` or backwards with `last`/`before`. */
  const walk = (list: ListCase, direction: 'forwards' | 'backwards', size: number) =>
    walkConnection<Page>(
      async (window, cursor) => {
        const result = await clients[list.viewer](list.connection(window), { ...list.variables(), cursor });
        expect(result.errors).toBeUndefined();
        return list.pickPage(result.data);
      },
      direction,
      size,
    );

  it.each(cases.map((list) => [list.name, list] as const))(
    '%s walks exactly what its offset list shows, forwards and backwards',
    async (_name, list) => {
      const offset = await clients[list.viewer](list.offset, list.variables());
      expect(offset.errors).toBeUndefined();
      const answer = list.pickList(offset.data);
      const items = Array.isArray(answer) ? answer : answer.items;
      const listed = items.map((item) => item.id);
      expect(listed).toEqual(list.expected());
      if (!Array.isArray(answer)) expect(answer.total).toBe(listed.length);

      const forwards = await walk(list, 'forwards', 2);
      expect(forwards.flatMap(ids)).toEqual(listed);
      expect(forwards[0]!.edges).toHaveLength(2);
      expect(forwards.map((page) => page.totalCount)).toEqual(forwards.map(() => listed.length));
      const backwards = await walk(list, 'backwards', 2);
      expect(backwards.reverse().flatMap(ids)).toEqual(listed);
    },
  );

  it('a connection of a section, item or user hidden from the viewer is null, as its offset list is, even when only its count is asked', async () => {
    const farSection = await createSection(world.farSchool.id);
    const farAlbum = await createAlbum({ type: 'SECTION', id: farSection.id });
    const farItem = await createAlbumItem(farAlbum.id, world.outsider.id);
    await db().albumComment.create({ data: { contentId: farItem.id, authorId: world.outsider.id, comment: 'far' } });
    await db().assignment.create({ data: { sectionId: farSection.id, title: 'far' } });
    await db().gradingCategory.create({ data: { sectionId: farSection.id } });
    await createFriendRequest(world.teacher.id, world.outsider.id);
    const query = `query($section: ID!, $album: ID!, $item: ID!, $user: ID!, $realm: RealmInput!) {
      albumComments(albumId: $album, contentId: $item) { total } albumCommentsConnection(albumId: $album, contentId: $item) { totalCount }
      assignments(sectionId: $section) { total } assignmentsConnection(sectionId: $section) { totalCount }
      gradingCategories(sectionId: $section) { total } gradingCategoriesConnection(sectionId: $section) { totalCount }
      webPackages(sectionId: $section) { total } webPackagesConnection(sectionId: $section) { totalCount }
      calendarEvents(realm: $realm) { total } calendarEventsConnection(realm: $realm) { totalCount }
      invites(userId: $user, realm: SECTION) { total } invitesConnection(userId: $user, realm: SECTION) { totalCount }
      friendRequests(userId: $user) { total } friendRequestsConnection(userId: $user) { totalCount }
    }`;
    const variables = {
      section: String(farSection.id),
      album: String(farAlbum.id),
      item: String(farItem.id),
      user: String(world.outsider.id),
      realm: { type: 'SCHOOL', id: String(world.farSchool.id) },
    };
    const hidden = await clients.teacher(query, variables);
    expect(hidden.errors).toBeUndefined();
    expect(Object.values(hidden.data)).toEqual(Object.keys(hidden.data).map(() => null));
    expect(Object.keys(hidden.data)).toHaveLength(14);
  });

  it('a trigger connection is refused to a viewer without trigger administration, as its offset list is, even for its count alone', async () => {
    const refused = await clients.teacher('{ triggerTargetsConnection { totalCount } }');
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const subscriptions = await clients.teacher('{ triggerSubscriptionsConnection { totalCount } }');
    expect(subscriptions.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('a cursor of a list ordered by other than the id pages on from its place once its row is deleted', async () => {
    const section = await createSection(world.school.id, [{ userId: world.teacher.id, admin: true }]);
    // In list order: the delta 0 category, then the two delta 1 categories by id.
    for (const delta of [1, 0, 1]) await db().gradingCategory.create({ data: { sectionId: section.id, delta } });
    const page = (window: string, cursor: string | null) =>
      clients.teacher(
        `query($section: ID!, $cursor: String) { page: gradingCategoriesConnection(sectionId: $section, ${window}) { ${pageSelection} } }`,
        {
          section: String(section.id),
          cursor,
        },
      );
    const first = (await page('first: 2, after: $cursor', null)).data.page as Page;
    const all = ids((await page('first: 10, after: $cursor', null)).data.page);
    expect(ids(first)).toEqual(all.slice(0, 2));
    // The cursor of the first delta 1 category, deleted: the page after it is the other delta 1 category, and the
    // page before it the delta 0 one.
    await db().gradingCategory.delete({ where: { id: Number(first.edges[1]!.node.id) } });
    const after = await page('first: 2, after: $cursor', first.pageInfo.endCursor);
    expect(after.errors).toBeUndefined();
    expect(ids(after.data.page)).toEqual([all[2]]);
    const before = await page('last: 2, before: $cursor', first.pageInfo.endCursor);
    expect(ids(before.data.page)).toEqual([all[0]]);
  });

  it('a calendar connection checks its span, as the offset list does', async () => {
    const result = await clients.teacher(
      '{ calendarConnection(from: "2026-09-02T00:00:00Z", to: "2026-09-01T00:00:00Z") { totalCount } }',
    );
    expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

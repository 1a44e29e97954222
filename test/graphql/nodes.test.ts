import { type GraphQLObjectType, type GraphQLResolveInfo, isObjectType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import { schema } from '../../src/graphql/schema';
import { type GraphQLClient, type RestClient, graphqlClientFor, restClientFor } from '../support/client';
import {
  type World,
  createAlbum,
  createAlbumItem,
  createBlogPosts,
  createCalendarEvent,
  createFriendRequest,
  createGradingGroup,
  createGroup,
  createGroupCategory,
  createInvite,
  createPage,
  createSection,
  createStoredUpload,
  createUser,
  createWebPackage,
  createWorld,
  unique,
} from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();

/** Every type the schema says is a Node: the round trip below must cover each one. */
const nodeTypes = Object.values(schema.getTypeMap())
  .filter((type) => isObjectType(type) && type.getInterfaces().some((face) => face.name === 'Node'))
  .map((type) => type.name)
  .sort();

/** `nodes(ids)` selecting `__typename`, `id` and, on every Node type, `databaseId`. */
const nodesDocument = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ${nodeTypes.map((type) => `... on ${type} { databaseId }`).join(' ')} } }`;
const nodeDocument = `query($id: ID!) { node(id: $id) { __typename id ... on Group { databaseId title } ... on User { databaseId } } }`;

let w: World;
let viewer: { id: number };
let graphql: GraphQLClient;
let rest: RestClient;
/** One object of every Node type that `viewer` may see, by type: its database id. */
const visible: Record<string, number> = {};

beforeAll(async () => {
  w = await createWorld();
  const teacher = await createUser(w.school.id, 'TEACHER', { triggerAdmin: true });
  viewer = teacher;
  const section = await createSection(w.school.id, [{ userId: teacher.id, admin: true }, { userId: w.student.id }]);
  const enrollment = await db().enrollment.findFirstOrThrow({ where: { sectionId: section.id, userId: w.student.id } });
  const group = await createGroup(w.school.id, { admins: [teacher.id], members: [w.student.id] });
  const membership = await db().groupMembership.findFirstOrThrow({
    where: { groupId: group.id, userId: w.student.id },
  });
  const invitingGroup = await createGroup(w.school.id);
  const album = await createAlbum({ type: 'GROUP', id: group.id });
  const content = await createAlbumItem(album.id, teacher.id);
  const app = await db().app.create({
    data: { districtId: w.district.id, name: unique('App'), consumerKey: unique('app'), encryptedSecret: 'sealed' },
  });
  // The teacher approved the app: they see it, and their approval.
  const authorization = await db().appAuthorization.create({ data: { appId: app.id, userId: teacher.id } });
  const target = await db().triggerTarget.create({
    data: { schoolId: w.school.id, url: 'https://hooks.example.test/in', secret: 'secret' },
  });
  Object.assign(visible, {
    District: w.district.id,
    School: w.school.id,
    User: w.student.id,
    Course: section.courseId,
    Section: section.id,
    Enrollment: enrollment.id,
    Group: group.id,
    GroupMembership: membership.id,
    GroupCategory: (await createGroupCategory(w.district.id)).id,
    BlogPost: (await createBlogPosts({ type: 'GROUP', id: group.id }, 1))[0]!.id,
    Page: (await createPage({ type: 'SECTION', id: section.id })).id,
    CalendarEvent: (
      await createCalendarEvent({ type: 'GROUP', id: group.id }, { start: new Date('2026-03-02T10:00:00Z') })
    ).id,
    Album: album.id,
    AlbumContent: content.id,
    AlbumComment: (
      await db().albumComment.create({ data: { contentId: content.id, authorId: teacher.id, comment: 'Nice' } })
    ).id,
    Assignment: (await db().assignment.create({ data: { sectionId: section.id, title: unique('Quiz') } })).id,
    GradingCategory: (await db().gradingCategory.create({ data: { sectionId: section.id } })).id,
    GradingPeriod: (
      await db().gradingPeriod.create({
        data: {
          schoolId: w.school.id,
          title: unique('Term'),
          startsOn: new Date('2026-01-05'),
          endsOn: new Date('2026-03-27'),
        },
      })
    ).id,
    GradingScale: (
      await db().gradingScale.create({ data: { schoolId: w.school.id, title: unique('Scale'), levels: [] } })
    ).id,
    GradingGroup: (await createGradingGroup(section.id, [enrollment.id])).id,
    WebPackage: (await createWebPackage(section.id, teacher.id)).id,
    TriggerTarget: target.id,
    TriggerSubscription: (await db().triggerSubscription.create({ data: { targetId: target.id, trigger: 'group' } }))
      .id,
    Invite: (await createInvite(teacher.id, { groupId: invitingGroup.id })).id,
    FriendRequest: (await createFriendRequest(w.student.id, teacher.id)).id,
    Upload: (await createStoredUpload(teacher.id)).id,
    ApiClient: (
      await db().apiClient.create({
        data: { userId: teacher.id, consumerKey: unique('key'), encryptedSecret: 'sealed' },
      })
    ).id,
    AccessToken: (await db().accessToken.create({ data: { userId: teacher.id, tokenHash: unique('hash') } })).id,
    App: app.id,
    AppAuthorization: authorization.id,
    CalendarFeed: (await db().calendarFeed.create({ data: { userId: teacher.id, tokenHash: unique('feed') } })).id,
    AttendanceRecord: (
      await db().attendanceRecord.create({
        data: { enrollmentId: enrollment.id, sectionId: section.id, date: new Date('2026-01-06'), status: 'ABSENT' },
      })
    ).id,
  });
  graphql = await graphqlClientFor(server, teacher);
  rest = await restClientFor(server, teacher);
});

const globalIdsOf = (objects: Record<string, number>) =>
  Object.entries(objects).map(([type, id]) => encodeGlobalId(type, id));

describe('global ids', () => {
  it('covers every Node type of the schema with a fixture', () => {
    expect(Object.keys(visible).sort()).toEqual(nodeTypes);
  });

  it('are unique across types although database ids repeat, and decode to Type:databaseId', async () => {
    const same = 7;
    const ids = nodeTypes.map((type) => encodeGlobalId(type, same));
    expect(new Set(ids).size).toBe(nodeTypes.length);
    const answer = await graphql(`query($id: ID!) { group(id: $id) { id databaseId } }`, { id: String(visible.Group) });
    expect(answer.data.group).toEqual({
      id: encodeGlobalId('Group', visible.Group!),
      databaseId: String(visible.Group),
    });
    expect(Buffer.from(answer.data.group.id, 'base64').toString()).toBe(`Group:${visible.Group}`);
  });

  it('round-trip through nodes for every Node type the viewer sees, in the order asked', async () => {
    const ids = globalIdsOf(visible);
    const answer = await graphql(nodesDocument, { ids });
    expect(answer.errors).toBeUndefined();
    expect(answer.data.nodes).toEqual(
      Object.entries(visible).map(([type, id], index) => ({
        __typename: type,
        id: ids[index],
        databaseId: String(id),
      })),
    );
  });

  it("are encoded without a promise, so that a page of objects completes without the executor's promise path", () => {
    // Pothos' relay plugin wraps every id in an async function; src/graphql/node-ids.ts answers it from the row.
    for (const type of nodeTypes) {
      const id = (schema.getType(type) as GraphQLObjectType).getFields().id!;
      const info = {
        parentType: schema.getType(type),
        fieldName: 'id',
        path: { key: 'id', typename: type },
      } as unknown as GraphQLResolveInfo;
      expect([type, id.resolve!({ id: 7 }, {}, { viewer: null }, info)]).toEqual([type, encodeGlobalId(type, '7')]);
    }
  });

  it('round-trip through node', async () => {
    const answer = await graphql(nodeDocument, { id: encodeGlobalId('Group', visible.Group!) });
    expect(answer.data.node).toMatchObject({
      __typename: 'Group',
      id: encodeGlobalId('Group', visible.Group!),
      databaseId: String(visible.Group),
    });
  });

  it("answer null for what the viewer may not see, as the type's own query does, and never leak it", async () => {
    const secret = await createGroup(w.school.id, { privacyLevel: 'GROUP', admins: [w.teacher.id] });
    const ids = [
      encodeGlobalId('Group', secret.id),
      encodeGlobalId('User', w.outsider.id),
      encodeGlobalId('School', w.farSchool.id),
    ];
    const student = await graphqlClientFor(server, w.student);
    const own = await student(`query($id: ID!) { group(id: $id) { title } }`, { id: String(secret.id) });
    expect(own.data.group).toBeNull();
    const answer = await student(nodesDocument, { ids });
    expect(answer.errors).toBeUndefined();
    expect(answer.data.nodes).toEqual([null, null, null]);
    expect((await student(nodeDocument, { id: ids[0] })).data.node).toBeNull();
    // The viewer's own things are theirs alone: another teacher of the school sees none of them.
    const colleague = await graphqlClientFor(server, w.teacher);
    const theirs = await colleague(nodesDocument, {
      ids: globalIdsOf({
        ApiClient: visible.ApiClient!,
        AccessToken: visible.AccessToken!,
        CalendarFeed: visible.CalendarFeed!,
        Upload: visible.Upload!,
      }),
    });
    expect(theirs.data.nodes).toEqual([null, null, null, null]);
  });

  it('answer null for deleted objects, ids that are not global ids, and types that are not Nodes', async () => {
    const gone = await createGroup(w.school.id, { admins: [viewer.id] });
    await db().group.delete({ where: { id: gone.id } });
    const ids = [
      encodeGlobalId('Group', gone.id),
      String(visible.Group),
      'not-an-id',
      encodeGlobalId('DomainEvent', 1),
      encodeGlobalId('Group', 99_999_999_999),
    ];
    const answer = await graphql(nodesDocument, { ids });
    expect(answer.errors).toBeUndefined();
    expect(answer.data.nodes).toEqual([null, null, null, null, null]);
  });

  it('take at most 100 ids', async () => {
    const ids = Array.from({ length: 101 }, () => encodeGlobalId('Group', visible.Group!));
    const answer = await graphql(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids });
    expect(answer.status).toBe(400);
    expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('arguments that name an object', () => {
  it('accept the global id and the database id alike', async () => {
    const byGlobal = await graphql(`query($id: ID!) { group(id: $id) { databaseId } }`, {
      id: encodeGlobalId('Group', visible.Group!),
    });
    const byDatabase = await graphql(`query($id: ID!) { group(id: $id) { databaseId } }`, {
      id: String(visible.Group),
    });
    expect(byGlobal.data.group).toEqual({ databaseId: String(visible.Group) });
    expect(byDatabase.data.group).toEqual(byGlobal.data.group);
    const realm = await graphql(`query($id: ID!) { blogPosts(realm: { type: GROUP, id: $id }) { total } }`, {
      id: encodeGlobalId('Group', visible.Group!),
    });
    expect(realm.data.blogPosts).toEqual({ total: 1 });
  });

  it('accept a global id in a mutation argument and in an input field', async () => {
    const title = unique('Renamed');
    const updated = await graphql(
      `mutation($id: ID!, $title: String!) { updateGroup(input: { id: $id, title: $title }) { group { databaseId title } } }`,
      {
        id: encodeGlobalId('Group', visible.Group!),
        title,
      },
    );
    expect(updated.data.updateGroup.group).toEqual({ databaseId: String(visible.Group), title });
    const created = await graphql(
      `mutation($school: ID!) { createGroup(input: { title: "Chess", schoolId: $school }) { group { school { databaseId } } } }`,
      {
        school: encodeGlobalId('School', w.school.id),
      },
    );
    expect(created.data.createGroup.group).toEqual({ school: { databaseId: String(w.school.id) } });
  });

  it('refuse a global id of another type with BAD_USER_INPUT', async () => {
    const answer = await graphql(`query($id: ID!) { group(id: $id) { title } }`, {
      id: encodeGlobalId('School', w.school.id),
    });
    // `group` is nullable: the answer has data ({ group: null }), so it is 200 (partial data).
    expect(answer.status).toBe(200);
    expect(answer.data).toEqual({ group: null });
    expect(answer.errors?.[0]).toMatchObject({
      message: 'id is the id of a School, not of a Group',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const input = await graphql(
      `mutation($school: ID!) { createGroup(input: { title: "Chess", schoolId: $school }) { group { id } userErrors { field code message } } }`,
      {
        school: encodeGlobalId('Group', visible.Group!),
      },
    );
    expect(input.data.createGroup).toEqual({
      group: null,
      userErrors: [{ field: ['input', 'schoolId'], code: 'INVALID', message: 'is the id of a Group, not of a School' }],
    });
  });
});

describe('nodes', () => {
  /** Statements of one `nodes` request for `count` groups, users and posts each (authentication included). */
  async function statementsFor(count: number) {
    const groups = [];
    for (let i = 0; i < count; i++) groups.push(await createGroup(w.school.id, { admins: [viewer.id] }));
    const users = [];
    for (let i = 0; i < count; i++) users.push(await createUser(w.school.id, 'STUDENT'));
    const posts = await createBlogPosts({ type: 'GROUP', id: groups[0]!.id }, count);
    const ids = [
      ...groups.map((group) => encodeGlobalId('Group', group.id)),
      ...users.map((user) => encodeGlobalId('User', user.id)),
      ...posts.map((post) => encodeGlobalId('BlogPost', post.id)),
    ];
    const client = await graphqlClientFor(server, viewer);
    const before = server.database.statementCount;
    const answer = await client(
      `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Group { title school { title } } ... on User { nameLast } ... on BlogPost { title } } }`,
      { ids },
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data.nodes.filter(Boolean)).toHaveLength(3 * count);
    return server.database.statementCount - before;
  }

  it('load a page of mixed types in a number of statements that does not grow with the page', async () => {
    const few = await statementsFor(2);
    const many = await statementsFor(8);
    expect(many).toBe(few);
    // Per type its visibility checks (loads batched) and one fetch; authentication besides: 8 on PGlite and PostgreSQL.
    expect(many).toBeLessThanOrEqual(10);
  });
});

describe('/v1', () => {
  it('answers database ids, never global ids', async () => {
    const answers = await Promise.all([
      rest.request('GET', `/groups/${visible.Group}`),
      rest.request('GET', `/users/${w.student.id}`),
      rest.request('GET', `/schools/${w.school.id}`),
      rest.request('GET', `/groups/${visible.Group}/posts/${visible.BlogPost}`),
    ]);
    const globalIds = globalIdsOf(visible);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      for (const id of globalIds) expect(answer.text).not.toContain(id);
    }
    expect(answers.map((answer) => String(answer.json.id))).toEqual(
      [visible.Group, w.student.id, w.school.id, visible.BlogPost].map(String),
    );
  });
});

import { encodeGlobalId } from '../../src/core/global-id';
import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { subscriptionActivity } from '../../src/modules/subscriptions/event.quota';
import { type GraphQLClient, graphqlClientFor } from '../support/client';
import { type World, createGroup, createWorld } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';
import { settledEndOfStream, streamSettled } from '../support/stream';

// Events reach the subscribers of every realm that contains their object, carry that object as the subscriber may
// see it, and `viewerEvents` delivers what the viewer may read: over real graphql-ws.

const server = useTestServer();
let world: World;
let url: string;
let closeHttp: () => Promise<void>;
let teacher: GraphQLClient;
let schoolAdmin: GraphQLClient;
let districtAdmin: GraphQLClient;
let outsider: GraphQLClient;
/** A group the student belongs to. */
let studentGroupId: number;

type Subscriber = { token: string; id: number };
const subscribers: Record<string, Subscriber> = {};
const clients: Client[] = [];

beforeAll(async () => {
  world = await createWorld();
  teacher = await graphqlClientFor(server, world.teacher);
  schoolAdmin = await graphqlClientFor(server, world.schoolAdmin);
  districtAdmin = await graphqlClientFor(server, world.districtAdmin);
  outsider = await graphqlClientFor(server, world.outsider);
  studentGroupId = (
    await createGroup(world.school.id, {
      privacyLevel: 'GROUP',
      admins: [world.teacher.id],
      members: [world.student.id],
    })
  ).id;
  for (const person of ['districtAdmin', 'schoolAdmin', 'student', 'otherSchoolStudent'] as const) {
    subscribers[person] = await issueAccessToken({ userId: world[person].id });
  }
  const listening = await listenOnLoopback(server);
  url = `ws://127.0.0.1:${listening.port}/graphql`;
  closeHttp = listening.close;
  await streamSettled();
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await closeHttp();
});

/** Settles like `promise`, or fails naming `what` after `ms`: every wait here is bounded. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const eventFields = /* GraphQL */ `
  id cursor type realmType realmId objectId createdAt
  object {
    __typename
    ... on Group { id title privacyLevel }
    ... on School { id title }
    ... on BlogPost { id title }
  }
`;

/**
 * Subscribes as `person` and resolves once the subscription listens (its access checked); `next()` is the next event
 * (bounded), `close()` ends it.
 */
async function subscribe(person: string, query: string, variables: Record<string, unknown> = {}) {
  const { token, id } = subscribers[person]!;
  const client = createClient({
    url,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: `Bearer ${token}` },
  });
  clients.push(client);
  const listens = within(
    new Promise<void>((resolve) => {
      const onListening = (key: string) => {
        if (key !== `bearer:${id}`) return;
        subscriptionActivity.off('listening', onListening);
        resolve();
      };
      subscriptionActivity.on('listening', onListening);
    }),
    5000,
    `${person} listening`,
  );
  const iterator = client.iterate<any>({ query, variables });
  let pending = iterator.next();
  await listens;
  return {
    async next() {
      const { value, done } = await within(pending, 5000, `${person}'s next event`);
      pending = iterator.next();
      expect(done).toBe(false);
      expect(value.errors).toBeUndefined();
      return Object.values(value.data)[0] as any;
    },
    close: () => iterator.return?.(),
  };
}

const realmEvents = (type: string, after = false) => /* GraphQL */ `
  subscription ($id: ID!${after ? ', $after: String' : ''}) {
    realmEvents(realm: { type: ${type}, id: $id }${after ? ', after: $after' : ''}) { ${eventFields} }
  }
`;
const viewerEvents = /* GraphQL */ `subscription ($after: String) { viewerEvents(after: $after) { ${eventFields} } }`;

async function createGroupAs(
  client: GraphQLClient,
  title: string,
  privacyLevel: string,
  schoolId = world.school.id,
): Promise<string> {
  const response = await client(
    `mutation ($input: CreateGroupInput!) { createGroup(input: $input) { userErrors { code } group { id: databaseId } } }`,
    { input: { title, privacyLevel, schoolId: String(schoolId) } },
  );
  expect(response.data?.createGroup.userErrors).toEqual([]);
  return response.data!.createGroup.group.id;
}

async function postInGroup(groupId: number, title: string): Promise<string> {
  const response = await teacher(
    `mutation ($input: CreateBlogPostInput!) { createBlogPost(input: $input) { userErrors { code } blogPost { id: databaseId } } }`,
    { input: { realm: { type: 'GROUP', id: String(groupId) }, title, body: 'Body' } },
  );
  expect(response.data?.createBlogPost.userErrors).toEqual([]);
  return response.data!.createBlogPost.blogPost.id;
}

describe('containment: an event reaches every realm that contains its object', () => {
  it("a group created in a school reaches the school's and the district's subscribers, with the group", async () => {
    const district = await subscribe('districtAdmin', realmEvents('DISTRICT'), { id: String(world.district.id) });
    const school = await subscribe('schoolAdmin', realmEvents('SCHOOL'), { id: String(world.school.id) });
    const otherSchool = await subscribe('otherSchoolStudent', realmEvents('SCHOOL'), {
      id: String(world.otherSchool.id),
    });

    const groupId = await createGroupAs(teacher, 'Chess club', 'SCHOOL');
    const expected = {
      type: 'GROUP_CREATE',
      realmType: 'GROUP',
      realmId: groupId,
      objectId: groupId,
      object: {
        __typename: 'Group',
        id: encodeGlobalId('Group', groupId),
        title: 'Chess club',
        privacyLevel: 'SCHOOL',
      },
    };
    expect(await school.next()).toMatchObject(expected);
    const heardByDistrict = await district.next();
    expect(heardByDistrict).toMatchObject(expected);
    // DateTime, as every other timestamp.
    expect(new Date(heardByDistrict.createdAt).toISOString()).toBe(heardByDistrict.createdAt);

    // The other school's subscriber hears only its own school's: the next thing it hears is a group created there.
    const otherGroupId = await createGroupAs(districtAdmin, 'Other school club', 'EVERYONE', world.otherSchool.id);
    expect(await otherSchool.next()).toMatchObject({ type: 'GROUP_CREATE', objectId: otherGroupId });
    await Promise.all([district.close(), school.close(), otherSchool.close()]);
  });

  it("a building reaches its school's subscribers, as a School", async () => {
    const school = await subscribe('student', realmEvents('SCHOOL'), { id: String(world.school.id) });
    const response = await schoolAdmin(
      `mutation ($input: CreateBuildingInput!) { createBuilding(input: $input) { building { id: databaseId } } }`,
      { input: { schoolId: String(world.school.id), title: 'North building' } },
    );
    const buildingId = response.data!.createBuilding.building.id;
    expect(buildingId).toEqual(expect.any(String));
    expect(await school.next()).toMatchObject({
      type: 'BUILDING_CREATE',
      realmType: 'SCHOOL',
      realmId: buildingId,
      object: { __typename: 'School', id: encodeGlobalId('School', buildingId), title: 'North building' },
    });
    await school.close();
  });

  it('a subscriber of the school does not hear of a group they may not read', async () => {
    const school = await subscribe('student', realmEvents('SCHOOL'), { id: String(world.school.id) });
    await createGroupAs(teacher, 'Staff room', 'GROUP');
    const visible = await createGroupAs(teacher, 'Open club', 'SCHOOL');
    // The private group's event was left out: the first the student hears is the open one's.
    expect(await school.next()).toMatchObject({
      type: 'GROUP_CREATE',
      objectId: visible,
      object: { title: 'Open club' },
    });
    // A post in the group the student belongs to reaches them through the school, with the post.
    const postId = await postInGroup(studentGroupId, 'Hello members');
    expect(await school.next()).toMatchObject({
      type: 'BLOG_POST_CREATE',
      realmType: 'GROUP',
      realmId: String(studentGroupId),
      object: { __typename: 'BlogPost', id: encodeGlobalId('BlogPost', postId), title: 'Hello members' },
    });
    await school.close();
  });
});

describe('viewerEvents', () => {
  it('delivers every change the viewer may read in their district, and nothing else', async () => {
    const dashboard = await subscribe('student', viewerEvents);
    // Another district's, and a group the student may not read: neither is delivered.
    await createGroupAs(outsider, 'Far away', 'EVERYONE', world.farSchool.id);
    await createGroupAs(teacher, 'Teachers only', 'GROUP');
    const postId = await postInGroup(studentGroupId, 'For the dashboard');
    expect(await dashboard.next()).toMatchObject({
      type: 'BLOG_POST_CREATE',
      realmId: String(studentGroupId),
      object: { __typename: 'BlogPost', id: encodeGlobalId('BlogPost', postId) },
    });
    const everyone = await createGroupAs(teacher, 'Everyone welcome', 'EVERYONE');
    expect(await dashboard.next()).toMatchObject({
      type: 'GROUP_CREATE',
      objectId: everyone,
      object: { title: 'Everyone welcome' },
    });
    await dashboard.close();
  });

  it('resumes after a cursor: the missed events the viewer may read, then live ones', async () => {
    await postInGroup(studentGroupId, 'Before the gap');
    const start = await settledEndOfStream();
    await createGroupAs(teacher, 'Hidden while away', 'GROUP');
    const missed = await postInGroup(studentGroupId, 'While away');
    const dashboard = await subscribe('student', viewerEvents, { after: start });
    const caughtUp = await dashboard.next();
    expect(caughtUp).toMatchObject({
      type: 'BLOG_POST_CREATE',
      object: { id: encodeGlobalId('BlogPost', missed), title: 'While away' },
    });
    const live = await postInGroup(studentGroupId, 'Back again');
    expect(await dashboard.next()).toMatchObject({
      type: 'BLOG_POST_CREATE',
      object: { id: encodeGlobalId('BlogPost', live) },
    });
    await dashboard.close();
  });
});

describe('resuming a school subscription', () => {
  it('catches up on the events of the realms inside it; a deleted object is null', async () => {
    await postInGroup(studentGroupId, 'Mark');
    const start = await settledEndOfStream();
    const groupId = await createGroupAs(teacher, 'Short-lived', 'SCHOOL');
    const deleted = await teacher(
      `mutation ($input: DeleteGroupInput!) { deleteGroup(input: $input) { userErrors { code } } }`,
      {
        input: { id: groupId },
      },
    );
    expect(deleted.data?.deleteGroup.userErrors).toEqual([]);
    const school = await subscribe('schoolAdmin', realmEvents('SCHOOL', true), {
      id: String(world.school.id),
      after: start,
    });
    const created = await school.next();
    expect(created).toMatchObject({ type: 'GROUP_CREATE', objectId: groupId, object: null });
    expect(await school.next()).toMatchObject({ type: 'GROUP_DELETE', objectId: groupId, object: null });
    await school.close();
  });
});

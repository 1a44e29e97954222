import { createClient } from 'graphql-ws';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { commitsChannel, useRedisEventBus } from '../../src/outbox/bus';
import { subscriptionActivity } from '../../src/modules/subscriptions/event.quota';
import { type RestClient, graphqlClientFor, restClientFor } from '../support/client';
import { type World, createGroup, createWorld } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';
import { streamSettled } from '../support/stream';
import { encodeGlobalId } from '../../src/core/global-id';

const server = useTestServer();
let world: World;
let groupId: number;
let groupAdmin: RestClient;
let token: string;
let tokenId: number;

const subscription = /* GraphQL */ `
  subscription ($id: ID!) { realmEvents(realm: { type: GROUP, id: $id }) { id type realmType realmId objectId actorId } }
`;

beforeAll(async () => {
  world = await createWorld();
  const group = await createGroup(world.school.id, { admins: [world.teacher.id], members: [world.student.id] });
  groupId = group.id;
  groupAdmin = await restClientFor(server, world.teacher);
  ({ token, id: tokenId } = await issueAccessToken({ userId: world.student.id }));
  await streamSettled();
});

/** Resolves when the next subscription of the student's token (or another) listens (bounded); call it before subscribing. */
function listening(ofToken = tokenId): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the subscription did not start listening within a second')), 1000);
    const onListening = (key: string) => {
      if (key !== `bearer:${ofToken}`) return;
      subscriptionActivity.off('listening', onListening);
      clearTimeout(timer);
      resolve();
    };
    subscriptionActivity.on('listening', onListening);
  });
}

/** Reads server-sent events from a response until `count` data events arrived. */
async function readEvents(response: Response, count: number): Promise<any[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: any[] = [];
  let buffer = '';
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let boundary;
    while ((boundary = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      const data = block.split('\n').find((line) => line.startsWith('data:'));
      if (data && block.startsWith('event: next')) events.push(JSON.parse(data.slice(5)));
    }
  }
  await reader.cancel();
  return events;
}

function subscribeOverSse(id: number, authorization = `Bearer ${token}`) {
  return server.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization },
    body: JSON.stringify({ query: subscription, variables: { id: String(id) } }),
  });
}

describe('realmEvents over server-sent events', () => {
  it('delivers the events of a group to a member, as they are committed', async () => {
    const listens = listening();
    const response = await subscribeOverSse(groupId);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const received = readEvents(response, 2);
    await listens;
    const post = await groupAdmin.post(`/groups/${groupId}/posts`, { title: 'Live' });
    expect(post.status).toBe(201);
    expect((await groupAdmin.put(`/groups/${groupId}`, { description: 'now live' })).status).toBe(204);
    const events = (await received).map((event) => event.data.realmEvents);
    expect(events.map((event) => event.type)).toEqual(['BLOG_POST_CREATE', 'GROUP_UPDATE']);
    expect(events[0]).toMatchObject({
      realmType: 'GROUP',
      realmId: String(groupId),
      objectId: post.json.id,
      actorId: String(world.teacher.id),
    });
    expect(Number(events[1].id)).toBeGreaterThan(Number(events[0].id));
  });

  it("tells invites only to the realm's administrators: a member does not hear who is invited", async () => {
    const admin = await issueAccessToken({ userId: world.teacher.id });
    const adminListens = listening(admin.id);
    const adminEvents = readEvents(await subscribeOverSse(groupId, `Bearer ${admin.token}`), 2);
    await adminListens;
    const memberListens = listening();
    const memberEvents = readEvents(await subscribeOverSse(groupId), 1);
    await memberListens;
    const teacher = await graphqlClientFor(server, world.teacher);
    const invited = await teacher(
      `mutation($group: ID!, $user: ID!) {
        createInvite(input: { realm: { type: GROUP, id: $group }, userId: $user }) { invite { databaseId } } }`,
      { group: String(groupId), user: String(world.parent.id) },
    );
    expect(invited.data.createInvite.invite.databaseId).toEqual(expect.any(String));
    expect((await groupAdmin.post(`/groups/${groupId}/posts`, { title: 'After the invite' })).status).toBe(201);
    expect((await adminEvents).map((event) => event.data.realmEvents.type)).toEqual([
      'INVITE_CREATE',
      'BLOG_POST_CREATE',
    ]);
    expect((await memberEvents).map((event) => event.data.realmEvents.type)).toEqual(['BLOG_POST_CREATE']);
  });

  it('refuses a realm the viewer may not read, and a missing credential', async () => {
    const hidden = await createGroup(world.otherSchool.id, { privacyLevel: 'GROUP' });
    const [refused] = await readEvents(await subscribeOverSse(hidden.id), 1);
    expect(refused.errors[0]).toMatchObject({ message: 'No such realm', extensions: { code: 'NOT_FOUND' } });
    const anonymous = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: subscription, variables: { id: String(groupId) } }),
    });
    const text = await anonymous.text();
    expect(text).toContain('UNAUTHENTICATED');
  });
});

describe('realmEvents over graphql-ws', () => {
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const listening = await listenOnLoopback(server);
    url = `ws://127.0.0.1:${listening.port}/graphql`;
    close = listening.close;
  });
  afterAll(() => close());

  it('authenticates with connection params and streams committed events', async () => {
    const client = createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${token}` },
    });
    const listens = listening();
    const iterator = client.iterate({ query: subscription, variables: { id: String(groupId) } });
    const next = iterator.next();
    await listens;
    await groupAdmin.put(`/groups/${groupId}`, { title: 'Renamed live' });
    const { value } = await next;
    expect(value?.data?.realmEvents).toMatchObject({
      type: 'GROUP_UPDATE',
      realmId: String(groupId),
      actorId: String(world.teacher.id),
    });
    await iterator.return?.();
    await client.dispose();
  });

  it('answers queries too, and rejects an invalid token', async () => {
    const client = createClient({ url, webSocketImpl: WebSocket, connectionParams: { Authorization: 'Bearer nope' } });
    // graphql-ws rejects with the operation's GraphQL errors.
    await expect(client.iterate({ query: '{ viewer { id: databaseId } }' }).next()).rejects.toEqual([
      expect.objectContaining({ message: 'Invalid or expired bearer token' }),
    ]);
    await client.dispose();

    const valid = createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${token}` },
    });
    const viewer = await valid.iterate({ query: '{ viewer { id: databaseId } }' }).next();
    expect(viewer.value?.data).toEqual({ viewer: { id: String(world.student.id) } });
    await valid.dispose();
  });
});

describe('events carried by Redis', () => {
  const publisher = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
  const subscriber = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });

  beforeAll(async () => {
    await Promise.all([publisher.connect(), subscriber.connect()]);
    useRedisEventBus(publisher, subscriber);
  });
  afterAll(async () => {
    await Promise.all([publisher.quit(), subscriber.quit()]);
  });

  it('announce each commit on Redis, so that the followers of every instance read the log at once', async () => {
    const spy = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
    const announced = new Promise<string>((resolve) => spy.on('message', (channel) => resolve(channel)));
    await spy.subscribe(commitsChannel);
    try {
      const listens = listening();
      const received = readEvents(await subscribeOverSse(groupId), 1);
      await listens;
      await groupAdmin.put(`/groups/${groupId}`, { website: 'https://example.org' });
      const [event] = await received;
      expect(event.data.realmEvents).toMatchObject({ type: 'GROUP_UPDATE', realmId: String(groupId) });
      expect(await announced).toBe(commitsChannel);
    } finally {
      spy.disconnect();
    }
  });

  it('carry a revocation to the subscriptions of the credential', async () => {
    const revoked = await issueAccessToken({ userId: world.student.id });
    const listens = listening(revoked.id);
    const response = await subscribeOverSse(groupId, `Bearer ${revoked.token}`);
    const ended = response.text();
    await listens;
    const student = await graphqlClientFor(server, world.student);
    expect(
      (
        await student(`mutation($id: ID!) { deleteAccessToken(input: { id: $id }) { deletedAccessTokenId } }`, {
          id: String(revoked.id),
        })
      ).data,
    ).toEqual({ deleteAccessToken: { deletedAccessTokenId: encodeGlobalId('AccessToken', revoked.id) } });
    expect(await ended).toContain('"code":"ACCESS_REVOKED"');
  });
});

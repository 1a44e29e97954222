import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { issueAccessToken, issueApiClient } from '../../src/modules/access/access.service';
import { subscriptionActivity } from '../../src/modules/subscriptions/event.quota';
import { accessRevokedClose, bytesBeforeConnectionInit, tooMuchBeforeConnectionInit } from '../../src/http/server';
import { RestClient, clientsFor } from '../support/client';
import { type World, createGroup, createWorld } from '../support/factories';
import { listenOnLoopback, testOrigin, useTestServer } from '../support/harness';
import { streamSettled } from '../support/stream';
import { encodeGlobalId } from '../../src/core/global-id';

const bodyLimitBytes = 256 * 1024;
const server = useTestServer({ BODY_LIMIT: '256kb' });
const clients = clientsFor(server);
let world: World;
let wsUrl: string;
let closeHttp: () => Promise<void>;

const subscription = /* GraphQL */ `
  subscription ($id: ID!) { realmEvents(realm: { type: GROUP, id: $id }) { id type realmId } }
`;

beforeAll(async () => {
  world = await createWorld();
  const listening = await listenOnLoopback(server);
  wsUrl = `ws://127.0.0.1:${listening.port}/graphql`;
  closeHttp = listening.close;
});
afterAll(() => closeHttp());

// How long a wait may take before the test fails naming what it waited for. A bound for reporting, not a measure: the
// revocation's speed is the subscription bench's to measure, and a loaded machine may take seconds to schedule a step.
const patienceMs = 15_000;

/** Settles like `promise`, or fails naming `what` once `ms` have passed: every wait in this file is bounded. */
async function within<T>(promise: Promise<T>, what: string, ms = patienceMs): Promise<T> {
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

/** Resolves once `count` subscriptions of the credential listen (joined the bus, access checked). Call before subscribing. */
function listening(credential: string, count = 1): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const onListening = (key: string) => {
      if (key !== credential || ++seen < count) return;
      subscriptionActivity.off('listening', onListening);
      resolve();
    };
    subscriptionActivity.on('listening', onListening);
  });
}

const bearerKey = (tokenId: number) => `bearer:${tokenId}`;

interface SseEvent {
  event: string;
  data: any;
}

/** Reads a server-sent event stream as it arrives (reading is what starts the subscription); `next` waits boundedly. */
function sseStream(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const arrived: SseEvent[] = [];
  let wake = () => {};
  let ended = false;
  void (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (done) break;
      buffer += value;
      let boundary;
      while ((boundary = buffer.indexOf('\n\n')) >= 0) {
        const lines = buffer.slice(0, boundary).split('\n');
        buffer = buffer.slice(boundary + 2);
        const event = lines
          .find((line) => line.startsWith('event:'))
          ?.slice(6)
          .trim();
        const data = lines
          .find((line) => line.startsWith('data:'))
          ?.slice(5)
          .trim();
        if (event) arrived.push({ event, data: data ? JSON.parse(data) : null });
      }
      wake();
    }
    ended = true;
    wake();
  })();
  return {
    async next(ms = patienceMs): Promise<SseEvent> {
      const deadline = Date.now() + ms;
      while (!arrived.length) {
        if (ended) throw new Error('the stream ended');
        await within(
          new Promise<void>((resolve) => (wake = resolve)),
          'the next server-sent event',
          Math.max(deadline - Date.now(), 0),
        );
      }
      return arrived.shift()!;
    },
    cancel: () => reader.cancel(),
  };
}

function subscribeOverSse(groupId: number, authorization: string) {
  return server.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization },
    body: JSON.stringify({ query: subscription, variables: { id: String(groupId) } }),
  });
}

/** The error a subscription ended with: its last result carries it, then the stream completes. */
async function expectEndedWith(stream: ReturnType<typeof sseStream>, code: string) {
  const last = await stream.next();
  expect(last.event).toBe('next');
  expect(last.data.errors[0].extensions.code).toBe(code);
  expect((await stream.next()).event).toBe('complete');
  return last.data.errors[0].message as string;
}

function wsClient(token: string, onClosed: (event: { code: number; reason: string }) => void = () => {}): Client {
  return createClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: `Bearer ${token}` },
    retryAttempts: 0,
    on: { closed: (event) => onClosed(event as { code: number; reason: string }) },
  });
}

const removeMember = `mutation($input: RemoveGroupMemberInput!) { removeGroupMember(input: $input) { userErrors { code } } }`;
const deleteAccessToken = `mutation($id: ID!) { deleteAccessToken(input: { id: $id }) { deletedAccessTokenId } }`;
const deleteApiClient = `mutation($id: ID!) { deleteApiClient(input: { id: $id }) { deletedApiClientId } }`;

describe('realmEvents re-checks access for every event', () => {
  it('a student removed from a private group hears nothing more of it: the stream ends', async () => {
    const group = await createGroup(world.school.id, {
      privacyLevel: 'GROUP',
      admins: [world.teacher.id],
      members: [world.student.id],
    });
    const teacher = await clients.graphql(world.teacher);
    const teacherRest = await clients.rest(world.teacher);
    const { id: tokenId, token } = await issueAccessToken({ userId: world.student.id });
    const listens = listening(bearerKey(tokenId));
    const stream = sseStream(await subscribeOverSse(group.id, `Bearer ${token}`));
    await within(listens, 'the subscription to listen');
    expect((await teacherRest.post(`/groups/${group.id}/posts`, { title: 'Still a member' })).status).toBe(201);
    expect((await stream.next()).data.data.realmEvents.type).toBe('BLOG_POST_CREATE');

    const removed = await teacher(removeMember, {
      input: { groupId: String(group.id), userId: String(world.student.id) },
    });
    expect(removed.data.removeGroupMember.userErrors).toEqual([]);
    // Not even the removal itself: the next thing on the stream is why it ends.
    expect(await expectEndedWith(stream, 'FORBIDDEN')).toBe('Access revoked: you may no longer read this group');
  });

  it('keeps delivering while the viewer may still read the realm', async () => {
    const group = await createGroup(world.school.id, { privacyLevel: 'SCHOOL', admins: [world.teacher.id] });
    const teacherRest = await clients.rest(world.teacher);
    const { id: tokenId, token } = await issueAccessToken({ userId: world.student.id });
    const listens = listening(bearerKey(tokenId));
    const stream = sseStream(await subscribeOverSse(group.id, `Bearer ${token}`));
    await within(listens, 'the subscription to listen');
    for (const title of ['One', 'Two'])
      expect((await teacherRest.post(`/groups/${group.id}/posts`, { title })).status).toBe(201);
    expect((await stream.next()).data.data.realmEvents.type).toBe('BLOG_POST_CREATE');
    expect((await stream.next()).data.data.realmEvents.type).toBe('BLOG_POST_CREATE');
    await stream.cancel();
  });
});

describe('a revoked or expired credential ends its subscriptions', () => {
  let groupId: number;
  beforeAll(async () => {
    groupId = (await createGroup(world.school.id, { privacyLevel: 'SCHOOL', admins: [world.teacher.id] })).id;
    await streamSettled();
  });

  it("over server-sent events: an error event, then the stream completes; the user's other tokens carry on", async () => {
    const student = await clients.graphql(world.student);
    const teacherRest = await clients.rest(world.teacher);
    const revoked = await issueAccessToken({ userId: world.student.id });
    const kept = await issueAccessToken({ userId: world.student.id });
    const listens = Promise.all([listening(bearerKey(revoked.id)), listening(bearerKey(kept.id))]);
    const doomed = sseStream(await subscribeOverSse(groupId, `Bearer ${revoked.token}`));
    const survivor = sseStream(await subscribeOverSse(groupId, `Bearer ${kept.token}`));
    await within(listens, 'both subscriptions to listen');

    expect((await student(deleteAccessToken, { id: String(revoked.id) })).data.deleteAccessToken).toEqual({
      deletedAccessTokenId: encodeGlobalId('AccessToken', revoked.id),
    });
    expect(await expectEndedWith(doomed, 'ACCESS_REVOKED')).toBe(
      'Access revoked: the credential was revoked or has expired',
    );

    expect((await teacherRest.post(`/groups/${groupId}/posts`, { title: 'For the survivor' })).status).toBe(201);
    expect((await survivor.next()).data.data.realmEvents.type).toBe('BLOG_POST_CREATE');
    await survivor.cancel();
  });

  it('over graphql-ws: the last result carries the error and the socket closes with 4403', async () => {
    const student = await clients.graphql(world.student);
    const { id: tokenId, token } = await issueAccessToken({ userId: world.student.id });
    let closed!: (event: { code: number; reason: string }) => void;
    const closes = new Promise<{ code: number; reason: string }>((resolve) => (closed = resolve));
    const client = wsClient(token, (event) => closed(event));
    const listens = listening(bearerKey(tokenId));
    const results = client.iterate({ query: subscription, variables: { id: String(groupId) } });
    const last = results.next();
    await within(listens, 'the subscription to listen');

    expect((await student(deleteAccessToken, { id: String(tokenId) })).data.deleteAccessToken).toEqual({
      deletedAccessTokenId: encodeGlobalId('AccessToken', tokenId),
    });
    const { value } = await within(last, 'the last result');
    expect(value?.errors?.[0]).toMatchObject({ extensions: { code: 'ACCESS_REVOKED' } });
    expect(await within(closes, 'the socket to close')).toMatchObject(accessRevokedClose);
    await client.dispose();
  });

  it('a revoked API client (OAuth) ends its server-sent event stream too', async () => {
    const admin = await clients.graphql(world.schoolAdmin);
    const issued = await issueApiClient(server.serverKey, { userId: world.student.id });
    const signer = new RestClient(server, issued.consumerKey, issued.consumerSecret);
    const listens = listening(`oauth:${issued.consumerKey}`);
    const stream = sseStream(await subscribeOverSse(groupId, signer.authorization('POST', `${testOrigin}/graphql`)));
    await within(listens, 'the subscription to listen');

    expect((await admin(deleteApiClient, { id: String(issued.id) })).data.deleteApiClient).toEqual({
      deletedApiClientId: encodeGlobalId('ApiClient', issued.id),
    });
    await expectEndedWith(stream, 'ACCESS_REVOKED');
  });

  it('a bearer token that expires ends its subscriptions when it passes', async () => {
    const lifetimeMs = 4000;
    const {
      id: tokenId,
      token,
      expiresAt,
    } = await issueAccessToken({ userId: world.student.id, expiresInDays: lifetimeMs / 86_400_000 });
    const listens = listening(bearerKey(tokenId));
    const stream = sseStream(await subscribeOverSse(groupId, `Bearer ${token}`));
    await within(listens, 'the subscription to listen');
    const last = await stream.next(lifetimeMs + patienceMs);
    expect(last.data.errors[0].extensions.code).toBe('ACCESS_REVOKED');
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt!.getTime());
  });
});

describe('SUBSCRIPTIONS_PER_CREDENTIAL (25 by default)', () => {
  it('refuses the 26th concurrent subscription of a credential, counted over both transports, until one ends', async () => {
    const group = await createGroup(world.school.id, { privacyLevel: 'SCHOOL' });
    const { id: tokenId, token } = await issueAccessToken({ userId: world.student.id });
    const key = bearerKey(tokenId);
    const listens = listening(key, 25);
    const streams = await Promise.all(
      Array.from({ length: 24 }, async () => sseStream(await subscribeOverSse(group.id, `Bearer ${token}`))),
    );
    const client = wsClient(token);
    const overWs = client.iterate({ query: subscription, variables: { id: String(group.id) } });
    void overWs.next();
    await within(listens, '25 subscriptions to listen');

    const refused = sseStream(await subscribeOverSse(group.id, `Bearer ${token}`));
    expect(await expectEndedWith(refused, 'TOO_MANY_SUBSCRIPTIONS')).toBe(
      'A credential may hold at most 25 subscriptions at a time',
    );
    const refusedOverWs = await within(
      client.iterate({ query: subscription, variables: { id: String(group.id) } }).next(),
      'a refusal',
    );
    expect(refusedOverWs.value?.errors?.[0]).toMatchObject({ extensions: { code: 'TOO_MANY_SUBSCRIPTIONS' } });
    // Another credential of the same user has slots of its own.
    const other = await issueAccessToken({ userId: world.student.id });
    const otherListens = listening(bearerKey(other.id));
    const otherStream = sseStream(await subscribeOverSse(group.id, `Bearer ${other.token}`));
    await within(otherListens, "another credential's subscription");

    const freed = new Promise<void>((resolve) => subscriptionActivity.once('ended', () => resolve()));
    await streams.pop()!.cancel();
    await within(freed, 'a slot to free');
    const again = listening(key);
    streams.push(sseStream(await subscribeOverSse(group.id, `Bearer ${token}`)));
    await within(again, 'a subscription in the freed slot');

    await Promise.all([...streams, otherStream].map((stream) => stream.cancel()));
    await client.dispose();
  });
});

describe('WebSocket message limits', () => {
  /** A raw graphql-ws socket, to send what a well-behaved client would not. */
  async function rawSocket() {
    const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
    const messages: any[] = [];
    let wake = () => {};
    socket.on('message', (data) => {
      messages.push(JSON.parse(String(data)));
      wake();
    });
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
    await within(new Promise((resolve) => socket.once('open', resolve)), 'the socket to open');
    const message = async (type: string) => {
      while (!messages.some((m) => m.type === type))
        await within(new Promise<void>((resolve) => (wake = resolve)), type);
      return messages.find((m) => m.type === type);
    };
    return { socket, closed, message };
  }
  const padding = (bytes: number) => 'x'.repeat(bytes);

  it(`closes a socket with 4413 once more than ${bytesBeforeConnectionInit / 1024} KB arrive before connection_init`, async () => {
    const { socket, closed } = await rawSocket();
    socket.send(
      JSON.stringify({ type: 'connection_init', payload: { padding: padding(bytesBeforeConnectionInit + 1) } }),
    );
    expect(await within(closed, 'the close')).toEqual(tooMuchBeforeConnectionInit);
  });

  it('accepts a connection_init under that size, and messages up to the body limit after it; a bigger one is closed with 1009', async () => {
    const { token } = await issueAccessToken({ userId: world.student.id });
    const { socket, closed, message } = await rawSocket();
    socket.send(
      JSON.stringify({
        type: 'connection_init',
        payload: { Authorization: `Bearer ${token}`, padding: padding(90 * 1024) },
      }),
    );
    await message('connection_ack');

    const query = (bytes: number) =>
      JSON.stringify({
        id: '1',
        type: 'subscribe',
        payload: { query: '{ viewer { id: databaseId } }', variables: { padding: padding(bytes) } },
      });
    socket.send(query(bodyLimitBytes - 1024));
    expect((await message('next')).payload.data).toEqual({ viewer: { id: String(world.student.id) } });
    socket.send(query(bodyLimitBytes));
    expect((await within(closed, 'the close')).code).toBe(1009);
  });
});

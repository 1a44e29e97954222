import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { db } from '../../src/db/database';
import { announceCommit } from '../../src/outbox/bus';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { subscriptionActivity } from '../../src/modules/subscriptions/event.quota';
import { backlogLimit } from '../../src/modules/subscriptions/event.stream';
import { type GraphQLClient, type RestClient, graphqlClientFor, restClientFor } from '../support/client';
import { type World, createGroup, createWorld } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';
import { streamSettled } from '../support/stream';
import { type ServerProcess, startServerProcess, waitUntilReady } from '../support/process';

const server = useTestServer();
let world: World;
let groupId: number;
let groupAdmin: RestClient;
let teacher: GraphQLClient;
let student: { token: string; id: number };
let wsUrl: string;
let closeHttp: () => Promise<void>;

const subscription = /* GraphQL */ `
  subscription ($id: ID!, $after: String) {
    realmEvents(realm: { type: GROUP, id: $id }, after: $after) { id cursor type objectId }
  }
`;

beforeAll(async () => {
  world = await createWorld();
  groupId = (
    await createGroup(world.school.id, {
      privacyLevel: 'GROUP',
      admins: [world.teacher.id],
      members: [world.student.id],
    })
  ).id;
  groupAdmin = await restClientFor(server, world.teacher);
  teacher = await graphqlClientFor(server, world.teacher);
  student = await issueAccessToken({ userId: world.student.id });
  const listening = await listenOnLoopback(server);
  wsUrl = `ws://127.0.0.1:${listening.port}/graphql`;
  closeHttp = listening.close;
  await streamSettled();
});
afterAll(() => closeHttp());

/** Settles like `promise`, or fails naming `what` once `ms` have passed: every wait in this file is bounded. */
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

/** Resolves when the next subscription of the token starts listening (call before subscribing). */
function listening(tokenId = student.id): Promise<void> {
  return within(
    new Promise<void>((resolve) => {
      const onListening = (key: string) => {
        if (key !== `bearer:${tokenId}`) return;
        subscriptionActivity.off('listening', onListening);
        resolve();
      };
      subscriptionActivity.on('listening', onListening);
    }),
    5000,
    'listening',
  );
}

/** Commits `count` changes to the group (each one event) and returns their object ids, in order. */
async function writeChanges(count: number, label: string): Promise<string[]> {
  const written: string[] = [];
  for (let index = 0; index < count; index++) {
    const post = await groupAdmin.post(`/groups/${groupId}/posts`, { title: `${label} ${index}` });
    expect(post.status).toBe(201);
    written.push(String(post.json.id));
  }
  return written;
}

interface SseEvent {
  event: string;
  id: string | null;
  data: any;
}

/**
 * Reads a server-sent event stream only when asked: the server's stream is pulled as it is read, so a reader that
 * stops reading holds the subscription where it is (as a slow client would).
 */
function sseReader(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    async next(): Promise<SseEvent | null> {
      for (;;) {
        const boundary = buffer.indexOf('\n\n');
        if (boundary >= 0) {
          const lines = buffer.slice(0, boundary).split('\n');
          buffer = buffer.slice(boundary + 2);
          const field = (name: string) =>
            lines
              .find((line) => line.startsWith(`${name}:`))
              ?.slice(name.length + 1)
              .trim() ?? null;
          const event = field('event');
          if (!event) continue; // a keep-alive comment
          const data = field('data');
          return { event, id: field('id'), data: data ? JSON.parse(data) : null };
        }
        const { value, done } = await within(reader.read(), 5000, 'server-sent event');
        if (done) return null;
        buffer += value;
      }
    },
    /** The next `count` events' payloads (each must be a `next` with data). */
    async take(count: number): Promise<{ id: string | null; realmEvents: any }[]> {
      const taken = [];
      while (taken.length < count) {
        const event = await this.next();
        if (!event) throw new Error(`the stream ended after ${taken.length} of ${count} events`);
        expect(event.event).toBe('next');
        expect(event.data.errors).toBeUndefined();
        taken.push({ id: event.id, realmEvents: event.data.data.realmEvents });
      }
      return taken;
    },
    cancel: () => reader.cancel(),
  };
}

function subscribeOverSse(
  headers: Record<string, string> = {},
  variables: Record<string, unknown> = {},
  token = student.token,
) {
  return server.fetch('/graphql', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      authorization: `Bearer ${token}`,
      ...headers,
    },
    body: JSON.stringify({ query: subscription, variables: { id: String(groupId), ...variables } }),
  });
}

/** The cursor of the realm's latest event, as a subscriber that saw it would hold it. */
async function latestCursor(): Promise<string> {
  const [row] = await db().$queryRaw<{ cursor: string }[]>`
    SELECT txid::text || ':' || id::text AS cursor FROM domain_events
    WHERE "realmType" = 'GROUP' AND "realmId" = ${groupId} ORDER BY txid DESC, id DESC LIMIT 1`;
  return row!.cursor;
}

describe('resuming realmEvents over graphql-ws with `after`', () => {
  it('sends the events missed while disconnected once, in order, then live ones', async () => {
    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${student.token}` },
    });
    try {
      let listens = listening();
      const first = client.iterate({ query: subscription, variables: { id: String(groupId) } });
      const firstNext = first.next();
      await listens;
      const [seenObject] = await writeChanges(1, 'Seen');
      const seen = (await within(firstNext, 5000, 'first event')).value!.data!.realmEvents as any;
      expect(seen).toMatchObject({ type: 'BLOG_POST_CREATE', objectId: seenObject });
      await first.return!();

      const missed = await writeChanges(3, 'Missed');
      listens = listening();
      const resumed = client.iterate({ query: subscription, variables: { id: String(groupId), after: seen.cursor } });
      const received: any[] = [];
      for (let index = 0; index < 3; index++)
        received.push((await within(resumed.next(), 5000, 'caught-up event')).value!.data!.realmEvents);
      await listens;
      expect(received.map((event) => event.objectId)).toEqual(missed);
      const live = await writeChanges(1, 'Live');
      received.push((await within(resumed.next(), 5000, 'live event')).value!.data!.realmEvents);
      expect(received.map((event) => event.objectId)).toEqual([...missed, ...live]);
      const cursors = received.map((event) => event.cursor);
      expect(new Set(cursors).size).toBe(cursors.length);
      await resumed.return!();
    } finally {
      await client.dispose();
    }
  });

  it('answers a malformed or unknown cursor with a 400-style error, and starts nothing', async () => {
    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${student.token}` },
    });
    try {
      for (const [after, reason] of [
        ['yesterday', 'after: must be the cursor of an event this subscription delivered, as `<txid>:<id>`'],
        ['1:999999999', "after: names no event of this server's event log"],
      ]) {
        const refused = client.iterate({ query: subscription, variables: { id: String(groupId), after } });
        const answer = await within(refused.next(), 5000, 'refusal');
        expect(answer.value?.errors).toEqual([
          expect.objectContaining({
            message: reason,
            extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', http: { status: 400 } }),
          }),
        ]);
        expect((await within(refused.next(), 5000, 'end')).done).toBe(true);
      }
    } finally {
      await client.dispose();
    }
  });
});

describe('resuming realmEvents over server-sent events with Last-Event-ID', () => {
  it('labels each event with its cursor as the `id:` line, and resumes after the id sent back', async () => {
    let listens = listening();
    const stream = sseReader(await subscribeOverSse());
    const firstRead = stream.take(1);
    await listens;
    await writeChanges(1, 'Before');
    const [seen] = await firstRead;
    expect(seen!.id).toBe(seen!.realmEvents.cursor);
    await stream.cancel();

    const missed = await writeChanges(3, 'While away');
    listens = listening();
    const resumed = sseReader(await subscribeOverSse({ 'last-event-id': seen!.id! }));
    const caughtUp = await resumed.take(3);
    await listens;
    expect(caughtUp.map((event) => event.realmEvents.objectId)).toEqual(missed);
    expect(caughtUp.map((event) => event.id)).toEqual(caughtUp.map((event) => event.realmEvents.cursor));
    const live = await writeChanges(1, 'Live again');
    expect((await resumed.take(1)).map((event) => event.realmEvents.objectId)).toEqual(live);
    await resumed.cancel();
  });

  it('hands over from catch-up to live events without a gap or a duplicate, with events written during the catch-up', async () => {
    const from = await latestCursor();
    const missed = await writeChanges(20, 'Backlog');
    const listens = listening();
    const stream = sseReader(await subscribeOverSse({ 'last-event-id': from }));
    // The first caught-up event arrives; the stream is not read further, so the catch-up waits mid-way, holding a
    // page read before the writes below. Those writes reach the subscription live and also the catch-up's next read.
    const [firstCaughtUp] = await stream.take(1);
    await listens;
    expect(firstCaughtUp!.realmEvents.objectId).toBe(missed[0]);
    const during = await writeChanges(5, 'During catch-up');
    const rest = await stream.take(missed.length + during.length - 1);
    const after = await writeChanges(2, 'After');
    const live = await stream.take(2);
    const objects = [firstCaughtUp!, ...rest, ...live].map((event) => event.realmEvents.objectId);
    expect(objects).toEqual([...missed, ...during, ...after]);
    await stream.cancel();
  });

  it('ends a subscription whose client falls too far behind; resuming from its last event misses nothing', async () => {
    const listens = listening();
    const stream = sseReader(await subscribeOverSse());
    const started = stream.take(1);
    await listens;
    await writeChanges(1, 'Before the flood');
    const [seen] = await started;
    // More events than a subscription holds, committed at once while its client reads nothing.
    const flood = backlogLimit + 100;
    const rows = await db().$queryRaw<{ id: string; ancestors: string[] }[]>`
      INSERT INTO domain_events (type, "realmType", "realmId", "objectId", ancestors)
      SELECT 'group.update', 'GROUP', ${groupId}, n, ARRAY[${`GROUP:${groupId}`}] FROM generate_series(1, ${flood}) AS n
      RETURNING id::text, ancestors`;
    announceCommit(rows);
    const received: SseEvent[] = [];
    let ending: any = null;
    for (let event = await stream.next(); event && event.event !== 'complete'; event = await stream.next()) {
      if (event.data.errors) ending = event.data.errors[0];
      else received.push(event);
    }
    expect(ending).toMatchObject({ extensions: { code: 'TOO_FAR_BEHIND' } });
    expect(received.length).toBeLessThan(flood);
    const resumed = sseReader(await subscribeOverSse({ 'last-event-id': received.at(-1)?.id ?? seen!.id! }));
    const rest = await resumed.take(flood - received.length);
    const objects = [
      ...received.map((event) => event.data.data.realmEvents.objectId),
      ...rest.map((event) => event.realmEvents.objectId),
    ];
    expect(objects).toEqual(Array.from({ length: flood }, (_, index) => String(index + 1)));
    await resumed.cancel();
  });

  it('the `after` argument wins over Last-Event-ID', async () => {
    const older = await latestCursor();
    const [between] = await writeChanges(1, 'Between');
    const newer = await latestCursor();
    const [last] = await writeChanges(1, 'Last');
    const stream = sseReader(await subscribeOverSse({ 'last-event-id': older }, { after: newer }));
    expect((await stream.take(1))[0]!.realmEvents.objectId).toBe(last);
    expect(between).not.toBe(last);
    await stream.cancel();
  });
});

describe('access rules on caught-up events', () => {
  it("keeps events for administrators out of a member's catch-up, as out of live events", async () => {
    const from = await latestCursor();
    const invited = await teacher(
      `mutation($group: ID!, $user: ID!) {
        createInvite(input: { realm: { type: GROUP, id: $group }, userId: $user }) { invite { databaseId } } }`,
      { group: String(groupId), user: String(world.parent.id) },
    );
    expect(invited.data.createInvite.invite.databaseId).toEqual(expect.any(String));
    const [post] = await writeChanges(1, 'After the invite');
    const admin = await issueAccessToken({ userId: world.teacher.id });
    const adminStream = sseReader(await subscribeOverSse({ 'last-event-id': from }, {}, admin.token));
    expect((await adminStream.take(2)).map((event) => event.realmEvents.type)).toEqual([
      'INVITE_CREATE',
      'BLOG_POST_CREATE',
    ]);
    await adminStream.cancel();
    const memberStream = sseReader(await subscribeOverSse({ 'last-event-id': from }));
    expect((await memberStream.take(1)).map((event) => event.realmEvents.objectId)).toEqual([post]);
    await memberStream.cancel();
  });

  it('gives a viewer who lost access none of the events missed meanwhile', async () => {
    const leaver = (await createWorld()).student;
    await db().groupMembership.create({ data: { groupId, userId: leaver.id, admin: false } });
    const token = await issueAccessToken({ userId: leaver.id });
    const from = await latestCursor();
    await db().groupMembership.deleteMany({ where: { groupId, userId: leaver.id } });
    await writeChanges(2, 'Secret');
    const stream = sseReader(await subscribeOverSse({ 'last-event-id': from }, {}, token.token));
    const answer = await stream.next();
    expect(answer?.data.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(answer?.data.data?.realmEvents ?? null).toBeNull();
    expect(await stream.next()).toMatchObject({ event: 'complete' });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('two instances sharing PostgreSQL and Redis', () => {
  const instances: ServerProcess[] = [];
  afterAll(async () => {
    for (const instance of instances) instance.child.kill('SIGTERM');
    await Promise.all(instances.map((instance) => instance.exited));
  });

  it('an event committed on instance A reaches a subscriber on instance B, and B resumes from the log', async () => {
    const env = {
      DATABASE_URL: server.config.databaseUrl!,
      SECRET_KEY: server.config.secretKey!,
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'off',
      // The probes below are many writes by one user; the limit is not what is tested here.
      RATE_LIMIT: 'off',
    };
    instances.push(await startServerProcess(env), await startServerProcess(env));
    await Promise.all(instances.map(waitUntilReady));
    const [a, b] = instances as [ServerProcess, ServerProcess];
    const writer = await issueAccessToken({ userId: world.teacher.id });
    const writeOnA = async (title: string) => {
      const response = await fetch(`${a.base}/v1/groups/${groupId}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${writer.token}` },
        body: JSON.stringify({ title }),
      });
      expect(response.status).toBe(204);
    };
    const client = createClient({
      url: `${b.base.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${student.token}` },
    });
    try {
      // Subscribed from the log's end as it stands, B delivers what A writes next whether it is caught up on or heard
      // live: no need to know when B's subscription starts listening.
      const iterator = client.iterate({
        query: subscription,
        variables: { id: String(groupId), after: await latestCursor() },
      });
      await writeOnA('First across');
      const first = await within(iterator.next(), 20_000, 'first event from instance A');
      expect(first.value?.data?.realmEvents).toMatchObject({ type: 'GROUP_UPDATE' });
      const cursor = (first.value!.data!.realmEvents as any).cursor as string;
      await iterator.return!();
      // Missed on B while away, written on A: caught up from the shared log.
      await writeOnA('Missed across');
      const resumed = client.iterate({ query: subscription, variables: { id: String(groupId), after: cursor } });
      const caughtUp = (await within(resumed.next(), 5000, 'caught-up event')).value!.data!.realmEvents as any;
      expect(caughtUp.type).toBe('GROUP_UPDATE');
      expect(caughtUp.cursor).not.toBe(cursor);
      await resumed.return!();
    } finally {
      await client.dispose();
    }
  });
});

/**
 * Runs the front-end example (examples/front-end/dashboard.ts, the one docs/front-end.md walks through) against a real
 * server: cursor pagination over every group, live events carrying their objects, and resuming after a cursor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { subscriptionActivity } from '../../src/modules/subscriptions/event.quota';
import { type DashboardEvent, allGroups, connect, followEvents, refetch } from '../../examples/front-end/dashboard';
import { encodeGlobalId } from '../../src/core/global-id';
import { type World, createGroup, createWorld } from '../support/factories';
import { listenOnLoopback, useTestServer } from '../support/harness';
import { streamSettled } from '../support/stream';

const server = useTestServer();
let world: World;
let url: string;
let token: string;
let tokenId: number;
let close: () => Promise<void>;

beforeAll(async () => {
  world = await createWorld();
  for (const title of ['Chess', 'Choir', 'Debate', 'Robotics', 'Yearbook'])
    await createGroup(world.school.id, { title });
  ({ token, id: tokenId } = await issueAccessToken({ userId: world.schoolAdmin.id }));
  // A subscription from the end of the stream must not hear these writes arrive late (test/support/stream.ts).
  await streamSettled();
  const listening = await listenOnLoopback(server);
  url = `http://127.0.0.1:${listening.port}`;
  close = listening.close;
});

afterAll(() => close?.());

/** Resolves with the first `count` events the callback receives; `stop` ends the subscription. */
function collect(count: number, start: (onEvent: (event: DashboardEvent) => void) => () => void) {
  return new Promise<DashboardEvent[]>((resolve) => {
    const received: DashboardEvent[] = [];
    const stop = start((event) => {
      received.push(event);
      if (received.length === count) {
        stop();
        resolve(received);
      }
    });
  });
}

/** Resolves when the token's next subscription listens: a change made before that would not reach it. */
function listening(): Promise<void> {
  return new Promise((resolve) => {
    const onListening = (key: string) => {
      if (key !== `bearer:${tokenId}`) return;
      subscriptionActivity.off('listening', onListening);
      resolve();
    };
    subscriptionActivity.on('listening', onListening);
  });
}

const createGroupAsAdmin = (title: string) =>
  server
    .fetch('/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation ($input: CreateGroupInput!) { createGroup(input: $input) { group { id: databaseId } } }',
        variables: { input: { title, schoolId: String(world.school.id) } },
      }),
    })
    .then((response) => response.json());

describe('the front-end example', () => {
  it('pages through every group the viewer can see with cursors', async () => {
    const { client, close: closeClient } = connect({ url, token });
    try {
      const { total, groups } = await allGroups(client, 2);
      expect(total).toBe(5);
      expect(groups.map((group) => group.title)).toEqual(['Chess', 'Choir', 'Debate', 'Robotics', 'Yearbook']);
      expect(groups[0].school).toMatchObject({
        id: encodeGlobalId('School', world.school.id),
        title: world.school.title,
      });
      // Global ids of different types go back in one request; an id that names nothing comes back null.
      const ids = [groups[1].id, groups[0].school.id, encodeGlobalId('Group', 2_000_000_000)];
      expect(await refetch(client, ids)).toEqual([
        { __typename: 'Group', id: groups[1].id, title: 'Choir' },
        { __typename: 'School', id: groups[0].school.id, title: world.school.title },
        null,
      ]);
    } finally {
      closeClient();
    }
  });

  it('hears a group created in its school with the group itself, and resumes after the last cursor it saw', async () => {
    const { client, close: closeClient } = connect({ url, token });
    try {
      const started = listening();
      const live = collect(1, (onEvent) => followEvents(client, null, onEvent));
      await started;
      await createGroupAsAdmin('Astronomy');
      const [event] = await live;
      expect(event.type).toBe('GROUP_CREATE');
      expect(event.object).toMatchObject({ __typename: 'Group', title: 'Astronomy' });
      // The event's object carries its global id: `node(id)` refetches it.
      const [created] = await refetch(client, [event.object!.id!]);
      expect(created).toEqual({ __typename: 'Group', id: event.object!.id, title: 'Astronomy' });

      // While nobody listens, two more groups are created; following from the last cursor delivers exactly those.
      await createGroupAsAdmin('Botany');
      await createGroupAsAdmin('Ceramics');
      const missed = await collect(2, (onEvent) => followEvents(client, event.cursor, onEvent));
      expect(missed.map((e) => [e.type, e.object?.title])).toEqual([
        ['GROUP_CREATE', 'Botany'],
        ['GROUP_CREATE', 'Ceramics'],
      ]);
    } finally {
      closeClient();
    }
  });
});

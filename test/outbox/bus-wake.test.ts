import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { commitsChannel, listenToRealms, useRedisEventBus } from '../../src/outbox/bus';
import { containingRealms, recordEvent, writeTransaction } from '../../src/outbox/record';
import { groupEvents } from '../../src/modules/groups/group.service';
import { type World, createGroup, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();
let world: World;

beforeAll(async () => {
  world = await createWorld();
});

/** Commits a change of the group with its event. */
const changeGroup = (groupId: number) =>
  writeTransaction((tx) =>
    recordEvent(tx, groupEvents.update, {
      realm: { type: 'GROUP', id: groupId },
      objectId: groupId,
      actorId: null,
      scope: { districtId: world.district.id, schoolId: world.school.id },
    }),
  );

/**
 * The follower's reads of the log sent by the time a wake by `commit` would have had it read: a woken follower reads
 * within the turn of the event loop that woke it. Counted there rather than until the event arrives, the count stays
 * exact while another test file's open transaction holds the event back on a shared PostgreSQL server (the follower
 * then looks again every few milliseconds until it can read it).
 */
async function followerReadsAfter(commit: () => Promise<unknown>) {
  const before = server.database.statementCount;
  const written = (await server.database.statementsOf(commit)).length;
  await new Promise((resolve) => setImmediate(resolve));
  return server.database.statementCount - before - written;
}

/**
 * Runs `check` while listening to the realm of a new group, `heard` (beside it a group nobody listens to, `unheard`),
 * once the follower has handed over an event of `heard`: it has just read the log and sleeps until the next wake, or
 * for its one-second poll. Nothing else in this process reads or writes meanwhile (tests run no webhook worker).
 */
async function whileListening(
  check: (groups: { heard: number; unheard: number }, delivered: number[]) => Promise<void>,
) {
  const [heard, unheard] = [(await createGroup(world.school.id)).id, (await createGroup(world.school.id)).id];
  const delivered: number[] = [];
  const listening = listenToRealms([{ type: 'GROUP', id: heard }], (event) => delivered.push(event.objectId));
  try {
    await listening.ready;
    await changeGroup(heard);
    await expect.poll(() => delivered.length).toBe(1);
    await check({ heard, unheard }, delivered);
  } finally {
    listening.stop();
  }
}

describe("the event-log follower's wake on a local commit", () => {
  it('reads the log for a commit a listener here hears, not for one nobody here listens to', () =>
    whileListening(async ({ heard, unheard }, delivered) => {
      expect(await followerReadsAfter(() => changeGroup(unheard))).toBe(0);
      expect(await followerReadsAfter(() => changeGroup(heard))).toBe(1);
      await expect.poll(() => delivered.length).toBe(2);
    }));
});

describe("the event-log follower's wake on another instance's announcement over Redis", () => {
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const [publisher, subscriber, otherInstance] = [1, 2, 3].map(() => new Redis(redisUrl, { lazyConnect: true }));

  beforeAll(async () => {
    await Promise.all([publisher, subscriber, otherInstance].map((client) => client.connect()));
    useRedisEventBus(publisher!, subscriber!);
    // Subscribed before the first announcement is published.
    await subscriber!.subscribe(commitsChannel);
  });
  afterAll(async () => {
    await Promise.all([publisher, subscriber, otherInstance].map((client) => client.quit()));
  });

  /**
   * An event as another instance commits it (one statement here), announced as that instance announces it; returns
   * once this process has received the announcement (its bus listens first, so it has acted on it by then).
   */
  const commitElsewhere = async (groupId: number) => {
    const ancestors = containingRealms(
      { type: 'GROUP', id: groupId },
      { districtId: world.district.id, schoolId: world.school.id },
    );
    const [event] = await db().$queryRaw<{ id: string }[]>`
      INSERT INTO domain_events (type, "realmType", "realmId", "objectId", "districtId", "schoolId", ancestors)
      VALUES ('group.update', 'GROUP', ${groupId}, ${groupId}, ${world.district.id}, ${world.school.id}, ${ancestors})
      RETURNING id::text`;
    const announcement = `another-instance@${event!.id}@${ancestors.join(',')}`;
    const received = new Promise<void>((resolve) => {
      const receive = (_channel: string, message: string) => {
        if (message !== announcement) return;
        subscriber!.off('message', receive);
        resolve();
      };
      subscriber!.on('message', receive);
    });
    await otherInstance!.publish(commitsChannel, announcement);
    await received;
  };

  it('reads the log for an announced event a listener here hears, not for one nobody here listens to', () =>
    whileListening(async ({ heard, unheard }, delivered) => {
      expect(await followerReadsAfter(() => commitElsewhere(unheard))).toBe(0);
      expect(await followerReadsAfter(() => commitElsewhere(heard))).toBe(1);
      await expect.poll(() => delivered.length).toBe(2);
    }));
});

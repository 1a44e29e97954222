import { beforeAll, describe, expect, it } from 'vitest';
import { listenToRealms } from '../../src/events/bus';
import { recordEvent, writeTransaction } from '../../src/events/record';
import { groupEvents } from '../../src/modules/groups/group.service';
import { type World, createGroup, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();
let world: World;

beforeAll(async () => {
  world = await createWorld();
});

/** Commits a change of the group with its event, and returns the statements it sent itself. */
const changeGroup = async (groupId: number) =>
  (
    await server.database.statementsOf(() =>
      writeTransaction((tx) =>
        recordEvent(tx, groupEvents.update, {
          realm: { type: 'GROUP', id: groupId },
          objectId: groupId,
          actorId: null,
          scope: { districtId: world.district.id, schoolId: world.school.id },
        }),
      ),
    )
  ).length;

describe("the event-log follower's wake on a local commit", () => {
  it('reads the log for a commit a listener here hears, not for one nobody here listens to', async () => {
    const [heardGroup, unheardGroup] = [await createGroup(world.school.id), await createGroup(world.school.id)];
    const delivered: number[] = [];
    const listening = listenToRealms([{ type: 'GROUP', id: heardGroup.id }], (event) => delivered.push(event.objectId));
    try {
      await listening.ready;
      // Once the follower has handed over a heard event it has just read the log: it sleeps until the next wake, or
      // for its one-second poll. Nothing else in this process reads or writes meanwhile (tests run no webhook worker).
      await changeGroup(heardGroup.id);
      await expect.poll(() => delivered.length).toBe(1);
      const before = server.database.statementCount;

      const written = (await changeGroup(unheardGroup.id)) + (await changeGroup(heardGroup.id));
      await expect.poll(() => delivered.length).toBe(2);

      // One read of the log, woken by the second commit: the first, which nobody here hears, woke nothing. (A wake by
      // it would read at once, before the second commit could even begin.)
      expect(server.database.statementCount - before - written).toBe(1);
    } finally {
      listening.stop();
    }
  });
});

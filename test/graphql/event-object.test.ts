import { beforeAll, describe, expect, it } from 'vitest';
import { currentViewer } from '../../src/auth/viewer';
import type { DomainEventMessage } from '../../src/outbox/bus';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { eventObject, preloadObjects } from '../../src/modules/subscriptions/event.object';
import { type World, createBlogPosts, createGroup, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

// The object an event carries (DomainEvent.object), loaded for a page of events at once and shown only to who may see it.

const server = useTestServer();
let world: World;

beforeAll(async () => {
  world = await createWorld();
});

let sequence = 0;
function eventAbout(
  type: string,
  realm: { type: DomainEventMessage['realmType']; id: number },
  objectId: number,
): DomainEventMessage {
  sequence++;
  return {
    id: String(sequence),
    cursor: `1:${sequence}`,
    type,
    realmType: realm.type,
    realmId: realm.id,
    objectId,
    actorId: null,
    districtId: world.district.id,
    schoolId: world.school.id,
    ancestors: [`${realm.type}:${realm.id}`, `SCHOOL:${world.school.id}`, `DISTRICT:${world.district.id}`],
    createdAt: new Date().toISOString(),
  };
}

async function viewerOf(user: { id: number }) {
  const { id: tokenId } = await issueAccessToken({ userId: user.id });
  return (await currentViewer({ kind: 'bearer', tokenId }))!.viewer;
}

describe('DomainEvent.object', () => {
  it('loads the objects of a page of events with one statement per type, not one per event', async () => {
    const group = await createGroup(world.school.id, { admins: [world.teacher.id] });
    const realm = { type: 'GROUP' as const, id: group.id };
    const viewer = await viewerOf(world.teacher);
    const load = async (count: number) => {
      const posts = await createBlogPosts(realm, count);
      const events = posts.map((post) => eventAbout('blog_post.create', realm, post.id));
      const before = server.database.statementCount;
      preloadObjects(events);
      const objects = await Promise.all(events.map((event) => eventObject(viewer, event)));
      expect(objects.map((object: any) => object?.id)).toEqual(posts.map((post) => post.id));
      return server.database.statementCount - before;
    };
    expect(await load(3)).toBe(1);
    expect(await load(25)).toBe(1);
  });

  it('is null for an object the viewer may not read, and once it is deleted', async () => {
    const closed = await createGroup(world.school.id, { privacyLevel: 'GROUP', admins: [world.teacher.id] });
    const event = eventAbout('group.update', { type: 'GROUP', id: closed.id }, closed.id);
    expect(await eventObject(await viewerOf(world.teacher), event)).toMatchObject({ id: closed.id });
    expect(await eventObject(await viewerOf(world.student), event)).toBeNull();
    const gone = eventAbout('group.update', { type: 'GROUP', id: 2_000_000_000 }, 2_000_000_000);
    expect(await eventObject(await viewerOf(world.teacher), gone)).toBeNull();
    // Events about credentials carry no object.
    const token = await issueAccessToken({ userId: world.teacher.id });
    const credential = eventAbout('access_token.create', { type: 'USER', id: world.teacher.id }, token.id);
    expect(await eventObject(await viewerOf(world.teacher), credential)).toBeNull();
  });
});

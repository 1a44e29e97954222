import { type GraphQLObjectType, type GraphQLEnumType, isObjectType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/core/global-id';
import { schema } from '../../src/graphql/schema';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { eventCatalogue } from '../../src/outbox/catalogue';
import { type RestClient, restClientFor } from '../support/client';
import { type World, createGroup, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';
import { settledEndOfStream } from '../support/stream';

// A DomainEvent's ids come with what they name: its realm, its actor and its object's global id; its type is an enum.

const server = useTestServer();
let world: World;
let groupId: number;
let groupAdmin: RestClient;

beforeAll(async () => {
  world = await createWorld();
  groupId = (await createGroup(world.school.id, { admins: [world.teacher.id], members: [world.student.id] })).id;
  groupAdmin = await restClientFor(server, world.teacher);
});

const eventFields = /* GraphQL */ `
  type typeName realmType realmId objectId objectGlobalId actorId
  realm { __typename ... on Group { id title } ... on User { id } }
  actor { id nameDisplay }
  object { __typename ... on BlogPost { id } ... on Group { id } }
`;

/** The first `count` events of a realm after `after`, caught up over server-sent events as the user sees them. */
async function eventsAfter(user: { id: number }, realm: { type: string; id: number }, after: string, count: number) {
  const { token } = await issueAccessToken({ userId: user.id });
  const response = await server.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      query: `subscription($realm: RealmInput!, $after: String) { realmEvents(realm: $realm, after: $after) { ${eventFields} } }`,
      variables: { realm: { type: realm.type, id: String(realm.id) }, after },
    }),
  });
  expect(response.status).toBe(200);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: any[] = [];
  let buffer = '';
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let boundary: number;
    while ((boundary = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      const data = block.split('\n').find((line) => line.startsWith('data:'));
      if (data && block.startsWith('event: next')) events.push(JSON.parse(data.slice(5)));
    }
  }
  await reader.cancel();
  for (const event of events) expect(event.errors).toBeUndefined();
  return events.map((event) => event.data.realmEvents);
}

describe('DomainEvent references', () => {
  it('gives the realm, the actor and the global id of the object beside their database ids, deleted or not', async () => {
    const after = await settledEndOfStream();
    const post = await groupAdmin.post(`/groups/${groupId}/posts`, { title: 'Field trip' });
    expect(post.status).toBe(201);
    expect((await groupAdmin.put(`/groups/${groupId}`, { description: 'Trips' })).status).toBe(204);
    expect((await groupAdmin.delete(`/groups/${groupId}/posts/${post.json.id}`)).status).toBe(204);

    const [created, updated, deleted] = await eventsAfter(world.student, { type: 'GROUP', id: groupId }, after, 3);
    const group = { __typename: 'Group', id: encodeGlobalId('Group', groupId), title: expect.any(String) };
    const postId = encodeGlobalId('BlogPost', post.json.id);
    expect(created).toEqual({
      type: 'BLOG_POST_CREATE',
      typeName: 'blog_post.create',
      realmType: 'GROUP',
      realmId: String(groupId),
      realm: group,
      objectId: String(post.json.id),
      objectGlobalId: postId,
      actorId: String(world.teacher.id),
      actor: { id: encodeGlobalId('User', world.teacher.id), nameDisplay: expect.any(String) },
      // The post was deleted before the event was read: only its global id is left to evict it by.
      object: null,
    });
    expect(updated).toMatchObject({
      type: 'GROUP_UPDATE',
      typeName: 'group.update',
      realm: group,
      objectGlobalId: group.id,
      object: { __typename: 'Group', id: group.id },
    });
    expect(deleted).toMatchObject({ type: 'BLOG_POST_DELETE', typeName: 'blog_post.delete', objectGlobalId: postId });
  });

  it('answers a null actor for the system, and the global ids refetch through node', async () => {
    const after = await settledEndOfStream();
    // A token issued by the server itself (no viewer) records its event with no actor, in the user's own realm.
    await issueAccessToken({ userId: world.student.id });
    const [issued] = await eventsAfter(world.student, { type: 'USER', id: world.student.id }, after, 1);
    expect(issued).toMatchObject({
      type: 'ACCESS_TOKEN_CREATE',
      typeName: 'access_token.create',
      realm: { __typename: 'User', id: encodeGlobalId('User', world.student.id) },
      actorId: null,
      actor: null,
    });
    const { token } = await issueAccessToken({ userId: world.student.id });
    const response = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        query: 'query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }',
        variables: { ids: [issued.objectGlobalId, issued.realm.id] },
      }),
    });
    expect((await response.json()).data.nodes).toEqual([
      { __typename: 'AccessToken', id: issued.objectGlobalId },
      { __typename: 'User', id: issued.realm.id },
    ]);
  });
});

describe('the DomainEventType enum', () => {
  it('has one value per event of the catalogue, named after it, and every event object is a Node', () => {
    // Another test file of this worker may have declared a test event: only the application's events are compared.
    const values = (schema.getType('DomainEventType') as GraphQLEnumType)
      .getValues()
      .map((value) => value.name)
      .filter((name) => !name.startsWith('TEST_'));
    const catalogue = eventCatalogue().filter((kind) => !kind.type.startsWith('test_'));
    expect(values.sort()).toEqual(catalogue.map((kind) => kind.type.replace('.', '_').toUpperCase()).sort());
    for (const kind of catalogue) {
      const object = schema.getType(kind.object);
      expect(isObjectType(object), kind.type).toBe(true);
      expect((object as GraphQLObjectType).getInterfaces().map((face) => face.name)).toContain('Node');
    }
  });
});

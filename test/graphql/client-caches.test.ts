/**
 * What caching front ends do after a mutation, with their own libraries: Relay's `@appendNode` and `@deleteEdge`
 * (relay-runtime, documents compiled by relay-compiler in test/clients/relay) and Apollo Client's cache eviction by
 * the deleted object's global id; and a document of two mutation fields where one fails.
 */
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import {
  Environment,
  type GraphQLResponse,
  Network,
  RecordSource,
  Store,
  commitMutation,
  createOperationDescriptor,
  fetchQuery,
  getRequest,
} from 'relay-runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import relayCreateGroupMutation from '../clients/relay/__generated__/relayCreateGroupMutation.graphql';
import relayDeleteGroupMutation from '../clients/relay/__generated__/relayDeleteGroupMutation.graphql';
import relayGroupsQuery from '../clients/relay/__generated__/relayGroupsQuery.graphql';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import { type World, createGroup, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();
let world: World;
let adminToken: string;
let teacherToken: string;

beforeAll(async () => {
  world = await createWorld();
  await createGroup(world.school.id, { title: 'Chess' });
  ({ token: adminToken } = await issueAccessToken({ userId: world.schoolAdmin.id }));
  ({ token: teacherToken } = await issueAccessToken({ userId: world.teacher.id }));
});

/** `fetch` to the test server's /graphql with a bearer token, for the clients' own HTTP layers. */
const fetchAs =
  (token: string): typeof fetch =>
  (_url, init) =>
    server.fetch('/graphql', { ...init, headers: { ...(init?.headers as object), authorization: `Bearer ${token}` } });

describe('Relay (relay-runtime)', () => {
  const environment = () =>
    new Environment({
      network: Network.create(async (request, variables) => {
        const response = await fetchAs(adminToken)('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: request.text, variables }),
        });
        return (await response.json()) as GraphQLResponse;
      }),
      store: new Store(new RecordSource()),
    });

  /** The titles of the connection's edges as the store holds them. */
  function storedTitles(env: Environment) {
    const operation = createOperationDescriptor(getRequest(relayGroupsQuery), {});
    const snapshot = env.lookup(operation.fragment);
    const data = snapshot.data as { groupsConnection: { __id: string; edges: { node: { title: string } }[] } };
    return {
      connection: data.groupsConnection.__id,
      titles: data.groupsConnection.edges.map((edge) => edge.node.title),
    };
  }

  const commit = (
    env: Environment,
    mutation: typeof relayCreateGroupMutation | typeof relayDeleteGroupMutation,
    variables: Record<string, unknown>,
  ) =>
    new Promise<Record<string, any>>((resolve, reject) =>
      commitMutation(env, {
        mutation: mutation as never,
        variables,
        onCompleted: (response) => resolve(response as Record<string, any>),
        onError: reject,
      }),
    );

  it('appends the created group to the connection with @appendNode, and nothing when the input is refused', async () => {
    const env = environment();
    await fetchQuery(env, relayGroupsQuery, {}).toPromise();
    const before = storedTitles(env);
    expect(before.titles).toContain('Chess');

    const created = await commit(env, relayCreateGroupMutation, {
      input: { title: 'Robotics', schoolId: String(world.school.id) },
      connections: [before.connection],
    });
    expect(created.createGroup.userErrors).toEqual([]);
    expect(storedTitles(env).titles).toEqual([...before.titles, 'Robotics']);

    // A refused input answers userErrors and a null group: the connection gains no edge (a union appended the error).
    const refused = await commit(env, relayCreateGroupMutation, {
      input: { title: '' },
      connections: [before.connection],
    });
    expect(refused.createGroup).toEqual({
      group: null,
      userErrors: [{ field: ['input', 'title'], code: 'REQUIRED', message: 'is required' }],
    });
    expect(storedTitles(env).titles).toEqual([...before.titles, 'Robotics']);
  });

  it('removes the deleted group from the connection with @deleteEdge on the global id', async () => {
    const env = environment();
    const doomed = await createGroup(world.school.id, { title: 'Yearbook' });
    await fetchQuery(env, relayGroupsQuery, {}).toPromise();
    const before = storedTitles(env);
    expect(before.titles).toContain('Yearbook');

    const deleted = await commit(env, relayDeleteGroupMutation, {
      input: { id: encodeGlobalId('Group', doomed.id) },
      connections: [before.connection],
    });
    expect(deleted.deleteGroup).toEqual({ deletedGroupId: encodeGlobalId('Group', doomed.id), userErrors: [] });
    expect(storedTitles(env).titles).toEqual(before.titles.filter((title) => title !== 'Yearbook'));
  });
});

describe('Apollo Client', () => {
  it('evicts the deleted group by the id the payload answers', async () => {
    const client = new ApolloClient({
      link: new HttpLink({ uri: 'http://lectern.test/graphql', fetch: fetchAs(adminToken) }),
      cache: new InMemoryCache(),
    });
    const doomed = await createGroup(world.school.id, { title: 'Debate' });
    const groupId = encodeGlobalId('Group', doomed.id);
    await client.query({ query: gql`query ($id: ID!) { group(id: $id) { id title } }`, variables: { id: groupId } });
    const cacheId = client.cache.identify({ __typename: 'Group', id: groupId });
    const stored = () => (client.cache.extract() as Record<string, unknown>)[cacheId!];
    expect(stored()).toMatchObject({ title: 'Debate' });

    const result = await client.mutate<{ deleteGroup: { deletedGroupId: string } }>({
      mutation: gql`mutation ($input: DeleteGroupInput!) { deleteGroup(input: $input) { deletedGroupId userErrors { code } } }`,
      variables: { input: { id: groupId } },
      update(cache, { data }) {
        cache.evict({ id: cache.identify({ __typename: 'Group', id: data!.deleteGroup.deletedGroupId }) });
        cache.gc();
      },
    });
    expect(result.data).toMatchObject({ deleteGroup: { deletedGroupId: groupId, userErrors: [] } });
    expect(stored()).toBeUndefined();
  });
});

describe('a document of two mutation fields', () => {
  it('answers the committed field beside the refused one, instead of hiding it', async () => {
    const title = `Committed ${Date.now()}`;
    const response = await fetchAs(teacherToken)('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `mutation ($group: CreateGroupInput!, $school: CreateSchoolInput!) {
          createGroup(input: $group) { group { title } userErrors { code } }
          createSchool(input: $school) { school { title } userErrors { code } }
        }`,
        variables: { group: { title }, school: { title: 'Not for teachers' } },
      }),
    });
    const body = await response.json();
    expect(body.data).toEqual({ createGroup: { group: { title }, userErrors: [] }, createSchool: null });
    expect(body.errors).toEqual([
      expect.objectContaining({ path: ['createSchool'], extensions: expect.objectContaining({ code: 'FORBIDDEN' }) }),
    ]);
    // Partial data is a 200 (GraphQL over HTTP: data is present).
    expect(response.status).toBe(200);
    expect(await db().group.count({ where: { title } })).toBe(1);
  });
});

/**
 * A school dashboard's data layer, written as a front end would write it: urql for queries, graphql-ws for live
 * events, a bearer token for both. It lists every group the viewer can see (cursor pagination), then follows
 * `viewerEvents`, whose payload carries the changed object, and resumes after the last cursor it saw when it reconnects.
 * Every `id` it reads is a global id, which `nodes(ids)` refetches whatever the type (a cache refresh).
 * test/examples/front-end.test.ts runs it against a real server.
 *
 *   LECTERN_URL=http://localhost:4000 LECTERN_TOKEN=<token> npx tsx examples/front-end/dashboard.ts
 *
 * In a browser, drop the `ws` import: graphql-ws uses the browser's WebSocket.
 */
import { pathToFileURL } from 'node:url';
import { Client, type OperationResult, cacheExchange, fetchExchange, gql, subscriptionExchange } from '@urql/core';
import { createClient as createSocketClient } from 'graphql-ws';
import WebSocket from 'ws';

export interface DashboardOptions {
  /** The server's base URL, such as http://localhost:4000. */
  url: string;
  /** A bearer token (`npx lectern create-access-token --user <id>`). */
  token: string;
}

export interface GroupSummary {
  id: string;
  title: string;
  privacyLevel: string;
  school: { id: string; title: string };
}

interface GroupsPage {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  edges: { node: GroupSummary }[];
}

export interface DashboardEvent {
  cursor: string;
  type: string;
  createdAt: string;
  object: { __typename: string; id?: string; title?: string } | null;
}

const groupsPage = gql`
  query GroupsPage($first: Int!, $after: String) {
    groupsConnection(first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { id title privacyLevel school { id title } } }
    }
  }
`;

const events = gql`
  subscription Dashboard($after: String) {
    viewerEvents(after: $after) {
      cursor
      type
      createdAt
      object {
        __typename
        ... on Group { id title }
        ... on BlogPost { id title }
        ... on School { id title }
        ... on User { id }
      }
    }
  }
`;

const refetchNodes = gql`
  query Refetch($ids: [ID!]!) {
    nodes(ids: $ids) {
      __typename
      id
      ... on Group { title }
      ... on BlogPost { title }
      ... on School { title }
    }
  }
`;

/** One client for both transports: queries over HTTP, subscriptions over graphql-ws, one credential. */
export function connect({ url, token }: DashboardOptions) {
  const authorization = `Bearer ${token}`;
  const socket = createSocketClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    // Browsers cannot set headers on a WebSocket: the credential travels in the connection params.
    connectionParams: { Authorization: authorization },
    webSocketImpl: WebSocket,
  });
  const client = new Client({
    url: `${url}/graphql`,
    fetchOptions: () => ({ headers: { authorization } }),
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: socket.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
    ],
  });
  return { client, close: () => socket.dispose() };
}

/** Every group the viewer can see, following `pageInfo.endCursor` until there is no next page. */
export async function allGroups(client: Client, pageSize = 50): Promise<{ total: number; groups: GroupSummary[] }> {
  const groups: GroupSummary[] = [];
  let after: string | null = null;
  for (;;) {
    const result: OperationResult<{ groupsConnection: GroupsPage }> = await client
      .query(groupsPage, { first: pageSize, after })
      .toPromise();
    if (result.error) throw result.error;
    const page = result.data!.groupsConnection;
    groups.push(...page.edges.map((edge) => edge.node));
    if (!page.pageInfo.hasNextPage) return { total: page.totalCount, groups };
    after = page.pageInfo.endCursor;
  }
}

/**
 * The objects these global ids name now, in their order, whatever their types (groups, schools, posts...): one
 * request for a cache's worth of ids. Null where an object is gone or no longer visible to the viewer.
 */
export async function refetch(
  client: Client,
  ids: string[],
): Promise<({ __typename: string; id: string; title?: string } | null)[]> {
  const result = await client.query(refetchNodes, { ids }, { requestPolicy: 'network-only' }).toPromise();
  if (result.error) throw result.error;
  return result.data.nodes;
}

/**
 * Follows the viewer's events from `after` (the cursor of the last event handled, or null for new ones only).
 * Keep the last cursor: following again from it delivers what was missed, without gaps or repeats.
 */
export function followEvents(
  client: Client,
  after: string | null,
  onEvent: (event: DashboardEvent) => void,
  onError: (error: Error) => void = (error) => console.error(error.message),
) {
  const { unsubscribe } = client.subscription(events, { after }).subscribe((result) => {
    if (result.error) onError(result.error);
    else onEvent(result.data.viewerEvents);
  });
  return unsubscribe;
}

async function main() {
  const options = { url: process.env.LECTERN_URL ?? 'http://localhost:4000', token: process.env.LECTERN_TOKEN ?? '' };
  if (!options.token)
    throw new Error('Set LECTERN_TOKEN to a bearer token (npx lectern create-access-token --user <id>)');
  const { client } = connect(options);
  const { total, groups } = await allGroups(client);
  console.log(`${total} groups`);
  for (const group of groups) console.log(`  ${group.id}  ${group.title} (${group.school.title})`);
  console.log('following events (Ctrl-C to stop)');
  followEvents(client, process.env.LECTERN_AFTER ?? null, (event) => {
    const object = event.object
      ? `${event.object.__typename} ${event.object.id ?? ''} ${event.object.title ?? ''}`
      : '-';
    console.log(`${event.createdAt}  ${event.type.padEnd(24)} ${object}   (resume: LECTERN_AFTER=${event.cursor})`);
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();

/**
 * The dashboard's data layer: urql for queries and mutations over HTTP, graphql-ws for live events, one bearer token
 * for both. Mutations answer payloads (`createGroup { group, userErrors }`), so a refused input is data to show, and a
 * delete answers the global id of what it removed.
 */
import { Client, cacheExchange, fetchExchange, gql, subscriptionExchange } from '@urql/core';
import { createClient as createSocketClient } from 'graphql-ws';

export interface Named {
  id: string;
  title: string;
}

export interface Dashboard {
  viewer: {
    nameDisplay: string;
    sections: { nodes: (Named & { course: { title: string } })[] };
    groups: { nodes: Named[] };
  };
}

export interface UserError {
  field: string[] | null;
  code: string;
  message: string;
}

export interface DashboardEvent {
  /** What happened, as `<resource>.<action>` (`type` is the same as an enum value). */
  typeName: string;
  object: { __typename: string; title?: string } | null;
}

const dashboard = gql`
  query Dashboard {
    viewer {
      nameDisplay
      sections(first: 50) { nodes { id title course { id title } } }
      groups(first: 50) { nodes { id title } }
    }
  }
`;

const createGroup = gql`
  mutation CreateGroup($input: CreateGroupInput!) {
    createGroup(input: $input) {
      group { id title }
      userErrors { field code message }
    }
  }
`;

const deleteGroup = gql`
  mutation DeleteGroup($input: DeleteGroupInput!) {
    deleteGroup(input: $input) {
      deletedGroupId
      userErrors { field code message }
    }
  }
`;

const events = gql`
  subscription Events {
    viewerEvents {
      typeName
      object { __typename ... on Group { id title } ... on BlogPost { id title } }
    }
  }
`;

/** A signed-in session against one server: queries, mutations and events with the same token. */
export function connect(server: string, token: string) {
  const authorization = `Bearer ${token}`;
  // Browsers cannot set headers on a WebSocket: the token travels in the connection params.
  const socket = createSocketClient({
    url: `${server.replace(/^http/, 'ws')}/graphql`,
    connectionParams: { Authorization: authorization },
  });
  const client = new Client({
    url: `${server}/graphql`,
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

  return {
    async dashboard(): Promise<Dashboard> {
      const result = await client.query(dashboard, {}, { requestPolicy: 'network-only' }).toPromise();
      if (result.error) throw result.error;
      return result.data as Dashboard;
    },
    /** The new group, or the userErrors that say why nothing was created. */
    async createGroup(title: string): Promise<{ group: Named | null; userErrors: UserError[] }> {
      const result = await client.mutation(createGroup, { input: { title } }).toPromise();
      if (result.error) throw result.error;
      return result.data.createGroup;
    },
    async deleteGroup(id: string): Promise<{ deletedGroupId: string | null; userErrors: UserError[] }> {
      const result = await client.mutation(deleteGroup, { input: { id } }).toPromise();
      if (result.error) throw result.error;
      return result.data.deleteGroup;
    },
    follow(onEvent: (event: DashboardEvent) => void, onError: (error: Error) => void) {
      return client.subscription(events, {}).subscribe((result) => {
        if (result.error) onError(result.error);
        else onEvent(result.data.viewerEvents);
      }).unsubscribe;
    },
    close: () => socket.dispose(),
  };
}

export type Session = ReturnType<typeof connect>;

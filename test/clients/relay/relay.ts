/**
 * What a Relay front end sends: a connection it keeps in its store, and the mutations that change that connection
 * through Relay's declarative directives. `npm run relay` compiles them into `__generated__/` (relay-compiler 21);
 * test/graphql/client-caches.test.ts runs them with relay-runtime against the server.
 */
import { graphql } from 'relay-runtime';

export const groupsQuery = graphql`
  query relayGroupsQuery {
    groupsConnection(first: 100) @connection(key: "relay_groupsConnection") {
      __id
      edges {
        node {
          id
          title
        }
      }
    }
  }
`;

export const createGroupMutation = graphql`
  mutation relayCreateGroupMutation($input: CreateGroupInput!, $connections: [ID!]!) {
    createGroup(input: $input) {
      group @appendNode(connections: $connections, edgeTypeName: "GroupEdge") {
        id
        title
      }
      userErrors {
        field
        code
        message
      }
    }
  }
`;

export const deleteGroupMutation = graphql`
  mutation relayDeleteGroupMutation($input: DeleteGroupInput!, $connections: [ID!]!) {
    deleteGroup(input: $input) {
      deletedGroupId @deleteEdge(connections: $connections)
      userErrors {
        code
      }
    }
  }
`;

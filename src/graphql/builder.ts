import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { GraphQLError } from 'graphql';
import type { Viewer } from '../auth/viewer';
import { httpError } from '../core/errors';
import { decodeGlobalId, encodeGlobalId } from '../core/global-id';
import { db } from '../db/database';
import type PrismaTypes from '../generated/pothos-types';
import { getDatamodel } from '../generated/pothos-types';
import ConnectionFieldsPlugin from './connection-fields';
import SynchronousNodeIdsPlugin from './node-ids';

export interface Context {
  /** Null for an unauthenticated request (GraphiQL's introspection); every data field requires a viewer. */
  viewer: Viewer | null;
  requestId: string;
  /** Encrypts consumer secrets issued by mutations. */
  serverKey: Buffer;
  /** The base URL links start with (PUBLIC_URL, or the request's vouched-for origin), such as an upload's location. */
  origin: string;
  /** The `Last-Event-ID` header of a server-sent events request: where a reconnecting subscriber resumes. */
  lastEventId?: string | null;
  /**
   * The raw request body of a `/v1` route that streams it (`PUT /v1/upload/{id}`), handed over by the REST facade;
   * absent on /graphql, whose body is the operation.
   */
  rawBody?: { stream: ReadableStream<Uint8Array> | null; declaredLength: number | null };
}

/** Context after the `authenticated` scope has passed. */
export interface AuthenticatedContext extends Context {
  viewer: Viewer;
}

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
  AuthScopes: { authenticated: boolean };
  AuthContexts: { authenticated: AuthenticatedContext };
  Scalars: { DateTime: { Input: Date; Output: Date } };
}>({
  plugins: [ScopeAuthPlugin, RelayPlugin, PrismaPlugin, SynchronousNodeIdsPlugin, ConnectionFieldsPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    // Check scopes when a subscription starts, not only when each event resolves.
    authorizeOnSubscribe: true,
    authScopes: (context) => ({ authenticated: context.viewer !== null }),
    // A missing credential is 401 for GraphQL and REST alike; a failed scope with a viewer is a permission failure.
    unauthorizedError: (_parent, context) =>
      context.viewer
        ? new GraphQLError('You do not have permission to do this', {
            extensions: { code: 'FORBIDDEN', http: { status: 403 } },
          })
        : new GraphQLError('Authentication required: sign the request with OAuth 1.0a or send a bearer token', {
            extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
          }),
  },
  // Objects with identity are Nodes: `id` is a global id (base64 of `Type:databaseId`), `databaseId` the row's id, which
  // /v1 documents select so the wire keeps its ids. `node` and `nodes` are ours (src/graphql/nodes.ts), not the
  // plugin's, so that they apply each type's read policy instead of loading any row by id.
  relay: {
    encodeGlobalID: (type, id) => encodeGlobalId(type, String(id)),
    decodeGlobalID: (globalId) => {
      const decoded = decodeGlobalId(globalId);
      if (!decoded) throw httpError(400, 'BAD_USER_INPUT', `${globalId} is not a global id`);
      return { typename: decoded.type, id: String(decoded.id) };
    },
    nodeTypeOptions: { description: 'An object with a global id, which `node(id)` and `nodes(ids)` refetch.' },
    idFieldOptions: {
      description:
        'Global id: unique across types; pass it to `node(id)` and to any argument naming this object. `databaseId` is the id /v1 uses.',
    },
    clientMutationId: 'omit',
    cursorType: 'String',
    edgesFieldOptions: { nullable: false, description: 'The items of this page, each with its cursor.' },
    nodeFieldOptions: { nullable: false, description: 'The item.' },
    cursorFieldOptions: { description: 'Opaque position of the item; pass it as `after` or `before`.' },
    pageInfoFieldOptions: { description: 'Where this page sits in the list.' },
    firstArgOptions: { description: 'Page forwards: at most this many items (default 20, at most 200).' },
    afterArgOptions: { description: 'Only items after this cursor.' },
    lastArgOptions: {
      description:
        'Page backwards: at most this many items, the last ones (at most 200). With `first`, the last of the items `first` reads.',
    },
    beforeArgOptions: { description: 'Only items before this cursor.' },
    pageInfoTypeOptions: { description: 'Relay paging state of a connection page.' },
    hasNextPageFieldOptions: { description: 'Whether items follow this page (when paging forwards).' },
    hasPreviousPageFieldOptions: { description: 'Whether items precede this page (when paging backwards).' },
    startCursorFieldOptions: { description: 'Cursor of the first item of the page; null when it is empty.' },
    endCursorFieldOptions: { description: 'Cursor of the last item of the page; null when it is empty.' },
    defaultConnectionTypeOptions: { description: 'A Relay connection: a page of a list, with cursors and the total.' },
    defaultEdgeTypeOptions: { description: 'An item of a connection page, with its cursor.' },
    // One connection type per node type (`connectionOf`, src/graphql/connections.ts), so a fragment on it fits every list.
    nodesOnConnection: { description: 'The items of this page, without their cursors (as `edges { node }`).' },
    nodeQueryOptions: false,
    nodesQueryOptions: false,
  },
  prisma: {
    client: () => db(),
    dmmf: getDatamodel(),
    // A Prisma call that forgets to spread Pothos' `query` loses relation preloading (N+1): fail loudly outside production.
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'error',
    filterConnectionTotalCount: true,
    // Models and their columns are documented once, with `///` comments in prisma/schema.prisma.
    exposeDescriptions: true,
  },
});

builder.scalarType('DateTime', {
  description: 'A point in time, as an ISO 8601 string in UTC.',
  serialize: (value) => value.toISOString(),
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : null;
    if (!date || Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 string');
    return date;
  },
});

builder.queryType({ description: 'Reads. Every field needs an authenticated viewer.' });
builder.mutationType({ description: 'Writes. Each runs in one transaction with the domain event it records.' });
builder.subscriptionType({ description: 'Live events, over graphql-ws (same path) or server-sent events.' });

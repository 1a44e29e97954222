import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import type { GraphQLFieldResolver } from 'graphql';
import { type MaybePromise, isPromise, thenMaybe } from '../auth/maybe-promise';
import { invalidArgument } from '../core/errors';

/**
 * The extension of a connection field whose list may be hidden from the viewer (a realm's posts, a school's buildings):
 * the check that answers whether the viewer reads it (see `hiddenUnless` in src/graphql/connections.ts).
 */
export const listVisibility = 'lecternListVisibility';

type VisibilityCheck = (parent: unknown, args: object, context: unknown) => MaybePromise<boolean>;

type ConnectionArgs = { first?: number | null; last?: number | null };

interface Page {
  edges: readonly { cursor: string }[];
  pageInfo: { hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/** Whether a field is a Relay connection: it takes the four paging arguments the relay plugin adds. */
const isConnection = (args: Record<string, unknown>) =>
  ['first', 'last', 'after', 'before'].every((name) => name in args);

/**
 * The last `last` items of a page read with `first`, as the Relay connection spec has `first` and `last` together: the
 * window is cut to `first`, then to its last `last`. Items cut from its start precede the page.
 */
function lastOfPage<Connection extends Page>(connection: Connection | null, last: number): Connection | null {
  if (!connection) return connection;
  const edges = last === 0 ? [] : connection.edges.slice(-last);
  return {
    ...connection,
    edges,
    pageInfo: {
      ...connection.pageInfo,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
      hasPreviousPage: connection.pageInfo.hasPreviousPage || edges.length < connection.edges.length,
    },
  };
}

/**
 * What every connection field does besides reading its page, whatever reads it (Prisma connections, keyset relations,
 * lists in memory):
 * - `first` with `last` reads the page `first` asks for and keeps its last `last` items, as the Relay spec orders them
 *   (each connection reads `first` alone, and `last` alone backwards);
 * - a list that may be hidden (`listVisibility`) answers null before anything is read. Pothos' Prisma connections answer
 *   a `totalCount`-only selection without their resolver, so a check inside the resolver would not run for it.
 */
export class ConnectionFieldsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    if (!isConnection(fieldConfig.args)) return resolver;
    const visible = fieldConfig.extensions?.[listVisibility] as VisibilityCheck | undefined;
    const windowed: GraphQLFieldResolver<unknown, Types['Context'], ConnectionArgs> = (parent, args, context, info) => {
      if (args.first == null || args.last == null) return resolver(parent, args, context, info);
      if (args.last < 0) throw invalidArgument('last', 'must be 0 or more');
      const last = args.last;
      const page = resolver(parent, { ...args, last: null }, context, info) as MaybePromise<Page | null>;
      return isPromise(page) ? page.then((read) => lastOfPage(read, last)) : lastOfPage(page, last);
    };
    if (!visible) return windowed;
    return (parent, args, context, info) =>
      thenMaybe(visible(parent, args, context), (readable) =>
        readable ? windowed(parent, args, context, info) : null,
      );
  }
}

const pluginName = 'connectionFields';
SchemaBuilder.registerPlugin(pluginName, ConnectionFieldsPlugin);

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      connectionFields: ConnectionFieldsPlugin<Types>;
    }
  }
}

export default pluginName;

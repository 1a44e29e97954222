import { type GenericFieldRef, PothosValidationError } from '@pothos/core';
import { type DefaultConnectionArguments, cursorToOffset, offsetToCursor, resolveArrayConnection } from '@pothos/plugin-relay';
import { GraphQLError } from 'graphql';
import { httpError, invalidArgument } from '../core/errors';
import type { Context } from './builder';
import type { realmRef } from './realm';
import { defaultPageSize, maxPageSize } from './paging';

/**
 * What every connection shares with the offset list beside it: the same page sizes and the same order (ascending ids),
 * so `first`/`after` walk exactly the sequence `start`/`limit` does, and `id` is the cursor column.
 */
export const connectionOptions = { cursor: 'id', defaultSize: defaultPageSize, maxSize: maxPageSize } as const;

/** The order of every list: ascending ids, as the offset lists' `orderBy`. */
export const listOrder = { id: 'asc' } as const;

/** What Pothos' `prismaConnection` hands a resolver: the selection, and the window its cursor arguments ask for. */
interface ConnectionQuery {
  cursor?: { id?: number | bigint };
  skip?: number;
  take?: number;
}

/** The type of the id column a connection's cursor holds: `Int` for most models, `BigInt` for webhook deliveries. */
type CursorId<Query> = Query extends { cursor?: { id?: infer Id } } ? Exclude<Id, undefined> : never;

/**
 * A connection's window over `where`, as keyset paging: the rows after (`first`/`after`) or before (`last`/`before`) the
 * cursor's id. Unlike Prisma's cursor (which starts at the cursor row and skips it), this stays right when the cursor's
 * row has been deleted or is one the viewer no longer sees.
 */
export function keysetWindow<Query extends ConnectionQuery, Where extends object>(query: Query, where: Where) {
  const { cursor, skip: _cursorRow, ...rest } = query;
  const id = cursor?.id as CursorId<Query> | undefined;
  const beyond = id === undefined ? {} : { id: (rest.take ?? 0) < 0 ? { lt: id } : { gt: id } };
  return { ...rest, where: { AND: [where, beyond] }, orderBy: listOrder };
}

/**
 * A connection's window over a list ordered by something other than the id (calendar events by start, grading
 * categories by `delta`): Prisma's own cursor, which finds the cursor row's place in `orderBy` and goes on from there
 * (ids break ties, as in the offset list). The cursor holds only the id, so it needs its row (see `refuseLostCursor`).
 */
export function orderedWindow<Query extends ConnectionQuery, Where extends object, Order>(query: Query, where: Where, orderBy: Order) {
  return { ...query, where, orderBy };
}

/**
 * The page of an `orderedWindow`, unless its cursor's row was deleted: Prisma cannot place such a cursor and answers
 * an empty page, which a client would take for the end of the list. Only an empty page is checked, so a walk over a
 * list costs no statement more.
 */
export async function refuseLostCursor<Row>(query: ConnectionQuery, rows: Row[], exists: (id: number) => Promise<unknown>) {
  const id = query.cursor?.id;
  if (rows.length > 0 || id === undefined || (await exists(Number(id)))) return rows;
  throw httpError(400, 'BAD_USER_INPUT', 'The item at this cursor was deleted: page again from the start of the list');
}

/**
 * The `totalCount` of a connection whose list may be hidden (a realm's posts, pages, albums; a school's buildings).
 * Pothos' own `totalCount` skips the field's resolver when only the count is selected, and with it the visibility
 * check that answers null; this field counts from the connection the resolver returned, so a hidden list stays null.
 */
export function checkedTotalCount<Args>(count: (args: Args, context: Context) => Promise<number>) {
  return {
    fields: (t: TotalCountFieldBuilder) => ({
      totalCount: t.int({
        description: 'Number of items in the whole list.',
        resolve: (connection: object, _args: object, context: Context) => count((connection as { args: Args }).args, context),
      }),
    }),
  };
}

interface TotalCountFieldBuilder {
  int(options: {
    description: string;
    extensions?: Record<string, unknown>;
    resolve: (connection: object, args: object, context: Context) => Promise<number>;
  }): GenericFieldRef<number>;
}

/** The `realm` argument of a realm's list, as its count receives it. */
export type RealmArgument = Parameters<typeof realmRef>[0];

/**
 * Pothos' own `totalCount` field with a description: the same field (the extension lets Pothos skip loading the page
 * when only the count is asked), reading the count it attaches (a function on query connections, a number on related ones).
 */
export const describedTotalCount = {
  fields: (t: TotalCountFieldBuilder) => ({
    totalCount: t.int({
      description: 'Number of items in the whole list.',
      extensions: { pothosPrismaTotalCount: true },
      resolve: async (connection: object) => {
        const { totalCount } = connection as { totalCount: number | (() => Promise<number>) };
        return typeof totalCount === 'function' ? totalCount() : totalCount;
      },
    }),
  }),
};

/**
 * The answer for a connection argument Pothos refuses while reading it (a cursor that is not one, a negative `first`):
 * the input's fault, so BAD_USER_INPUT (400) rather than an error with no code. Undefined for any other error.
 */
export function refusedConnectionArgument(error: unknown) {
  if (!(error instanceof GraphQLError) || !(error.originalError instanceof PothosValidationError)) return undefined;
  const { nodes, source, positions, path } = error;
  return new GraphQLError(error.message, { nodes, source, positions, path, extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
}

/** A cursor `arrayConnection` hands out: the item's position, checked exactly (the relay plugin reads `1x` as 1). */
function assertOffsetCursor(cursor: string | null | undefined, argument: 'after' | 'before') {
  if (cursor == null) return;
  let offset = Number.NaN;
  try {
    offset = cursorToOffset(cursor);
  } catch {
    // Not an offset cursor at all: refused below, as a forged one is.
  }
  if (!Number.isSafeInteger(offset) || offset < 0 || offsetToCursor(offset) !== cursor) throw invalidArgument(argument, 'is not a cursor of this list');
}

/**
 * A connection over a list held whole in memory (the trigger catalogue, a section's computed grades, the days
 * attendance was taken): positions are its cursors, and `render` turns only the page's items into its nodes (loading
 * their records, say). Same page sizes as every connection; `totalCount` is the list's length (see `arrayTotalCount`).
 */
export async function arrayConnection<Item, Node = Item>(
  args: DefaultConnectionArguments,
  items: readonly Item[],
  render: (page: Item[]) => Node[] | Promise<Node[]> = (page) => page as unknown as Node[],
) {
  assertOffsetCursor(args.after, 'after');
  assertOffsetCursor(args.before, 'before');
  const { edges, pageInfo, totalCount } = resolveArrayConnection({ args, defaultSize: defaultPageSize, maxSize: maxPageSize }, items);
  const page = edges.flatMap((edge) => (edge ? [edge] : []));
  const nodes = await render(page.map((edge) => edge.node as Item));
  const empty = page.length === 0;
  return {
    edges: page.map((edge, index) => ({ cursor: edge.cursor, node: nodes[index]! })),
    // An empty page has no first or last item, as the Prisma connections answer.
    pageInfo: { ...pageInfo, startCursor: empty ? null : pageInfo.startCursor, endCursor: empty ? null : pageInfo.endCursor },
    totalCount,
  };
}

/** The `totalCount` of an `arrayConnection`: the length it read. */
export const arrayTotalCount = {
  fields: (t: TotalCountFieldBuilder) => ({
    totalCount: t.int({
      description: 'Number of items in the whole list.',
      resolve: async (connection: object) => (connection as { totalCount: number }).totalCount,
    }),
  }),
};

import { type GenericFieldRef, PothosValidationError } from '@pothos/core';
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
  const { cursor, skip: _cursorRow, ...rest } = checkedCursor(query);
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
  return { ...checkedCursor(query), where, orderBy };
}

/**
 * The window, once its cursor is known to hold an id. Pothos decodes any well-formed cursor, whatever it holds (text, a
 * fraction, a date), and Prisma would fail on such an id as on a server error; it is the client's mistake.
 */
function checkedCursor<Query extends ConnectionQuery>(query: Query) {
  const id = query.cursor?.id;
  if (id === undefined || (typeof id === 'number' && Number.isInteger(id) && Math.abs(id) < 2 ** 31)) return query;
  throw invalidArgument((query.take ?? 0) < 0 ? 'before' : 'after', 'is not a cursor of this list');
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
 * Pothos refuses connection arguments it cannot use (a cursor it cannot decode, `first` with `before`) with an error
 * that has no code; it is the client's mistake, reported as every other bad argument is.
 */
export function asUserInputError(error: unknown) {
  if (!(error instanceof GraphQLError) || !(error.originalError instanceof PothosValidationError)) return null;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
  });
}

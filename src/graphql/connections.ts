import {
  type GenericFieldRef,
  type InputFieldMap,
  type InputShapeFromFields,
  type ObjectRef,
  PothosValidationError,
  getConnectionPageSize,
} from '@pothos/core';
import { formatPrismaCursor, getRefFromModel, parsePrismaCursor, prismaModelKey } from '@pothos/plugin-prisma';
import {
  type DefaultConnectionArguments,
  cursorToOffset,
  offsetToCursor,
  resolveArrayConnection,
} from '@pothos/plugin-relay';
import { GraphQLError } from 'graphql';
import type { MaybePromise } from '../auth/maybe-promise';
import { invalidArgument } from '../core/errors';
import type PrismaTypes from '../generated/pothos-types';
import { type AuthenticatedContext, type Context, builder } from './builder';
import { listVisibility } from './connection-fields';
import { type Model, modelField } from './columns';
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

/** What Pothos hands a connection whose cursor names a compound unique (`start_id`): the columns of the cursor's row. */
interface OrderedQuery {
  cursor?: object;
  skip?: number;
  take?: number;
}

/**
 * A connection's window over a list ordered by something other than the id alone (calendar events by start, grading
 * categories by `delta`, grading periods by first day; the id breaks ties, as in the offset list), as keyset paging on
 * the order's columns. The connection's cursor names the compound unique of those columns (`cursor: 'start_id'`), so
 * it holds the row's place in the order, and a cursor whose row was deleted still pages on from that place.
 */
export function orderedWindow<Query extends OrderedQuery, Where extends object, Order extends object[]>(
  model: Model,
  query: Query,
  where: Where,
  orderBy: Order,
) {
  const { cursor, skip: _cursorRow, ...rest } = query;
  return {
    ...rest,
    where: { AND: [where, cursor ? pastCursor(model, cursor, orderBy, (rest.take ?? 0) < 0 ? 'lt' : 'gt') : {}] },
    orderBy,
  };
}

/** The rows past the place a compound cursor names in `orderBy`; a cursor holding other values is refused. */
function pastCursor(model: Model, cursor: object, orderBy: object[], direction: 'gt' | 'lt') {
  const key = orderBy.map((column) => Object.keys(column)[0]!);
  const row = Object.values(cursor)[0] as Record<string, unknown>;
  const position = key.map((column) => row[column]);
  if (!position.every((value, index) => fitsColumn(value, columnType(model, key[index]!)))) {
    throw invalidArgument(direction === 'lt' ? 'before' : 'after', 'is not a cursor of this list');
  }
  return beyondPosition(key, position, direction);
}

const columnType = (model: Model, column: string) => modelField(model, column)!.type;

/** Whether a value read from a cursor can stand for a column of this type: Pothos decodes whatever a cursor holds. */
function fitsColumn(value: unknown, type: string) {
  if (type === 'BigInt') return typeof value === 'bigint';
  if (type === 'DateTime') return value instanceof Date && !Number.isNaN(value.getTime());
  return typeof value === 'number' && Number.isInteger(value) && Math.abs(value) < 2 ** 31;
}

/** The rows past a position in an order of columns (`gt`) or short of it (`lt`): `(a > x) OR (a = x AND b > y)`, and so on. */
function beyondPosition(key: readonly string[], position: readonly unknown[], direction: 'gt' | 'lt') {
  return {
    OR: key.map((column, index) => ({
      ...Object.fromEntries(key.slice(0, index).map((earlier, at) => [earlier, position[at]])),
      [column]: { [direction]: position[index] },
    })),
  };
}

/**
 * The window, once its cursor is known to hold an id. Pothos decodes any well-formed cursor, whatever it holds (text, a
 * fraction, a date), and Prisma would fail on such an id as on a server error; it is the client's mistake.
 */
function checkedCursor<Query extends ConnectionQuery>(query: Query) {
  const id = query.cursor?.id;
  if (id === undefined || fitsColumn(id, 'Int')) return query;
  throw invalidArgument((query.take ?? 0) < 0 ? 'before' : 'after', 'is not a cursor of this list');
}

interface TotalCountFieldBuilder {
  int(options: {
    description: string;
    extensions?: Record<string, unknown>;
    resolve: (connection: object) => Promise<number>;
  }): GenericFieldRef<number>;
}

/** The `realm` argument of a realm's list, as its count receives it. */
export type RealmArgument = Parameters<typeof realmRef>[0];

/**
 * The `totalCount` of every connection: Pothos' own field with a description (the extension lets a Prisma connection
 * skip loading the page when only the count is asked), reading the count the connection carries: a function on Prisma
 * connections (their `totalCount` option), a number on keyset relations (loaded with the parent) and lists in memory.
 */
const totalCountField = (t: TotalCountFieldBuilder) => ({
  totalCount: t.int({
    description: 'Number of items in the whole list.',
    extensions: { pothosPrismaTotalCount: true },
    resolve: async (connection: object) => {
      const { totalCount } = connection as { totalCount: number | (() => Promise<number>) };
      return typeof totalCount === 'function' ? totalCount() : totalCount;
    },
  }),
});

type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer Types> ? Types : never;

/** A node type a connection lists: a Prisma model by name, or an object's ref. */
type ListedType = Model | Pick<ObjectRef<BuilderTypes, unknown>, 'name'>;

const connectionTypes = new Map<string, unknown>();

/**
 * The one connection type of a node type, `<Type>Connection` with `<Type>Edge`, which every field listing that type
 * returns: a fragment on it fits each of them. Every one has `edges`, `nodes`, `pageInfo` and `totalCount`; `fields`
 * adds more (attendance's `totals`), for a type only one field lists.
 */
export function connectionOf<Extra extends object = object>(
  type: ListedType,
  fields?: (t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, Extra>) => Record<string, GenericFieldRef<unknown>>,
) {
  const ref = typeof type === 'string' ? getRefFromModel(type, builder) : type;
  const existing = connectionTypes.get(ref.name);
  if (existing && fields) throw new Error(`${ref.name}Connection is declared already; its fields cannot differ`);
  if (existing) return existing as never;
  const connection = builder.connectionObject({
    type: ref as never,
    name: `${ref.name}Connection`,
    fields: (t) => ({ ...totalCountField(t as never), ...fields?.(t as never) }),
  });
  connectionTypes.set(ref.name, connection);
  return connection as never;
}

/**
 * Options of a connection over a list that may be hidden from the viewer (a realm's posts, a school's buildings): the
 * field answers null unless `readable` holds, checked before anything is read (see src/graphql/connection-fields.ts).
 */
export function hiddenUnless<Args, Parent = unknown>(
  readable: (args: Args, context: AuthenticatedContext, parent: Parent) => MaybePromise<boolean>,
) {
  return {
    nullable: true as const,
    extensions: {
      [listVisibility]: (parent: Parent, args: Args, context: AuthenticatedContext) => readable(args, context, parent),
    },
  };
}

type ConnectionArgs = { first?: number | null; last?: number | null; after?: string | null; before?: string | null };
type Row = Record<string, unknown>;
/** A row as it reaches a nested connection: its relation's page and the relation's count, loaded with the row. */
type LoadedParent = { _count?: Record<string, number> } & Row;
/**
 * The `nestedSelection` Pothos hands a field's selection: what the document selects of the nodes (found under any of
 * `paths`), with a relation query.
 */
type NestedSelection = (
  query: object,
  include: { getType: () => string; paths: { name: string }[][] },
) => { select?: object };

/** Where a connection's nodes are selected: under `nodes`, and under `edges { node }`. */
const nodePaths = [[{ name: 'nodes' }], [{ name: 'edges' }, { name: 'node' }]];

/** The part of a Prisma object's field builder that makes a Relay connection field (the Relay plugin's `t.connection`). */
interface ConnectionFieldBuilder {
  connection(options: never, connectionOptions: never): GenericFieldRef<unknown>;
}

/**
 * A list relation as a Relay connection loaded with its parent's query, as Pothos' `relatedConnection` is (one
 * statement for a page of parents), but paged by keyset: `after` is every row past the cursor's place in `order`, and
 * `before` every row short of it. Prisma's own cursor starts at the cursor's row, so once that row is deleted it
 * answers an empty page, which a client takes for the end of the list; a keyset needs no row to stand on.
 *
 * A cursor holds its row's `order` columns in Pothos' cursor encoding, so an id-ordered list's cursor is the id alone,
 * as the top-level connections' are (`connectionOptions`), and a list in another order holds its order key and the id.
 * `totalCount` counts the rows `where` admits, as `relatedConnection` counts them.
 *
 * The relation's rows are the nodes, or (`through`) lead to them: a user's enrollments to the sections they are in,
 * each row a node's place in the list (a section's id among the user's enrollments).
 */
// biome-ignore lint/complexity/noBannedTypes: `{}` is Pothos' own default for a field without arguments
export function keysetRelatedConnection<Node extends Model, Rows extends Model = Node, Args extends InputFieldMap = {}>(
  t: ConnectionFieldBuilder,
  relation: string,
  options: {
    /** The node's type: a Prisma object of the relation's model, or of `through.node`'s. */
    type: { modelName: string; [prismaModelKey]: { Name: Node } };
    description: string;
    /** The relation's model, and the relation of its rows that is their node, when the rows are not the nodes. */
    through?: { model: Rows; node: string };
    /** The list's order, ascending column by column; the last column is unique (the id) so the order is total. */
    order: readonly Partial<Record<keyof PrismaTypes[Rows]['Shape'] & string, 'asc'>>[];
    args?: Args;
    where?: (args: InputShapeFromFields<Args>, context: Context) => PrismaTypes[Rows]['Where'];
    /** Whether the viewer reads this parent's list at all; the field answers null when not. */
    readable?: (parent: { id: number }, context: AuthenticatedContext) => MaybePromise<boolean>;
  },
) {
  const modelName = options.type.modelName as Node;
  const rowModel = options.through?.model ?? modelName;
  const key = options.order.map((column) => Object.keys(column)[0]!);
  const keyTypes = key.map((column) => columnType(rowModel, column));
  const cursorOf = (row: Row) => formatPrismaCursor(row, key.length === 1 ? key[0]! : key);

  /** The key of the row a cursor stands for; anything else (another list's cursor, a forged one) is refused. */
  function positionOf(argument: 'after' | 'before', cursor: string) {
    let decoded: unknown;
    try {
      decoded = parsePrismaCursor(cursor);
    } catch {
      throw invalidArgument(argument, 'is not a cursor of this list');
    }
    const values = key.length === 1 ? [decoded] : decoded;
    if (
      !Array.isArray(values) ||
      values.length !== key.length ||
      !values.every((value, index) => fitsColumn(value, keyTypes[index]!))
    ) {
      throw invalidArgument(argument, 'is not a cursor of this list');
    }
    return values as unknown[];
  }

  /** The page the arguments ask for, checked as Pothos checks `relatedConnection`'s; one row more tells if more follow. */
  function windowOf(args: ConnectionArgs) {
    if (args.first != null && args.first < 0) throw invalidArgument('first', 'must be 0 or more');
    if (args.last != null && args.last < 0) throw invalidArgument('last', 'must be 0 or more');
    if (args.after != null && args.before != null) throw invalidArgument('before', 'cannot be given with after');
    if (args.before != null && args.first != null)
      throw invalidArgument('first', 'cannot be given with before: page backwards with last');
    if (args.after != null && args.last != null)
      throw invalidArgument('last', 'cannot be given with after: page forwards with first');
    const { limit } = getConnectionPageSize({ args, defaultSize: defaultPageSize, maxSize: maxPageSize });
    // `first` with `last` reads forwards: the page `first` asks for, whose last items the field keeps.
    return { limit, backwards: args.before != null || (args.last != null && args.first == null) };
  }

  /**
   * What the field loads with its parent row. This is Pothos' own hook for a field's selection (the `select` option
   * becomes it), taken directly because it is also told what the document selects beneath the field: the count is
   * loaded only when `totalCount` is asked, and the page only when more than the count is, as `relatedConnection` does.
   */
  const pothosPrismaSelect = (
    args: InputShapeFromFields<Args> & ConnectionArgs,
    context: Context,
    nestedSelection: NestedSelection,
    selected: () => ReadonlySet<string>,
  ) => {
    const { limit, backwards } = windowOf(args);
    const where = options.where?.(args, context) ?? {};
    const keyset =
      args.after != null
        ? beyondPosition(key, positionOf('after', args.after), 'gt')
        : args.before != null
          ? beyondPosition(key, positionOf('before', args.before), 'lt')
          : {};
    const fields = selected();
    const countOnly = [...fields].every((field) => field === 'totalCount' || field === '__typename');
    // A negative take is Prisma's last rows of the order, still answered in the order.
    const window = { where: { AND: [where, keyset] }, orderBy: options.order, take: backwards ? -limit : limit };
    const include = { getType: () => modelName, paths: nodePaths };
    const keyColumns = Object.fromEntries(key.map((column) => [column, true]));
    const throughNode = options.through?.node;
    let page: object | undefined;
    if (countOnly) page = undefined;
    else if (throughNode) {
      const node = nestedSelection(true as never, include);
      page = { ...window, select: { ...keyColumns, [throughNode]: Object.keys(node).length ? node : true } };
    } else {
      const rows = nestedSelection(window, include);
      // A node type that selects its columns may not select the key; the cursor needs it.
      page = rows.select ? { ...rows, select: { ...keyColumns, ...rows.select } } : rows;
    }
    const count = fields.has('totalCount') ? { _count: { select: { [relation]: { where } } } } : {};
    // `readable` judges the parent by its id.
    return { select: { [relation]: page, ...count, ...(options.readable ? { id: true } : {}) } };
  };

  const resolve = (parent: LoadedParent, args: ConnectionArgs) => {
    const { limit, backwards } = windowOf(args);
    const rows = (parent[relation] ?? []) as Row[];
    const more = rows.length === limit;
    const page = more ? (backwards ? rows.slice(1) : rows.slice(0, -1)) : rows;
    const throughNode = options.through?.node;
    const edges = page.map((row) => ({ cursor: cursorOf(row), node: throughNode ? row[throughNode] : row }));
    return {
      totalCount: parent._count?.[relation],
      edges,
      pageInfo: {
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges.at(-1)?.cursor ?? null,
        // As Pothos' connections answer: a page after a cursor reports items before it, and a page before a cursor items
        // after it, without looking; the other side is known from the extra row.
        hasPreviousPage: args.after != null ? true : backwards ? more : false,
        hasNextPage: args.before != null ? true : backwards ? false : more,
      },
    };
  };

  const { readable } = options;
  const visibility = readable && hiddenUnless((_args, context, parent: { id: number }) => readable(parent, context));
  return t.connection(
    {
      type: options.type,
      description: options.description,
      args: options.args,
      nullable: visibility !== undefined,
      extensions: { pothosPrismaSelect, ...visibility?.extensions },
      resolve,
    } as never,
    connectionOf(modelName),
  );
}

/**
 * The answer for a connection argument Pothos refuses while reading it (a cursor that is not one, a negative `first`):
 * the input's fault, so BAD_USER_INPUT (400) rather than an error with no code. Undefined for any other error.
 */
export function refusedConnectionArgument(error: unknown) {
  if (!(error instanceof GraphQLError) || !(error.originalError instanceof PothosValidationError)) return undefined;
  const { nodes, source, positions, path } = error;
  return new GraphQLError(error.message, {
    nodes,
    source,
    positions,
    path,
    extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
  });
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
  if (!Number.isSafeInteger(offset) || offset < 0 || offsetToCursor(offset) !== cursor)
    throw invalidArgument(argument, 'is not a cursor of this list');
}

/**
 * A connection over a list held whole in memory (the trigger catalogue, a section's computed grades, the days
 * attendance was taken): positions are its cursors, and `render` turns only the page's items into its nodes (loading
 * their records, say). Same page sizes as every connection; `totalCount` is the list's length.
 */
export async function arrayConnection<Item, Node = Item>(
  args: DefaultConnectionArguments,
  items: readonly Item[],
  render: (page: Item[]) => Node[] | Promise<Node[]> = (page) => page as unknown as Node[],
) {
  assertOffsetCursor(args.after, 'after');
  assertOffsetCursor(args.before, 'before');
  const { edges, pageInfo, totalCount } = resolveArrayConnection(
    { args, defaultSize: defaultPageSize, maxSize: maxPageSize },
    items,
  );
  const page = edges.flatMap((edge) => (edge ? [edge] : []));
  const nodes = await render(page.map((edge) => edge.node as Item));
  const empty = page.length === 0;
  return {
    edges: page.map((edge, index) => ({ cursor: edge.cursor, node: nodes[index]! })),
    // An empty page has no first or last item, as the Prisma connections answer.
    pageInfo: {
      ...pageInfo,
      startCursor: empty ? null : pageInfo.startCursor,
      endCursor: empty ? null : pageInfo.endCursor,
    },
    totalCount,
  };
}

import { httpError } from '../core/errors';
import type PrismaTypes from '../generated/pothos-types';
import { builder } from './builder';

export const defaultPageSize = 20;
export const maxPageSize = 200;

export const pageArgs = builder.args((t) => ({
  start: t.int({ defaultValue: 0, description: 'Offset of the first item (0-based).' }),
  limit: t.int({ defaultValue: defaultPageSize, description: `Page size; at most ${maxPageSize}.` }),
}));

type Model = keyof PrismaTypes & string;

/**
 * Prisma's findMany and count of one model, for the filter a list applies. `findMany` receives the window, the order
 * and Pothos' selection, so relations of the items load in the same statements.
 */
export interface ListSource<Row> {
  findMany(query: { skip: number; take: number; orderBy: { id: 'asc' } }): Promise<Row[]>;
  count(): Promise<number>;
}

/** The window of a list a statement reads: `where` narrows the list to an id range (empty: the whole list). */
export interface IdWindow {
  where: { id?: { gte: number; lte: number } };
  skip: number;
  take: number;
  orderBy: { id: 'asc' | 'desc' };
}

/**
 * A list in ascending id order whose `count` is exactly the number of rows `findMany` pages over, as one snapshot
 * would see them. Such a list is read from whichever end a page is nearer to, and a page far from both ends by its
 * ids first (see `readPage`). Both finders add `window.where` to the list's filter.
 */
export interface IdListSource<Row> {
  findMany(query: IdWindow): Promise<Row[]>;
  /** The ids of a window, and nothing else: no relation is loaded for the rows the offset passes over. */
  findIds(window: IdWindow): Promise<{ id: number }[]>;
  count(): Promise<number>;
  /**
   * A window from the list's start and the count, read in one statement, for a selection the source can answer that
   * way; undefined for any other (`findMany` and `count` then read them apart).
   */
  findManyCounted?(query: object, window: IdWindow): Promise<{ rows: Row[]; total: number }> | undefined;
}

/** One page of a list, with the same start/limit semantics as the /v1 paging envelope. */
interface Page<Row> {
  start: number;
  limit: number;
  source: ListSource<Row> | IdListSource<Row>;
  /** The count, asked once per page: `items` may need it to choose its end, and `total` answers it. */
  total(): Promise<number>;
  /** The page's rows and the count, when `items` read them in one statement (see `IdListSource.findManyCounted`). */
  counted?: Promise<{ rows: Row[]; total: number }>;
}

/** Checks and clamps paging arguments the way the REST facade does. */
export function pageWindow(args: { start?: number | null; limit?: number | null }): { start: number; limit: number } {
  const start = args.start ?? 0;
  const limit = args.limit ?? defaultPageSize;
  if (start < 0) throw httpError(400, 'BAD_USER_INPUT', 'start must be 0 or more');
  if (limit < 1) throw httpError(400, 'BAD_USER_INPUT', 'limit must be 1 or more');
  return { start, limit: Math.min(limit, maxPageSize) };
}

/**
 * How many rows a statement may pass over (OFFSET) while building the items' relations for each of them: beyond this,
 * a page reads its ids first. PostgreSQL evaluates the select list, relations included, for every row OFFSET skips.
 */
const directSkipLimit = maxPageSize;

const isIdList = <Row>(source: ListSource<Row> | IdListSource<Row>): source is IdListSource<Row> => 'findIds' in source;

/**
 * The items of a page. A plain list reads its window in one statement. An id list:
 * - from its start when the page begins within `directSkipLimit` rows of it: one statement, issued beside the count,
 *   or holding the count when the source reads both at once;
 * - otherwise after the count, from whichever end is nearer, so that the last page costs what the first does
 *   (`ORDER BY id DESC` with the offset counted from the end, then reversed); a page at or past the end needs no
 *   statement besides the count;
 * - and when that end is still more than `directSkipLimit` rows away, by its ids first (an index scan that builds
 *   nothing for the rows it passes over), then the rows between the first and the last of those ids with their
 *   relations: the list's rows in that id range are exactly the page.
 */
async function readPage<Row>(page: Page<Row>, query: object): Promise<Row[]> {
  const { start, limit, source } = page;
  // Read up front: Pothos counts the selection as used once it is read, and a page past the end needs no statement.
  const selection = { ...query };
  const forwards: IdWindow = { where: {}, skip: start, take: limit, orderBy: { id: 'asc' } };
  if (!isIdList(source)) return source.findMany({ ...selection, skip: start, take: limit, orderBy: { id: 'asc' } });
  if (start <= directSkipLimit) {
    page.counted = source.findManyCounted?.(selection, forwards);
    return page.counted ? (await page.counted).rows : source.findMany({ ...selection, ...forwards });
  }
  const total = await page.total();
  if (start >= total) return [];
  const fromEnd = total - start - limit;
  const window: IdWindow =
    fromEnd < start
      ? { where: {}, skip: Math.max(0, fromEnd), take: Math.min(limit, total - start), orderBy: { id: 'desc' } }
      : forwards;
  if (window.skip <= directSkipLimit) {
    const rows = await source.findMany({ ...selection, ...window });
    return window.orderBy.id === 'desc' ? rows.reverse() : rows;
  }
  const ids = (await source.findIds(window)).map(({ id }) => id);
  if (ids.length === 0) return [];
  const [low, high] = [Math.min(...ids), Math.max(...ids)];
  return source.findMany({
    ...selection,
    where: { id: { gte: low, lte: high } },
    skip: 0,
    take: limit,
    orderBy: { id: 'asc' },
  });
}

/** Declares `<Model>Page { items, total, start, limit }` for any Prisma model. */
export function pageOf<Name extends Model>(model: Name, description: string) {
  return builder.objectRef<Page<PrismaTypes[Name]['Shape']>>(`${model}Page`).implement({
    description,
    fields: (t) => ({
      items: t.prismaField({
        type: [model],
        description: 'The items of this page, in ascending id order.',
        resolve: (query, page) => readPage(page, query),
      }),
      total: t.int({ description: 'Number of items in the whole list.', resolve: (page) => page.total() }),
      start: t.exposeInt('start', { description: 'Offset of the first item.' }),
      limit: t.exposeInt('limit', { description: 'Page size used.' }),
    }),
  });
}

/**
 * A page of a list for paging arguments. GraphQL resolves `items` and `total` side by side, so the page and the count
 * are issued together.
 */
export function paged<Row>(args: { start?: number | null; limit?: number | null }, source: ListSource<Row>): Page<Row> {
  return pageFrom(args, source);
}

/**
 * A page of an id list (see `IdListSource`): at most three statements whatever the offset and the list's length (the
 * count, the page's ids, its rows), the first and the last page in two (see `readPage`).
 */
export function pagedById<Row>(
  args: { start?: number | null; limit?: number | null },
  source: IdListSource<Row>,
): Page<Row> {
  return pageFrom(args, source);
}

function pageFrom<Row>(
  args: { start?: number | null; limit?: number | null },
  source: ListSource<Row> | IdListSource<Row>,
): Page<Row> {
  const window = pageWindow(args);
  const itemsMayCount = isIdList(source) && source.findManyCounted !== undefined && window.start <= directSkipLimit;
  let total: Promise<number> | undefined;
  const page: Page<Row> = {
    source,
    total: () => (total ??= itemsMayCount ? countAfterItems(page) : source.count()),
    counted: undefined,
    ...window,
  };
  return page;
}

/**
 * The count of a page whose items may carry it. GraphQL resolves `total` and `items` side by side, in the document's
 * order, so the count waits one microtask, until `items` has started its read.
 */
async function countAfterItems<Row>(page: Page<Row>): Promise<number> {
  await null;
  return page.counted ? (await page.counted).total : page.source.count();
}

/**
 * The options of an offset list (`start`/`limit`, answered as a `*Page`), kept for the /v1 facade whose documents select
 * it: deprecated in the schema, so that GraphQL clients (and GraphiQL) page with the connection beside it instead.
 */
export const offsetListBeside = (connectionField: string) => ({
  deprecationReason: `Offset paging for the /v1 facade; page with \`${connectionField}\`.`,
});

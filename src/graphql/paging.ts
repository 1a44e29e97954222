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

/** One page of a list, with the same start/limit semantics as the /v1 paging envelope. */
interface Page<Row> {
  start: number;
  limit: number;
  source: ListSource<Row>;
}

/** Checks and clamps paging arguments the way the REST facade does. */
export function pageWindow(args: { start?: number | null; limit?: number | null }): { start: number; limit: number } {
  const start = args.start ?? 0;
  const limit = args.limit ?? defaultPageSize;
  if (start < 0) throw httpError(400, 'BAD_USER_INPUT', 'start must be 0 or more');
  if (limit < 1) throw httpError(400, 'BAD_USER_INPUT', 'limit must be 1 or more');
  return { start, limit: Math.min(limit, maxPageSize) };
}

/** Declares `<Model>Page { items, total, start, limit }` for any Prisma model. */
export function pageOf<Name extends Model>(model: Name, description: string) {
  return builder.objectRef<Page<PrismaTypes[Name]['Shape']>>(`${model}Page`).implement({
    description,
    fields: (t) => ({
      items: t.prismaField({
        type: [model],
        description: 'The items of this page, in ascending id order.',
        resolve: (query, page) => page.source.findMany({ ...query, skip: page.start, take: page.limit, orderBy: { id: 'asc' } }),
      }),
      total: t.int({ description: 'Number of items in the whole list.', resolve: (page) => page.source.count() }),
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
  return { ...pageWindow(args), source };
}

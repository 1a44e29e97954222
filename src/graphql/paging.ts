import { builder } from './builder';
import { httpError } from '../core/errors';

export const defaultPageSize = 20;
export const maxPageSize = 200;

/** One page of a list, with the same start/limit semantics as the /v1 paging envelope. */
export interface PageSource {
  start: number;
  limit: number;
  /** Loads the page's items; receives Pothos' Prisma `query` so relations of the items load in the same statements. */
  items(query: object): Promise<unknown[]>;
  total(): Promise<number>;
}

export const pageArgs = builder.args((t) => ({
  start: t.int({ defaultValue: 0, description: 'Offset of the first item (0-based).' }),
  limit: t.int({ defaultValue: defaultPageSize, description: `Page size; at most ${maxPageSize}.` }),
}));

/** Checks and clamps paging arguments the way the REST facade does. */
function pageWindow(args: { start?: number | null; limit?: number | null }): { start: number; limit: number } {
  const start = args.start ?? 0;
  const limit = args.limit ?? defaultPageSize;
  if (start < 0) throw httpError(400, 'BAD_USER_INPUT', 'start must be 0 or more');
  if (limit < 1) throw httpError(400, 'BAD_USER_INPUT', 'limit must be 1 or more');
  return { start, limit: Math.min(limit, maxPageSize) };
}

/** Declares `<Name>Page { items, total, start, limit }` for a Prisma model. */
export function pageOf<Model extends 'Group' | 'School' | 'BlogPost' | 'User' | 'GroupCategory' | 'Section'>(
  model: Model,
  name: string,
  description: string,
) {
  return builder.objectRef<PageSource>(`${name}Page`).implement({
    description,
    fields: (t) => ({
      items: t.prismaField({
        type: [model],
        description: 'The items of this page, in ascending id order.',
        resolve: (query, page) => page.items(query) as never,
      }),
      total: t.int({ description: 'Number of items in the whole list.', resolve: (page) => page.total() }),
      start: t.exposeInt('start', { description: 'Offset of the first item.' }),
      limit: t.exposeInt('limit', { description: 'Page size used.' }),
    }),
  });
}

/** A PageSource for paging arguments: `items` receives Prisma's `skip`/`take` for the window. */
export function paged(
  args: { start?: number | null; limit?: number | null },
  items: (query: object, window: { skip: number; take: number }) => Promise<unknown[]>,
  total: () => Promise<number>,
): PageSource {
  const { start, limit } = pageWindow(args);
  return { start, limit, items: (query) => items(query, { skip: start, take: limit }), total };
}

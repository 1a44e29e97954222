import { expect } from 'vitest';

/** A page of a Relay connection as the tests select it. */
export type ConnectionPage<Node = Record<string, unknown>> = {
  edges: { cursor: string; node: Node }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number;
};

/**
 * Every page of a connection, walking forwards with `first`/`after` or backwards with `last`/`before`: `request` asks
 * for the page with the window arguments given (they use the `$cursor` variable) and answers it.
 */
export async function walkConnection<Page extends ConnectionPage<unknown>>(
  request: (window: string, cursor: string | null) => Promise<Page>,
  direction: 'forwards' | 'backwards',
  size: number,
) {
  const pages: Page[] = [];
  let cursor: string | null = null;
  for (;;) {
    const window = direction === 'forwards' ? `first: ${size}, after: $cursor` : `last: ${size}, before: $cursor`;
    const page = await request(window, cursor);
    pages.push(page);
    const more = direction === 'forwards' ? page.pageInfo.hasNextPage : page.pageInfo.hasPreviousPage;
    if (!more) return pages;
    cursor = direction === 'forwards' ? page.pageInfo.endCursor : page.pageInfo.startCursor;
    expect(pages.length).toBeLessThan(50);
  }
}

import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { directQuery, maxNamedStatements } from '../../src/db/database';
import { useTestServer } from '../support/harness';

useTestServer();

afterEach(() => {
  vi.restoreAllMocks();
});

/** The statements directQuery hands pg's client from now until the test ends. */
function recordSent() {
  const sent: { name?: string; text: string }[] = [];
  const query = pg.Client.prototype.query;
  vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const [config] = args;
    if (config && typeof config === 'object' && 'text' in config) sent.push(config as { name?: string; text: string });
    return (query as (...args: unknown[]) => unknown).apply(this, args) as never;
  });
  return sent;
}

describe('directQuery on PostgreSQL', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'sends each text as one named prepared statement, with its own values each time',
    async () => {
      const sent = recordSent();
      const doubled = 'SELECT $1::int4 * 2 AS n';
      const tripled = 'SELECT $1::int4 * 3 AS n';
      expect(await directQuery(doubled, [2])).toEqual([{ n: 4 }]);
      expect(await directQuery(doubled, [5])).toEqual([{ n: 10 }]);
      expect(await directQuery(tripled, [5])).toEqual([{ n: 15 }]);
      const [first, second, third] = sent.filter(({ text }) => text === doubled || text === tripled);
      expect(first!.name).toBeTruthy();
      expect(second!.name).toBe(first!.name);
      expect(third!.name).toBeTruthy();
      expect(third!.name).not.toBe(first!.name);
    },
  );

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    `prepares at most ${maxNamedStatements} texts, and sends the others unnamed`,
    async () => {
      const sent = recordSent();
      const texts = Array.from({ length: maxNamedStatements + 20 }, (_, index) => `SELECT $1::int4 + ${index} AS n`);
      for (const [index, text] of texts.entries()) expect(await directQuery(text, [1])).toEqual([{ n: 1 + index }]);
      const names = new Set(sent.map(({ name }) => name).filter(Boolean));
      expect(names.size).toBeGreaterThan(0);
      expect(names.size).toBeLessThanOrEqual(maxNamedStatements);
      expect(sent.at(-1)).toMatchObject({ text: texts.at(-1) });
      expect(sent.at(-1)!.name).toBeUndefined();
    },
  );
});

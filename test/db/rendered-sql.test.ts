import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { SqlQuery } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsDir, observedAdapter } from '../../src/db/database';
import { applyMigrations, pgliteSession } from '../../src/db/migrate';
import { PrismaClient } from '../../src/generated/prisma/client';

// scripts/patch-prisma-runtime.mjs: Prisma renders the SQL of a plain template once per query plan (docs/performance.md, sixth
// throughput round). The driver gets the same statements either way, so these check the values each one carries.
describe("Prisma's SQL for a query's shape", () => {
  const sent: SqlQuery[] = [];
  let pglite: PGlite;
  let prisma: PrismaClient;

  beforeAll(async () => {
    pglite = await PGlite.create();
    await applyMigrations(pgliteSession(pglite), migrationsDir);
    prisma = new PrismaClient({ adapter: observedAdapter(new PrismaPGlite(pglite), (query) => sent.push(query)) });
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await pglite?.close();
  });

  const statementsInto = (table: string) => sent.filter(({ sql }) => sql.startsWith(`INSERT INTO "public"."${table}"`));

  it('is rendered once per shape by the installed runtime, both of its builds', () => {
    // The statements the driver gets are the same either way; what the patch changes is the work before them.
    const runtime = dirname(createRequire(import.meta.url).resolve('@prisma/client/package.json'));
    for (const build of ['runtime/client.js', 'runtime/client.mjs']) {
      expect([build, readFileSync(join(runtime, build), 'utf8').includes('__lecternRenderedSql')]).toEqual([build, true]);
    }
  });

  it('hands each statement of a shape its own values, concurrent ones too', async () => {
    await prisma.district.create({ data: { title: 'First', timeZone: 'UTC' } });
    await Promise.all(['Second', 'Third'].map((title) => prisma.district.create({ data: { title, timeZone: 'Europe/Paris' } })));
    const [first, ...later] = statementsInto('districts');
    expect(later).toHaveLength(2);
    for (const statement of later) {
      expect(statement.sql).toBe(first!.sql);
      expect(statement.argTypes).toEqual(first!.argTypes);
    }
    // The two concurrent ones in either order.
    expect([first, ...later].map(({ args }) => args.slice(0, 2)).sort()).toEqual([
      ['First', 'UTC'],
      ['Second', 'Europe/Paris'],
      ['Third', 'Europe/Paris'],
    ]);
    const stored = await prisma.district.findMany({ orderBy: { title: 'asc' }, select: { title: true, timeZone: true } });
    expect(stored).toEqual([
      { title: 'First', timeZone: 'UTC' },
      { title: 'Second', timeZone: 'Europe/Paris' },
      { title: 'Third', timeZone: 'Europe/Paris' },
    ]);
  });

  it('is rendered per statement when its text depends on the values: a list of ids, several rows at once', async () => {
    const districts = await prisma.district.findMany({ orderBy: { id: 'asc' }, select: { id: true } });
    const ids = districts.map(({ id }) => id);
    const lookups: string[] = [];
    for (const some of [ids.slice(0, 1), ids.slice(0, 2), ids]) {
      const before = sent.length;
      const found = await prisma.district.findMany({ where: { id: { in: some } }, orderBy: { id: 'asc' }, select: { id: true } });
      expect(found.map(({ id }) => id)).toEqual(some);
      lookups.push(...sent.slice(before).map(({ sql }) => sql));
    }
    // One placeholder per id: three texts.
    expect(new Set(lookups).size).toBe(3);
    for (const count of [1, 3]) {
      const { count: created } = await prisma.district.createMany({
        data: Array.from({ length: count }, (_, index) => ({ title: `Batch of ${count}, ${index}` })),
      });
      expect(created).toBe(count);
    }
    const batches = statementsInto('districts').filter(({ args }) => String(args[0]).startsWith('Batch'));
    expect(batches.map(({ args }) => args.filter((value) => String(value).startsWith('Batch')))).toEqual([
      ['Batch of 1, 0'],
      ['Batch of 3, 0', 'Batch of 3, 1', 'Batch of 3, 2'],
    ]);
  });
});

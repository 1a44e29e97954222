import { Prisma } from '../generated/prisma/client';

const identifier = (name: string) => {
  if (!/^\w+$/.test(name)) throw new Error(`not a column name: ${name}`);
  return `"${name}"`;
};

/**
 * `INSERT INTO table (the columns given) VALUES (...) RETURNING columns` for a statement of its own making (a
 * one-statement create): a column left out, or undefined, takes the database's default. The returned columns are named
 * rather than `*`, so that a prepared statement's result keeps its shape when a migration adds a column while an
 * instance of the version before still runs.
 */
export function insertReturning(
  table: string,
  values: Record<string, unknown>,
  returning: readonly string[],
): Prisma.Sql {
  const given = Object.entries(values).filter(([, value]) => value !== undefined);
  return Prisma.sql`INSERT INTO ${Prisma.raw(identifier(table))} (${Prisma.raw(given.map(([column]) => identifier(column)).join(', '))})
    VALUES (${Prisma.join(given.map(([, value]) => value))}) RETURNING ${Prisma.raw(returning.map(identifier).join(', '))}`;
}

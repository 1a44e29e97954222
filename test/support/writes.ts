import { expect } from 'vitest';
import { db } from '../../src/db/database';
import { Prisma } from '../../src/generated/prisma/client';
import { watchDomainEvents } from './factories';

/**
 * Models a request writes whatever its outcome: every signed request records its OAuth nonce (replay protection) and
 * rate-limit counters count refused requests too. Domain events are checked on their own, so that a failure names them.
 */
const bookkeeping: readonly Prisma.ModelName[] = ['OAuthNonce', 'RateLimit', 'DomainEvent'];
/** Every other model of the schema, so that a resource added later is covered without anyone listing it here. */
const models = Object.values(Prisma.ModelName).filter((model) => !bookkeeping.includes(model));

type Delegate = { findMany(): Promise<Record<string, unknown>[]> };
const delegate = (model: Prisma.ModelName) =>
  (db() as unknown as Record<string, Delegate>)[`${model[0]!.toLowerCase()}${model.slice(1)}`]!;
const serialize = (row: Record<string, unknown>) =>
  JSON.stringify(row, (_key, value) => (typeof value === 'bigint' ? `${value}` : value));

/** Every row of every model, each as one string: one query per model. */
const snapshot = async () =>
  new Map(
    await Promise.all(
      models.map(async (model) => [model, new Set((await delegate(model).findMany()).map(serialize))] as const),
    ),
  );

/**
 * Runs an action that must write nothing (a refused or invalid request, or several), checks that it created, changed
 * or deleted no row of any model and recorded no domain event, and returns the action's result for further checks.
 * A failure lists, per model, the rows that are gone (deleted, or as they were before a change) and the rows added.
 */
export async function expectNothingWritten<T>(action: () => Promise<T>): Promise<T> {
  const [before, events] = [await snapshot(), await watchDomainEvents()];
  const result = await action();
  const after = await snapshot();
  const written: Record<string, { gone: unknown[]; added: unknown[] }> = {};
  for (const model of models) {
    const [was, is] = [before.get(model)!, after.get(model)!];
    const gone = [...was].filter((row) => !is.has(row));
    const added = [...is].filter((row) => !was.has(row));
    if (gone.length > 0 || added.length > 0)
      written[model] = { gone: gone.map((row) => JSON.parse(row)), added: added.map((row) => JSON.parse(row)) };
  }
  expect(written, 'rows written by an action that must write nothing').toEqual({});
  expect(await events(), 'domain events recorded by an action that must write nothing').toEqual([]);
  return result;
}

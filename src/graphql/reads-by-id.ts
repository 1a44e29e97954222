import { perTurnLoader } from '../db/per-turn-loader';
import type { Model } from './columns';
import { delegateOf } from './nodes';
import type { PrismaQuery } from './operations';

/**
 * A model's rows read by id with SQL of its own instead of Prisma's, for the selections `answers` accepts: for the
 * hottest reads, where Prisma's client costs more than the statement (docs/performance.md, "Mechanisms"). `byIds` must
 * answer exactly as Prisma would, which a test holds it to field by field.
 */
export interface DirectRows {
  answers(selection: PrismaQuery): boolean;
  byIds(ids: number[], selection: PrismaQuery): Promise<{ id: number }[]>;
}

interface Read {
  model: Model;
  selection: PrismaQuery;
  id: number;
  direct?: DirectRows;
}

/** A selection's filters may hold BigInt values, which JSON has no form for. */
const bigIntsAsText = (_key: string, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value);

/**
 * The reads of one turn: one statement for each model and selection. A failed statement fails only its own reads
 * (DataLoader rejects the loads whose value is an Error).
 */
async function readTogether(reads: readonly Read[]): Promise<unknown[]> {
  const alike = new Map<string, Read[]>();
  for (const read of reads) {
    const key = `${read.model}:${JSON.stringify(read.selection, bigIntsAsText)}`;
    const batch = alike.get(key);
    if (batch) batch.push(read);
    else alike.set(key, [read]);
  }
  const found = new Map<Read, unknown>();
  await Promise.all(
    [...alike.values()].map(async (batch) => {
      const [first] = batch as [Read];
      const { model, selection, direct } = first;
      try {
        const readDirectly = direct?.answers(selection) ?? false;
        if (batch.length === 1 && !readDirectly) {
          found.set(first, await delegateOf(model).findUnique({ ...selection, where: { id: first.id } }));
          return;
        }
        const ids = [...new Set(batch.map(({ id }) => id))];
        // The rows are matched to their readers by id, which a `select` might leave out.
        const query = selection.select ? { ...selection, select: { ...selection.select, id: true } } : selection;
        const rows = readDirectly
          ? await direct!.byIds(ids, selection)
          : await delegateOf(model).findMany({ ...query, where: { id: { in: ids } } });
        const byId = new Map(rows.map((row) => [row.id, row]));
        for (const read of batch) found.set(read, byId.get(read.id) ?? null);
      } catch (error) {
        for (const read of batch) found.set(read, error);
      }
    }),
  );
  return reads.map((read) => found.get(read) ?? null);
}

const reads = perTurnLoader<Read, unknown>(readTogether);

/**
 * One row of `model` by id with Prisma's `selection`, read together with the rows other requests ask of the same
 * model with the same selection in this turn of the event loop (see `perTurnLoader`): one `findMany ... WHERE id IN
 * (...)` for all of them, and `findUnique` as before for a request that is alone. Prisma batches `findUnique` calls
 * itself, but only within one tick, which the resolvers of one request share and two requests never do. Nothing
 * outlives the turn: every row is read after the requests asking for it arrived. A model's `direct` reading, when it
 * answers the selection, reads them instead of Prisma.
 */
export function readById<Row>(
  model: Model,
  selection: PrismaQuery,
  id: number,
  direct?: DirectRows,
): Promise<Row | null> {
  return reads.load({ model, selection, id, direct }) as Promise<Row | null>;
}

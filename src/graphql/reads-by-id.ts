import type PrismaTypes from '../generated/pothos-types';
import { delegateOf } from './nodes';

type Model = keyof PrismaTypes & string;
type Selection = { select?: Record<string, unknown>; include?: Record<string, unknown> };

interface Reader {
  id: number;
  resolve(row: unknown): void;
  reject(error: unknown): void;
}

interface Batch {
  model: Model;
  selection: Selection;
  readers: Reader[];
}

/** What this turn of the event loop has asked so far, by model and selection. */
const waiting = new Map<string, Batch>();

/**
 * One row of `model` by id with Prisma's `selection`, read together with the rows other requests ask of the same
 * model with the same selection in this turn of the event loop: one `findMany ... WHERE id IN (...)` for all of them,
 * and `findUnique` as before for a request that is alone. Concurrent requests arrive in one turn, and under load each
 * round trip to PostgreSQL costs the server several times the CPU of the statement it carries (docs/performance.md,
 * ninth round). Prisma batches `findUnique` calls itself, but only within one tick, which the resolvers of one request
 * share and two requests never do. Nothing outlives the turn: every row is read after the requests asking for it
 * arrived.
 */
export function readById<Row>(model: Model, selection: Selection, id: number): Promise<Row | null> {
  return new Promise((resolve, reject) => {
    // After the I/O callbacks of this turn (setImmediate), so every request read in it has asked.
    if (waiting.size === 0) setImmediate(readWaiting);
    const key = `${model}:${JSON.stringify(selection, bigIntsAsText)}`;
    let batch = waiting.get(key);
    if (!batch) waiting.set(key, (batch = { model, selection, readers: [] }));
    batch.readers.push({ id, resolve: resolve as Reader['resolve'], reject });
  });
}

/** A selection's filters may hold BigInt values, which JSON has no form for. */
const bigIntsAsText = (_key: string, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value);

function readWaiting() {
  const batches = [...waiting.values()];
  waiting.clear();
  for (const batch of batches) void read(batch);
}

async function read({ model, selection, readers }: Batch) {
  try {
    if (readers.length === 1) {
      const [reader] = readers as [Reader];
      reader.resolve(await delegateOf(model).findUnique({ ...selection, where: { id: reader.id } }));
      return;
    }
    // The rows are matched to their readers by id, which a `select` might leave out.
    const query = selection.select ? { ...selection, select: { ...selection.select, id: true } } : selection;
    const rows = await delegateOf(model).findMany({ ...query, where: { id: { in: [...new Set(readers.map(({ id }) => id))] } } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const reader of readers) reader.resolve(byId.get(reader.id) ?? null);
  } catch (error) {
    for (const reader of readers) reader.reject(error);
  }
}

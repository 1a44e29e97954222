import { Prisma } from '../generated/prisma/client';
import { NotFoundError } from '../core/errors';

/**
 * The foreign key a write failed on because the row it names is gone (deleted by another request after this one
 * found it), or null for any other error. From `pg` directly, or through Prisma's driver adapter.
 */
function violatedForeignKey(error: unknown): string | null {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    const { cause } = (error.meta?.driverAdapterError ?? {}) as {
      cause?: { kind?: string; constraint?: { index?: string } };
    };
    return cause?.kind === 'ForeignKeyConstraintViolation' ? (cause.constraint?.index ?? null) : null;
  }
  const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: string };
  return code === '23503' ? (constraint ?? null) : null;
}

/**
 * A `.catch` handler answering a write whose foreign key names a row that is gone with that row not found (404), as
 * a request a moment later is answered, rather than a 500. `objects`: per foreign key, the type and id it named.
 */
export const notFoundOnMissing =
  (objects: Record<string, [type: string, id: number | string | null | undefined]>) =>
  (error: unknown): never => {
    const key = violatedForeignKey(error);
    const [type, id] = (key !== null && objects[key]) || [];
    if (type && id != null) throw new NotFoundError(type, id);
    throw error;
  };

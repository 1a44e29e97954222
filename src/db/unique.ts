import { Prisma } from '../generated/prisma/client';
import { ConflictError } from '../core/errors';

export const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

/** A `.catch` handler turning a unique-constraint violation into a ConflictError naming the member to change. */
export const conflictOnUnique =
  (message: string, field: string) =>
  (error: unknown): never => {
    if (isUniqueViolation(error)) throw new ConflictError(message, field);
    throw error;
  };

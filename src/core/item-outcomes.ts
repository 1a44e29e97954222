import { GraphQLError } from 'graphql';
import { ConflictError, type FieldIssue, NotFoundError, ValidationError } from './errors';

/** How one item of a bulk write can fail on its own (400, 403, 404, 409); any other fault fails the whole write. */
export type ItemFailure = 'INVALID' | 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT';

/** What became of one item of a bulk write of courses or sections; /v1 answers each with `itemResponseCodes`. */
export type ItemCode = 'CREATED' | 'UPDATED' | ItemFailure;
export const itemResponseCodes: Record<ItemCode, number> = {
  CREATED: 200,
  UPDATED: 200,
  INVALID: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
};

export interface ItemOutcome<Value, Code extends string = ItemCode> {
  code: Code | ItemFailure;
  message: string | null;
  issues: FieldIssue[];
  value: Value | null;
}

export const writtenItem =
  <Code extends string>(code: Code) =>
  <Value>(value: Value | null): ItemOutcome<Value, Code> => ({ code, message: null, issues: [], value });

/**
 * One item's outcome: what it wrote with `code`, or the expected failure that stopped it alone (400 invalid, 403
 * refused, 404 not found, 409 a code taken). Anything else is a fault and fails the request.
 */
export async function settleItem<Value, Code extends string>(
  code: Code,
  write: () => Promise<Value | null>,
): Promise<ItemOutcome<Value, Code>> {
  try {
    return writtenItem(code)(await write());
  } catch (error) {
    const failed = (failure: ItemFailure, message: string, issues: FieldIssue[] = []): ItemOutcome<Value, Code> => ({
      code: failure,
      message,
      issues,
      value: null,
    });
    if (error instanceof ValidationError) return failed('INVALID', error.message, error.issues);
    if (error instanceof NotFoundError) return failed('NOT_FOUND', error.message);
    if (error instanceof ConflictError) return failed('CONFLICT', error.message);
    const status =
      error instanceof GraphQLError ? (error.extensions.http as { status?: number } | undefined)?.status : undefined;
    if (status === 403) return failed('FORBIDDEN', (error as GraphQLError).message);
    throw error;
  }
}

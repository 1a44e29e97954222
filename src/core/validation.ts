import type { z } from 'zod';
import { ValidationError } from './errors';

/** Parses input with a resource's zod schema; every problem is reported at once, named by its input path. */
export function validate<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(result.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message })));
}

import { z } from 'zod';
import { type IssueCode, ValidationError } from './errors';
import { type GlobalIdType, readId } from './global-id';
import { type HtmlField, htmlFields, sanitizeHtmlBody } from './html';

/** Parses input with a resource's zod schema; every problem is reported at once, named by its input path. */
export function validate<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  // The refused value is reported so that a member left out (REQUIRED) tells apart from one of the wrong type.
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw new ValidationError(
    result.error.issues.map((issue) => ({
      field: issue.path.join('.'),
      message: issue.message,
      code: issueCode(issue),
    })),
  );
}

/** The stable code of a zod issue: what kind of check refused the member. */
function issueCode(issue: z.core.$ZodIssue): IssueCode {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'REQUIRED' : 'INVALID';
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array' ? 'TOO_LONG' : 'TOO_LARGE';
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1) return 'REQUIRED';
      return issue.origin === 'string' || issue.origin === 'array' ? 'TOO_SHORT' : 'TOO_SMALL';
    case 'invalid_format':
      return 'INVALID_FORMAT';
    default:
      return 'INVALID';
  }
}

// PostgreSQL refuses the NUL character in text (and would fail the whole write), so it is a validation error naming
// the member, like any other bad value.
const withoutNul = (value: string) => !value.includes('\u0000');
const nulMessage = 'must not contain the NUL character';

/** The longest text an object holds: the HTML body of a post or a page. */
export const bodyMaxLength = htmlFields['Page.body'].maxLength;

/** Text as given, untrimmed, of at most `max` characters, written as `1,000,000` in the message. */
export const storableText = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max.toLocaleString('en-US')} characters`)
    .refine(withoutNul, nulMessage);

/**
 * A member that front ends render as HTML, declared in `htmlFields`: sanitized here, on write, so that /v1 and GraphQL
 * store the same safe markup.
 */
export const htmlText = (field: HtmlField) => storableText(htmlFields[field].maxLength).transform(sanitizeHtmlBody);

/** Trimmed text of at most `max` characters. */
export const text = (max: number) =>
  z.string().trim().max(max, `must be at most ${max} characters`).refine(withoutNul, nulMessage);
/** Text that must not be blank. */
export const requiredText = (max: number) => text(max).min(1, 'is required');
/** An id given as a string of digits. */
export const numericId = z.string().regex(/^\d{1,15}$/, 'must be a numeric id');

/**
 * Members whose GraphQL input type is `ID` (zod alone says String). A registry rather than a set of instances: zod
 * hands its entries on to the copies `.describe()`, `.refine()` and the like make.
 */
const idMembers = z.registry<{ graphql: 'ID' }>();

/** Whether a member (after its wrappers are unwrapped) is an id, an `ID` in GraphQL. */
export const isIdMember = (schema: z.ZodType) => idMembers.get(schema) !== undefined;

/** An id whose type another member names (a realm's), read by the code that knows that type. */
export const idOfNamedType = z.string().register(idMembers, { graphql: 'ID' });

/**
 * An id of an object of `type` from GraphQL input: its database id or its global id, given as the database id (a
 * string of digits) as numericId gives it. /v1 bodies reach it with digits only (their wire codecs check them first).
 */
export const nodeId = (type: GlobalIdType) =>
  idOfNamedType
    .transform((value, context) => {
      const reading = readId(value, type);
      if ('error' in reading) {
        context.addIssue({ code: 'custom', message: reading.error });
        return z.NEVER;
      }
      return String(reading.id);
    })
    .pipe(numericId);
export const email = z.union([z.literal(''), z.email('must be an email address')]);

/** What clearing a member stores: the empty string for text, null for a reference. Kept by `.describe()` copies. */
const emptyValues = z.registry<{ empty: '' | null }>();

/** Marks a member that may be emptied, and what it holds once empty. */
export function clearable<T extends z.ZodType>(schema: T, empty: '' | null): T {
  emptyValues.add(schema, { empty });
  return schema;
}

/**
 * A member of a bulk write's item that the item must have, but which GraphQL lets the client leave out: an item
 * without it then fails alone, with `message`, rather than failing the whole request.
 */
export function requiredInItem<T extends z.ZodType>(schema: T, message: string) {
  return schema.nullish().transform((value, context): NonNullable<z.output<T>> => {
    if (value === null || value === undefined) {
      context.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return value;
  });
}

const notNull = (schema: z.ZodType) => schema.nullable().refine((value) => value !== null, 'must not be null');

type Shape = Record<string, z.ZodType>;
type Members<S extends Shape> = { [K in keyof S]?: z.output<S[K]> };
/** What a client may send for such members: each may be left out or null. */
type SentMembers<S extends Shape> = { [K in keyof S]?: z.input<S[K]> | null };

/**
 * The input of a create: `required` members must be given; any other member may be left out or null, both meaning
 * "no value" so that its default applies.
 */
export function createInput<S extends Shape, R extends keyof S & string>(shape: S, required: readonly R[]) {
  const members = Object.fromEntries(
    Object.entries(shape).map(([name, schema]) => [
      name,
      required.includes(name as R) ? notNull(schema) : schema.nullish().transform((value) => value ?? undefined),
    ]),
  );
  return z.strictObject(members) as unknown as z.ZodType<
    Members<S> & { [K in R]: z.output<S[K]> },
    SentMembers<S> & { [K in R]: z.input<S[K]> }
  >;
}

/**
 * The input of an update: a member left out is unchanged; null empties a member marked `clearable` and is refused,
 * under the member's name, for one that cannot be empty.
 */
export function updateInput<S extends Shape>(shape: S) {
  const members = Object.fromEntries(
    Object.entries(shape).map(([name, schema]) => {
      const empty = emptyValues.get(schema)?.empty;
      return [
        name,
        empty === undefined
          ? notNull(schema).optional()
          : schema.nullish().transform((value) => (value === null ? empty : value)),
      ];
    }),
  );
  return z.strictObject(members) as unknown as z.ZodType<Members<S>, SentMembers<S>>;
}

/** The members of an object schema (one `createInput` or `updateInput` made), to declare a larger input from them. */
export function membersOf<T>(schema: z.ZodType<T>) {
  const { def } = schema._zod;
  if (def.type !== 'object') throw new Error('membersOf takes an object schema');
  return (def as z.core.$ZodObjectDef).shape as unknown as { [K in keyof T]-?: z.ZodType<T[K]> };
}

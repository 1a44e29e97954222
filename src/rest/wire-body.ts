/**
 * The wire side of a route's request: members in the platform's shape (snake_case, `{0,1}` flags, ids as strings or
 * integers, nested `options/...` members) declared once as zod schemas. One declaration decodes JSON and XML bodies
 * into the GraphQL input, names errors by the wire member the client sent, and documents the body in OpenAPI.
 */
import { z } from 'zod';

export class WireInputError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

/** One wire member: its schema (wire value in, GraphQL input value out) and the GraphQL input member it fills. */
export interface WireField {
  schema: z.ZodType;
  input: string;
  list?: boolean;
}

const field =
  (schema: z.ZodType) =>
  (input: string): WireField => ({ schema, input });

const scalarText = z.union([z.string(), z.number()]).transform(String);

/** Text; null reads as empty, which clears an optional member (and fails a required one). */
export const text = field(z.union([scalarText, z.null().transform(() => '')], { error: 'must be a string' }));

/** A `{0,1}` flag; the platform accepts 0/1 as numbers or strings, and clients also send true/false. */
export const flag = field(
  z
    .literal([0, 1, '0', '1', true, false, 'true', 'false'], { error: 'must be 0 or 1' })
    .transform((value) => value === 1 || value === '1' || value === true || value === 'true'),
);

/** An id member, sent as an integer or a numeric string; empty (or 0) clears it. */
export const id = field(
  z.union(
    [
      z
        .literal(['', 0, '0'])
        .nullable()
        .transform(() => null),
      scalarText.pipe(z.string().trim().regex(/^\d+$/, 'must be a numeric id')),
    ],
    { error: 'must be a numeric id' },
  ),
);

/** An integer, sent as a number or a numeric string (`"38962"`, `-1`). */
export const integer = field(
  z.union(
    [
      z.int(),
      z
        .string()
        .trim()
        .regex(/^-?\d{1,15}$/)
        .transform(Number),
    ],
    { error: 'must be an integer' },
  ),
);

/**
 * A size in bytes: an integer of any length, so that a size past every limit reaches the limit's check (413) rather
 * than being refused as malformed. Fractions are the validation's to refuse.
 */
export const byteCount = field(
  z.union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d+$/)
        .transform(Number),
    ],
    { error: 'must be an integer' },
  ),
);

/** A wire value from a closed set, mapped to the GraphQL enum value. */
export function oneOf(values: Record<string, string>) {
  const error = `must be one of ${Object.keys(values).join(', ')}`;
  return field(
    z
      .union([z.string(), z.number()], { error })
      .transform((value) => String(value).trim())
      .refine((key) => Object.hasOwn(values, key), error)
      .transform((key) => values[key]),
  );
}

/** A member's codec with example values, which the API document shows (and the fuzzer sends). */
export const withExamples =
  (codec: (input: string) => WireField, ...examples: string[]) =>
  (input: string): WireField => {
    const member = codec(input);
    return { ...member, schema: member.schema.meta({ examples }) };
  };

/**
 * A list of values; XML repeats the element, once for a one-item list. An empty element (XML) or null is the empty
 * list, as the platform renders one, so that what a client read it can send back.
 */
export const list =
  (item: z.ZodType) =>
  (input: string): WireField => ({
    schema: z.preprocess(
      (value) => (value === '' || value === null ? [] : value),
      z.array(item, { error: 'must be a list' }),
    ),
    input,
    list: true,
  });

/** A list of ids, each an integer or a numeric string. */
export const idList = list(
  z
    .union([z.int().nonnegative(), z.string().trim().regex(/^\d+$/, 'must be numeric ids')], {
      error: 'must be numeric ids',
    })
    .transform(String),
);

/** The members of a body, nested where the wire nests them (`options: { invite_type: ... }`). */
export interface WireShape {
  [member: string]: WireField | WireShape;
}

const isField = (node: WireField | WireShape): node is WireField => 'schema' in node && 'input' in node;

function flatten(shape: WireShape, prefix = ''): [path: string, field: WireField][] {
  return Object.entries(shape).flatMap(([name, node]) =>
    isField(node) ? [[`${prefix}${name}`, node] as [string, WireField]] : flatten(node, `${prefix}${name}/`),
  );
}

function lookup(body: Record<string, unknown>, path: string): { found: boolean; value?: unknown } {
  let node: unknown = body;
  for (const part of path.split('/')) {
    if (node === null || typeof node !== 'object' || Array.isArray(node) || !Object.hasOwn(node, part))
      return { found: false };
    node = (node as Record<string, unknown>)[part];
  }
  return { found: true, value: node };
}

/** A request body declared once: decoding, wire names for errors, and its JSON Schema for the API document. */
export interface WireBody {
  decode(body: Record<string, unknown>): Record<string, unknown>;
  /** GraphQL input path (`inviteType`, `input.inviteType`) -> the wire member a client sent. */
  wireName(inputPath: string): string;
  /** The body as the platform documents it, every member optional unless required. */
  schema: z.ZodType;
  /** Members a client must send. */
  required: readonly string[];
  /**
   * Where lists are, as dotted paths under the root (`grades.grade`): elements there are lists even when XML repeats
   * them once. By path, not name: an item of `grades.grade` has a member `grade` of its own.
   */
  listPaths: ReadonlySet<string>;
}

function describe(shape: WireShape, required: readonly string[], prefix = ''): z.ZodObject {
  return z.object(
    Object.fromEntries(
      Object.entries(shape).map(([name, node]) => {
        const path = `${prefix}${name}`;
        const schema = isField(node) ? node.schema : describe(node, required, `${path}/`);
        return [name, required.includes(path) ? schema : schema.optional()];
      }),
    ),
  );
}

/**
 * Declares a wire body; `required` names the members a client must send (the spec's "required" column), `oneOf` the
 * top-level members of which a client sends exactly one (the grades PUT takes `grades` or `final_comments`): the
 * operation judges that, the declaration documents it.
 */
export function wireBody(
  shape: WireShape,
  required: readonly string[] = [],
  options: { oneOf?: readonly string[] } = {},
): WireBody {
  const fields = flatten(shape);
  const described = describe(shape, required);
  return {
    // Members the declaration does not name are ignored, as on the platform.
    decode(body) {
      const input: Record<string, unknown> = {};
      for (const [path, { schema, input: member }] of fields) {
        const { found, value } = lookup(body, path);
        if (!found) {
          if (required.includes(path)) throw new WireInputError(path, 'is required');
          continue;
        }
        const result = schema.safeParse(value);
        if (!result.success) throw new WireInputError(path, result.error.issues[0]?.message ?? 'is invalid');
        input[member] = result.data;
      }
      return input;
    },
    wireName(inputPath) {
      const member = inputPath.replace(/^input\./, '');
      const snake = (path: string) => path.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      const match = fields.find(([, field]) => field.input === member);
      if (match) return match[0];
      // An item of a list member (`files.2`, `extras.0.displayOrder`): the list's wire name, then the item's path.
      const [list, ...rest] = member.split('.');
      const listMatch = rest.length ? fields.find(([, field]) => field.input === list && field.list) : undefined;
      return listMatch ? [listMatch[0], ...rest.map(snake)].join('.') : snake(member);
    },
    schema: options.oneOf
      ? described.meta({ description: `Exactly one of: ${options.oneOf.join(', ')}.`, oneOf: options.oneOf })
      : described,
    required,
    listPaths: new Set(fields.filter(([, field]) => field.list).map(([path]) => path.replaceAll('/', '.'))),
  };
}

/** The same body without some members, such as `school_id`, which only a create reads; nothing else is required. */
export function withoutMembers(body: WireShape, ...members: string[]): WireShape {
  return Object.fromEntries(Object.entries(body).filter(([name]) => !members.includes(name)));
}

const fileId = z.union(
  [
    z.int().min(0),
    z
      .string()
      .trim()
      .regex(/^\d{1,15}$/, 'must be a file id')
      .transform(Number),
  ],
  {
    error: 'must be a file id',
  },
);
const asList = (value: unknown) => (Array.isArray(value) ? value : [value]);

/**
 * `file-attachment/id`: uploaded files to attach, a list of file ids; XML repeats `<id>`, and the platform's own
 * example nests them once more (`<id><id>5</id></id>`), which reads the same.
 */
export const fileAttachmentIds = (input: string): WireField => ({
  schema: z
    .preprocess(
      asList,
      z.array(
        z.union([fileId, z.object({ id: z.preprocess(asList, z.array(fileId)) })], { error: 'must be a file id' }),
      ),
    )
    .transform((items) => items.flatMap((item) => (typeof item === 'number' ? [item] : item.id))),
  input,
  list: true,
});

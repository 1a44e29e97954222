import { z } from 'zod';
import { forbidden } from '../../core/errors';
import { type LinkBuilder, PayloadError, type RestRequest, type RestRoute, bulkRoute } from '../../rest/route';
import { type WireBody, WireInputError, wireBody, type WireShape } from '../../rest/wire-body';
import { type ItemCode, itemResponseCodes } from '../../core/item-outcomes';

/**
 * A create of one object (201 with it) or of up to `max` at the same path (`{"courses": {"course": [...]}}`, also
 * `{"courses": [...]}` and `{"course": [...]}`, XML `<courses><course>`), answered with a result per item as users'
 * bulk create is: courses and sections share it.
 */
export interface BulkCreate {
  /** The wrapper and item member names: `courses` and `course`. */
  plural: string;
  singular: string;
  /** An item's wire members, and those a single create requires. */
  members: WireShape;
  required: readonly string[];
  max: number;
  /** The wire member an item is known by in its result (`course_code`), and the GraphQL input member it fills. */
  key: { wire: string; input: string };
}

/** What a bulk body decodes to: the items the wire could read, and those it could not, each with its place. */
export interface BulkInput {
  bulk: boolean;
  items: { index: number; key?: unknown; input: Record<string, unknown> }[];
  failures: { index: number; key?: unknown; message: string }[];
  count: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
// An empty XML element (or null) is an empty list; one XML element or one JSON object is a list of one.
const asList = (value: unknown): unknown[] =>
  value === '' || value === null ? [] : Array.isArray(value) ? value : [value];

/** The items of a bulk body, or null for a single object. */
function itemsOf(spec: BulkCreate, body: Record<string, unknown>): unknown[] | null {
  if (Object.hasOwn(body, spec.plural)) {
    const wrapper = body[spec.plural];
    if (wrapper === '' || wrapper === null) return [];
    if (Array.isArray(wrapper)) return wrapper;
    if (!isObject(wrapper) || !Object.hasOwn(wrapper, spec.singular))
      throw new WireInputError(`${spec.plural}/${spec.singular}`, 'is required');
    return asList(wrapper[spec.singular]);
  }
  if (Object.hasOwn(body, spec.singular)) return asList(body[spec.singular]);
  return null;
}

/** The body of such a create: one object, or up to `max` in the wrapper. */
export function bulkCreateBody(spec: BulkCreate): WireBody {
  const item = wireBody(spec.members, spec.required);
  const lists = [...item.listPaths];
  return {
    decode(body): Record<string, unknown> {
      const raw = itemsOf(spec, body);
      if (raw === null) return { bulk: false, items: [{ index: 0, input: item.decode(body) }], failures: [], count: 1 };
      if (raw.length > spec.max)
        throw new WireInputError(`${spec.plural}/${spec.singular}`, `must list at most ${spec.max} ${spec.plural}`);
      const decoded: BulkInput = { bulk: true, items: [], failures: [], count: raw.length };
      raw.forEach((value, index) => {
        const fields = value === '' ? {} : value;
        if (!isObject(fields)) {
          decoded.failures.push({ index, message: `${spec.singular}: must be an object` });
          return;
        }
        const key = fields[spec.key.wire];
        try {
          decoded.items.push({ index, key, input: item.decode(fields) });
        } catch (error) {
          if (!(error instanceof WireInputError)) throw error;
          decoded.failures.push({ index, key, message: error.message });
        }
      });
      return decoded as unknown as Record<string, unknown>;
    },
    wireName: item.wireName,
    schema: (wireBody(spec.members).schema as z.ZodObject)
      .extend({
        [spec.plural]: z.object({ [spec.singular]: z.array(item.schema).max(spec.max) }).optional(),
      })
      .meta({
        description: `One ${spec.singular} (${spec.required.join(' and ')} required), or up to ${spec.max} in ${spec.plural}/${spec.singular}.`,
      }),
    required: [],
    listPaths: new Set([
      ...lists,
      `${spec.plural}.${spec.singular}`,
      spec.singular,
      ...lists.flatMap((path) => [`${spec.plural}.${spec.singular}.${path}`, `${spec.singular}.${path}`]),
    ]),
  };
}

/** The per-item results of such a create, in the order sent. */
export function bulkResultsWire(spec: BulkCreate, id: string, notFound: string) {
  const item = z.object({
    response_code: z.int().describe(`200 written; 400 invalid, 403 refused, 404 ${notFound}, 409 code taken`),
    id: z.string().optional().describe(`The ${spec.singular}'s id; absent on a failed item.`),
    [spec.key.wire]: z
      .string()
      .optional()
      .describe(`The ${spec.singular}'s ${spec.key.wire} (as sent, on a failed item).`),
    location: z.url().optional().describe(`Where the ${spec.singular} is; absent on a failed item.`),
    message: z.string().optional().describe('Why the item was not written.'),
  });
  return z.object({ [spec.singular]: z.array(item) }).meta({
    id,
    description: `Per-item results of a bulk create of ${spec.plural}, in the order sent.`,
  });
}

/** One item's outcome as the GraphQL payload answers it: the object written (under the singular's name), or why not. */
interface ItemResult<Written> {
  code: ItemCode;
  message: string | null;
  issues: readonly { field: string; message: string }[];
  written: Written | null;
}

const sentText = (value: unknown) =>
  typeof value === 'string' || Number.isSafeInteger(value) ? String(value) : undefined;

/** A single create's failed item, raised as the status its code names. */
function itemFailure(result: ItemResult<unknown>, singular: string): never {
  const message = result.message ?? `The ${singular} was not written`;
  if (result.code === 'FORBIDDEN') throw forbidden(message);
  if (result.code === 'NOT_FOUND') throw new PayloadError('NotFoundError', message);
  if (result.code === 'CONFLICT') throw new PayloadError('ConflictError', message, [...result.issues]);
  throw new PayloadError('ValidationError', message, [...result.issues]);
}

/**
 * POST of one object (201 with it, as GET answers it) or of a bulk (a result per item: 200, or 207 when codes differ).
 * The document answers `results { code message issues { field message } <singular> { ... } }`; `toWire` renders an
 * object as GET does, `keyOf` and `pathOf` its result.
 */
export function bulkCreateRoute<Written extends { id: string }>(
  spec: BulkCreate,
  options: {
    path: string;
    summary: string;
    document: Parameters<typeof bulkRoute>[1]['document'];
    filters: WireBody;
    variables: (request: RestRequest, items: Record<string, unknown>[]) => Record<string, unknown>;
    wire: z.ZodObject;
    results207: z.ZodObject;
    toWire: (written: Written, link: LinkBuilder) => object;
    keyOf: (written: Written) => string;
    pathOf: (written: Written) => string;
  },
): RestRoute {
  const body = bulkCreateBody(spec);
  const resultsOf = (payload: unknown): ItemResult<Written>[] =>
    (payload as Record<string, unknown>[]).map((result) => ({
      ...(result as unknown as ItemResult<Written>),
      written: (result[spec.singular] as Written | null) ?? null,
    }));
  const messageOf = (result: ItemResult<Written>) =>
    result.issues.length
      ? result.issues.map((issue) => `${body.wireName(issue.field)}: ${issue.message}`).join('; ')
      : (result.message ?? '');
  const answer = (results: readonly ItemResult<Written>[], request: RestRequest, link: LinkBuilder) => {
    const input = request.input as unknown as BulkInput;
    const answers: Record<string, unknown>[] = new Array(input.count);
    input.items.forEach((item, at) => {
      const result = results[at]!;
      const key = result.written ? options.keyOf(result.written) : sentText(item.key);
      answers[item.index] = {
        response_code: itemResponseCodes[result.code],
        ...(result.written ? { id: result.written.id } : {}),
        ...(key !== undefined ? { [spec.key.wire]: key } : {}),
        ...(result.written ? { location: link(options.pathOf(result.written)) } : { message: messageOf(result) }),
      };
    });
    for (const failure of input.failures) {
      const key = sentText(failure.key);
      answers[failure.index] = {
        response_code: 400,
        ...(key !== undefined ? { [spec.key.wire]: key } : {}),
        message: failure.message,
      };
    }
    const codes = new Set(answers.map((entry) => entry.response_code));
    return { status: codes.size > 1 ? 207 : 200, body: { [spec.singular]: answers } };
  };
  const post = bulkRoute('POST', {
    path: options.path,
    summary: options.summary,
    body,
    filters: options.filters,
    wire: options.results207,
    document: options.document,
    variables: (request) =>
      options.variables(
        request,
        (request.input as unknown as BulkInput).items.map((item) => item.input),
      ) as never,
    payload: 'results' as never,
    shape: (results, link, request) => answer(resultsOf(results), request, link).body as never,
  });
  return {
    ...post,
    responses: { 201: options.wire, 200: options.results207, 207: options.results207 },
    respond(result, request, link) {
      const outcome = post.respond(result, request, link);
      const results = resultsOf((result as { results: unknown }).results);
      if ((request.input as unknown as BulkInput).bulk) return { ...outcome, ...answer(results, request, link) };
      const [only] = results;
      if (!only?.written) return itemFailure(only!, spec.singular);
      return { status: 201, body: options.toWire(only.written, link) };
    },
  };
}

import { z } from 'zod';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import { type RestRequest, type RestRoute, bulkRoute, deleteRoute, listRoute, viewRoute } from '../../rest/route';
import { UserErrors } from '../../rest/user-errors';
import {
  type WireBody,
  type WireField,
  type WireShape,
  WireInputError,
  id,
  integer,
  oneOf,
  text,
  wireBody,
  withExamples,
} from '../../rest/wire-body';
import { categoryItemCodes } from './grading-category.service';
import { maxCategoryItems } from './grading-category.validation';

const RestCategory = graphql(`
  fragment RestGradingCategory on GradingCategory @_unmask {
    id: databaseId title calculation defaultMaxPoints defaultGradingScale { id: databaseId } dropLowest weight delta section { id: databaseId }
  }
`);
type Category = ResultOf<typeof RestCategory>;

const realms = ['SECTION'] as const;
const sectionOf = (request: RestRequest) => request.realm!.id;

const calculationTypes = { PERCENT: 1, TOTAL_POINTS: 2 } as const;
const calculationType = z.union([z.literal(1), z.literal(2)]).describe('1 percent, 2 total points');
const scaleId = z.int().describe('0 = numeric scale, otherwise a grading scale id');

/** The members every wire form of a category has (spec 2.6). */
const categoryCore = {
  title: z.string(),
  delta: z.int(),
  calculation_type: calculationType,
  default_max_points: z.number(),
  drop_lowest: z.int().min(0).max(10),
};
const core = (category: Category) => ({
  title: category.title ?? '',
  delta: category.delta,
  calculation_type: calculationTypes[category.calculation],
  default_max_points: category.defaultMaxPoints,
});
const scaleOf = (category: Category) => Number(category.defaultGradingScale?.id ?? 0);

/** A list item: ids are integers (spec 2.6); the list shows no weight, as the spec's list does not. */
export const categoryListWire = z
  .object({ id: z.int(), ...categoryCore, default_grading_scale_id: scaleId })
  .meta({ id: 'GradingCategory', description: 'A grading category of a section, as listed (spec 2.6, 4.3).' });

export const categoryViewWire = z
  .object({
    id: z.int(),
    ...categoryCore,
    default_grading_scale_id: scaleId,
    weight: z.int(),
    realm: z.literal('section'),
    realm_id: z.string(),
  })
  .meta({ id: 'GradingCategoryView', description: 'A grading category with its realm and weight (spec 4.3, view).' });

/** The single update answers with the category, as the platform does; `uid` is the category's id as a string. */
export const categoryUpdateWire = z
  .object({
    id: z.int(),
    ...categoryCore,
    default_grading_scale: scaleId,
    weight: z.int(),
    realm: z.literal('section'),
    realm_id: z.string(),
    uid: z.string(),
  })
  .meta({ id: 'GradingCategoryUpdate', description: 'A grading category as an update answers it (spec 4.3, update).' });

/**
 * One item of a bulk result: on success the category's members, on failure `message` (and, for an update, the id as
 * sent). One object with optional members rather than a union, so that XML readers type every member the same way.
 */
const resultItem = (idType: z.ZodType, success: number) =>
  z.object({
    id: idType
      .optional()
      .describe("The category's id; on a failed update item, the id as sent; absent on a failed create item."),
    response_code: z.int().describe(`${success} written; 400 invalid, 403 refused, 404 not a category of the section`),
    message: z.string().optional().describe('Why the item was not written.'),
    ...Object.fromEntries(Object.entries(categoryCore).map(([name, schema]) => [name, schema.optional()])),
    default_grading_scale: scaleId.optional(),
    weight: z.int().optional(),
  });

/** Create results spell the id as a string and the scale `default_grading_scale`, as the platform does. */
export const createResultsWire = z
  .object({ grading_category: z.array(resultItem(z.string(), 200)) })
  .meta({ id: 'GradingCategoryCreateResults', description: 'Per-item results of a bulk create (spec 4.3).' });

export const updateResultsWire = z
  .object({ grading_category: z.array(resultItem(z.union([z.int(), z.string()]), 204)) })
  .meta({ id: 'GradingCategoryUpdateResults', description: 'Per-item results of a bulk update (spec 4.3).' });

const int32 = (input: string): WireField => ({
  schema: integer(input).schema.pipe(
    z.int().min(-2_147_483_648, 'must be a 32-bit integer').max(2_147_483_647, 'must be a 32-bit integer'),
  ),
  input,
});
const points = (input: string): WireField => ({
  schema: z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^-?\d{1,9}(\.\d{1,6})?$/)
          .transform(Number),
      ],
      { error: 'must be a number' },
    )
    .pipe(z.number().finite()),
  input,
});

/**
 * A category's members in requests. The scale is read under both spellings, so that what a client read from a create
 * or update result it can send back; `default_grading_scale_id` wins when both are sent.
 */
const categoryMembers: WireShape = {
  title: text('title'),
  calculation_type: withExamples(oneOf({ 1: 'PERCENT', 2: 'TOTAL_POINTS' }), '1', '2')('calculation'),
  default_max_points: withExamples(points, '100', '12.5')('defaultMaxPoints'),
  default_grading_scale: id('defaultGradingScaleId'),
  default_grading_scale_id: id('defaultGradingScaleId'),
  drop_lowest: withExamples(int32, '0', '2', '10')('dropLowest'),
  weight: withExamples(int32, '0', '25', '100')('weight'),
  delta: withExamples(int32, '0', '1', '5')('delta'),
};
const categoryId = (input: string): WireField => ({
  schema: z
    .union(
      [
        z.int().min(0),
        z
          .string()
          .trim()
          .regex(/^\d{1,15}$/, 'must be a numeric id'),
      ],
      { error: 'must be a numeric id' },
    )
    .transform(String),
  input,
});

/** One category's body, with the scale's error named as the documented member. */
function categoryBody(shape: WireShape, required: string[] = []): WireBody {
  const body = wireBody(shape, required);
  return {
    ...body,
    wireName: (path) =>
      path.replace(/^input\./, '') === 'defaultGradingScaleId' ? 'default_grading_scale_id' : body.wireName(path),
  };
}
const itemBody = categoryBody(categoryMembers);
const changeBody = categoryBody({ id: categoryId('id'), ...categoryMembers }, ['id']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
// An empty XML element (or null) is an empty list; one XML element or one JSON object is a list of one.
const asList = (value: unknown): unknown[] =>
  value === '' || value === null ? [] : Array.isArray(value) ? value : [value];

/**
 * The items of a bulk body: `{"grading_categories": {"grading_category": [...]}}` as documented, or
 * `{"grading_categories": [...]}`, `{"grading_category": ...}`, or one flat category.
 */
function itemsOf(body: Record<string, unknown>): unknown[] {
  if (Object.hasOwn(body, 'grading_categories')) {
    const wrapper = body.grading_categories;
    if (wrapper === '' || wrapper === null) return [];
    if (Array.isArray(wrapper)) return wrapper;
    if (!isObject(wrapper) || !Object.hasOwn(wrapper, 'grading_category'))
      throw new WireInputError('grading_categories/grading_category', 'is required');
    return asList(wrapper.grading_category);
  }
  if (Object.hasOwn(body, 'grading_category')) return asList(body.grading_category);
  return [body];
}

/** An item whose members could not be read (a `drop_lowest` of "many") fails alone, as a bad value does. */
interface WireFailure {
  index: number;
  id?: unknown;
  message: string;
}
interface BulkInput {
  items: { index: number; id?: unknown; input: Record<string, unknown> }[];
  failures: WireFailure[];
  count: number;
}

function bulkBody(item: WireBody): WireBody {
  return {
    decode(body): Record<string, unknown> {
      const raw = itemsOf(body);
      if (raw.length > maxCategoryItems)
        throw new WireInputError(
          'grading_categories/grading_category',
          `must list at most ${maxCategoryItems} categories`,
        );
      const decoded: BulkInput = { items: [], failures: [], count: raw.length };
      raw.forEach((value, index) => {
        const fields = value === '' ? {} : value;
        if (!isObject(fields)) {
          decoded.failures.push({ index, message: 'grading_category: must be an object' });
          return;
        }
        try {
          decoded.items.push({ index, id: fields.id, input: item.decode(fields) });
        } catch (error) {
          if (!(error instanceof WireInputError)) throw error;
          decoded.failures.push({ index, id: fields.id, message: error.message });
        }
      });
      return decoded as unknown as Record<string, unknown>;
    },
    wireName: item.wireName,
    schema: z.object({ grading_categories: z.object({ grading_category: z.array(item.schema) }) }),
    required: ['grading_categories'],
    listPaths: new Set(['grading_categories.grading_category', 'grading_category']),
  };
}

/** The single update reads a flat category or one wrapped in `grading_category`; an `id` in it is ignored. */
function singleBody(item: WireBody): WireBody {
  return { ...item, decode: (body) => item.decode(isObject(body.grading_category) ? body.grading_category : body) };
}

type ItemResult = {
  code: keyof typeof categoryItemCodes;
  message: string | null;
  issues: { field: string; message: string }[];
  category: Category | null;
};

/** A failed item's message, naming the wire members the client sent. */
const messageOf = (result: ItemResult, body: WireBody) =>
  result.issues.length
    ? result.issues.map((issue) => `${body.wireName(issue.field)}: ${issue.message}`).join('; ')
    : (result.message ?? '');

/**
 * A bulk route whose items that the wire could not read are answered in their places, beside the service's results:
 * 200 while every item has the same code, 207 when they differ.
 */
function withWireFailures(route: RestRoute, { echoId }: { echoId: boolean }): RestRoute {
  // A failed update item says which id it was about, as the client sent it.
  const idOf = (id: unknown) =>
    echoId && (typeof id === 'string' || Number.isSafeInteger(id)) ? { id: id as string | number } : {};
  return {
    ...route,
    respond(result, request, link) {
      const outcome = route.respond(result, request, link);
      const input = request.input as BulkInput;
      const written = (outcome.body as { grading_category: Record<string, unknown>[] }).grading_category;
      const answers: Record<string, unknown>[] = new Array(input.count);
      input.items.forEach((item, at) => {
        const answer = written[at]!;
        answers[item.index] = answer.id === undefined ? { ...idOf(item.id), ...answer } : answer;
      });
      for (const failure of input.failures)
        answers[failure.index] = { ...idOf(failure.id), response_code: 400, message: failure.message };
      const codes = new Set(answers.map((answer) => answer.response_code));
      return { ...outcome, status: codes.size > 1 ? 207 : 200, body: { grading_category: answers } };
    },
  };
}

export const gradingCategoryRoutes = [
  listRoute({
    path: '/[realm]/grading_categories',
    realms,
    summary: 'List the grading categories of a section, by delta then id',
    item: 'grading_category',
    wire: categoryListWire,
    document: graphql(
      `query($sectionId: ID!, $start: Int!, $limit: Int!) {
        gradingCategories(sectionId: $sectionId, start: $start, limit: $limit) { total items { ...RestGradingCategory } }
      }`,
      [RestCategory],
    ),
    variables: (request) => ({ sectionId: String(sectionOf(request)) }),
    shape: (category) => ({
      id: Number(category.id),
      ...core(category),
      default_grading_scale_id: scaleOf(category),
      drop_lowest: category.dropLowest,
    }),
  }),
  viewRoute({
    path: '/[realm]/grading_categories/{id}',
    realms,
    summary: 'View a grading category of a section',
    wire: categoryViewWire,
    document: graphql(
      `query($sectionId: ID!, $id: ID!) { gradingCategory(sectionId: $sectionId, id: $id) { ...RestGradingCategory } }`,
      [RestCategory],
    ),
    variables: (request) => ({ sectionId: String(sectionOf(request)), id: request.params.id! }),
    shape: (category) => ({
      id: Number(category.id),
      ...core(category),
      default_grading_scale_id: scaleOf(category),
      drop_lowest: category.dropLowest,
      weight: category.weight,
      realm: 'section' as const,
      realm_id: category.section.id,
    }),
  }),
  withWireFailures(
    bulkRoute('POST', {
      path: '/[realm]/grading_categories',
      realms,
      summary:
        'Create grading categories in a section, with a response code per item (its teachers and administrators)',
      body: bulkBody(itemBody),
      wire: createResultsWire,
      document: graphql(
        `mutation($input: CreateGradingCategoriesInput!) {
          createGradingCategories(input: $input) {
            userErrors { ...UserErrors }
            results { code message issues { field message } category { ...RestGradingCategory } }
          }
        }`,
        [UserErrors, RestCategory],
      ),
      variables: (request) => ({
        input: {
          sectionId: String(sectionOf(request)),
          items: (request.input as BulkInput).items.map((item) => item.input),
        },
      }),
      payload: 'results',
      codes: (results) => results.map((result) => categoryItemCodes[result.code]),
      shape: (results) => ({
        grading_category: results.map((result) =>
          result.category
            ? {
                id: result.category.id,
                response_code: 200 as const,
                ...core(result.category),
                default_grading_scale: scaleOf(result.category),
                drop_lowest: result.category.dropLowest,
                weight: result.category.weight,
              }
            : { response_code: categoryItemCodes[result.code], message: messageOf(result, itemBody) },
        ),
      }),
    }),
    { echoId: false },
  ),
  withWireFailures(
    bulkRoute('PUT', {
      path: '/[realm]/grading_categories',
      realms,
      summary:
        'Change grading categories of a section, with a response code per item (its teachers and administrators)',
      body: bulkBody(changeBody),
      wire: updateResultsWire,
      document: graphql(
        `mutation($input: UpdateGradingCategoriesInput!) {
          updateGradingCategories(input: $input) {
            userErrors { ...UserErrors }
            results { code message issues { field message } category { ...RestGradingCategory } }
          }
        }`,
        [UserErrors, RestCategory],
      ),
      variables: (request) => ({
        input: {
          sectionId: String(sectionOf(request)),
          items: (request.input as BulkInput).items.map((item) => item.input as { id: string }),
        },
      }),
      payload: 'results',
      codes: (results) => results.map((result) => categoryItemCodes[result.code]),
      shape: (results) => ({
        grading_category: results.map((result) =>
          result.category
            ? {
                id: Number(result.category.id),
                response_code: 204 as const,
                ...core(result.category),
                default_grading_scale: scaleOf(result.category),
                drop_lowest: result.category.dropLowest,
                weight: result.category.weight,
              }
            : { response_code: categoryItemCodes[result.code], message: messageOf(result, changeBody) },
        ),
      }),
    }),
    { echoId: true },
  ),
  // The platform answers a single update with the category (200), unlike other updates: a PUT with a body answer.
  bulkRoute('PUT', {
    path: '/[realm]/grading_categories/{id}',
    realms,
    summary: "Change a grading category; answers with the category (its section's teachers and administrators)",
    body: singleBody(itemBody),
    wire: categoryUpdateWire,
    document: graphql(
      `mutation($input: UpdateGradingCategoryInput!) {
        updateGradingCategory(input: $input) { userErrors { ...UserErrors } gradingCategory { ...RestGradingCategory } }
      }`,
      [UserErrors, RestCategory],
    ),
    variables: (request) => ({
      input: { ...request.input, id: request.params.id!, sectionId: String(sectionOf(request)) },
    }),
    payload: 'gradingCategory',
    shape: (category) => ({
      id: Number(category.id),
      ...core(category),
      default_grading_scale: scaleOf(category),
      drop_lowest: category.dropLowest,
      weight: category.weight,
      realm: 'section' as const,
      realm_id: category.section.id,
      uid: category.id,
    }),
  }),
  deleteRoute({
    path: '/[realm]/grading_categories/{id}',
    realms,
    summary: 'Delete a grading category; its assignments stay, ungraded',
    document: graphql(
      `mutation($input: DeleteGradingCategoryInput!) { deleteGradingCategory(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { id: request.params.id!, sectionId: String(sectionOf(request)) } }),
  }),
];

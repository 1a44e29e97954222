import { z } from 'zod';
import { forbidden } from '../../core/errors';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import {
  type LinkBuilder,
  PayloadError,
  type RestRequest,
  type RestRoute,
  bulkRoute,
  deleteRoute,
  updateRoute,
} from '../../rest/route';
import { UserErrors } from '../../rest/user-errors';
import {
  type WireBody,
  type WireShape,
  WireInputError,
  flag,
  id,
  text,
  wireBody,
  withExamples,
} from '../../rest/wire-body';
import { type CourseItemCode, courseItemCodes } from './course.service';
import { maxCourseItems } from './course.validation';
import { RestCourse, courseToWire, courseWire } from './roster.rest';

type RestCourseResult = ResultOf<typeof RestCourse>;

/**
 * A course's members in requests. `building_id` names the school offering it (a course belongs to a school here, not
 * to a building of one). The members the server does not keep are read and ignored (docs/rest/roster.md).
 */
const courseMembers: WireShape = {
  building_id: id('schoolId'),
  title: withExamples(text, 'English 101')('title'),
  course_code: withExamples(text, 'ENG101')('courseCode'),
};
const createBody = wireBody(courseMembers, ['title', 'course_code']);
const changeBody = wireBody({ title: courseMembers.title!, course_code: courseMembers.course_code! });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
// An empty XML element (or null) is an empty list; one XML element or one JSON object is a list of one.
const asList = (value: unknown): unknown[] =>
  value === '' || value === null ? [] : Array.isArray(value) ? value : [value];

/** The items of a bulk body, `{"courses": {"course": [...]}}` as documented, or `{"courses": [...]}`, `{"course": [...]}`. */
function itemsOf(body: Record<string, unknown>): unknown[] | null {
  if (Object.hasOwn(body, 'courses')) {
    const wrapper = body.courses;
    if (wrapper === '' || wrapper === null) return [];
    if (Array.isArray(wrapper)) return wrapper;
    if (!isObject(wrapper) || !Object.hasOwn(wrapper, 'course'))
      throw new WireInputError('courses/course', 'is required');
    return asList(wrapper.course);
  }
  if (Object.hasOwn(body, 'course')) return asList(body.course);
  return null;
}

/** What a bulk body decodes to: the items the wire could read, and those it could not, each with its place. */
interface BulkInput {
  bulk: boolean;
  items: { index: number; courseCode?: unknown; input: Record<string, unknown> }[];
  failures: { index: number; courseCode?: unknown; message: string }[];
  count: number;
}

/** One course (201 with it) or up to 50 under `courses/course`, at the same path, as users' POST. */
const coursesBody: WireBody = {
  decode(body): Record<string, unknown> {
    const raw = itemsOf(body);
    if (raw === null)
      return { bulk: false, items: [{ index: 0, input: createBody.decode(body) }], failures: [], count: 1 };
    if (raw.length > maxCourseItems)
      throw new WireInputError('courses/course', `must list at most ${maxCourseItems} courses`);
    const decoded: BulkInput = { bulk: true, items: [], failures: [], count: raw.length };
    raw.forEach((value, index) => {
      const fields = value === '' ? {} : value;
      if (!isObject(fields)) {
        decoded.failures.push({ index, message: 'course: must be an object' });
        return;
      }
      try {
        decoded.items.push({ index, courseCode: fields.course_code, input: createBody.decode(fields) });
      } catch (error) {
        if (!(error instanceof WireInputError)) throw error;
        decoded.failures.push({ index, courseCode: fields.course_code, message: error.message });
      }
    });
    return decoded as unknown as Record<string, unknown>;
  },
  wireName: createBody.wireName,
  schema: (wireBody(courseMembers).schema as z.ZodObject)
    .extend({ courses: z.object({ course: z.array(createBody.schema).max(maxCourseItems) }).optional() })
    .meta({
      description: `One course (title and course_code required), or up to ${maxCourseItems} in courses/course.`,
    }),
  required: [],
  listPaths: new Set(['courses.course', 'course']),
};

const resultItemWire = z.object({
  response_code: z.int().describe('200 written; 400 invalid, 403 refused, 404 no such school, 409 code taken'),
  id: z.string().optional().describe("The course's id; absent on a failed item."),
  course_code: z.string().optional().describe("The course's code (as sent, on a failed item)."),
  location: z.url().optional().describe('Where the course is; absent on a failed item.'),
  message: z.string().optional().describe('Why the item was not written.'),
});
export const courseResultsWire = z
  .object({ course: z.array(resultItemWire) })
  .meta({ id: 'CourseResults', description: 'Per-item results of a bulk create of courses, in the order sent.' });

type ItemResult = {
  code: CourseItemCode;
  message: string | null;
  issues: readonly { field: string; message: string }[];
  course: RestCourseResult | null;
};

const messageOf = (result: ItemResult) =>
  result.issues.length
    ? result.issues.map((issue) => `${createBody.wireName(issue.field)}: ${issue.message}`).join('; ')
    : (result.message ?? '');

const sentText = (value: unknown) =>
  typeof value === 'string' || Number.isSafeInteger(value) ? String(value) : undefined;

/** The per-item answer, with the items the wire could not read in their places: 200, or 207 when codes differ. */
function bulkAnswer(results: readonly ItemResult[], request: RestRequest, link: LinkBuilder) {
  const input = request.input as BulkInput;
  const answers: z.input<typeof resultItemWire>[] = new Array(input.count);
  input.items.forEach((item, at) => {
    const result = results[at]!;
    const code = result.course ? result.course.courseCode : sentText(item.courseCode);
    answers[item.index] = {
      response_code: courseItemCodes[result.code],
      ...(result.course ? { id: result.course.id } : {}),
      ...(code !== undefined ? { course_code: code } : {}),
      ...(result.course ? { location: link(`/courses/${result.course.id}`) } : { message: messageOf(result) }),
    };
  });
  for (const failure of input.failures) {
    const code = sentText(failure.courseCode);
    answers[failure.index] = {
      response_code: 400,
      ...(code !== undefined ? { course_code: code } : {}),
      message: failure.message,
    };
  }
  const codes = new Set(answers.map((answer) => answer.response_code));
  return { status: codes.size > 1 ? 207 : 200, body: { course: answers } };
}

/** A single create's failed item, raised as the status its code names. */
function itemFailure(result: ItemResult): never {
  const message = result.message ?? 'The course was not written';
  if (result.code === 'FORBIDDEN') throw forbidden(message);
  if (result.code === 'NOT_FOUND') throw new PayloadError('NotFoundError', message);
  if (result.code === 'CONFLICT') throw new PayloadError('ConflictError', message, [...result.issues]);
  throw new PayloadError('ValidationError', message, [...result.issues]);
}

/** POST /courses: one course (201 with it) or a bulk of up to 50 (a result per item), at the same path. */
function createCoursesRoute(): RestRoute {
  const post = bulkRoute('POST', {
    path: '/courses',
    summary: `Create a course (201 with it), or up to ${maxCourseItems} in courses/course with a response code per item (school and district administrators)`,
    body: coursesBody,
    filters: wireBody({ update_existing: flag('updateExisting') }),
    wire: courseResultsWire,
    document: graphql(
      `mutation($input: CreateCoursesInput!) {
        createCourses(input: $input) {
          userErrors { ...UserErrors }
          results { code message issues { field message } course { ...RestCourse } }
        }
      }`,
      [UserErrors, RestCourse],
    ),
    variables: (request) => ({
      input: {
        items: (request.input as BulkInput).items.map((item) => item.input) as never,
        updateExisting: request.filters.updateExisting ?? false,
      },
    }),
    payload: 'results',
    shape: (written, link, request) => bulkAnswer(written, request, link).body,
  });
  return {
    ...post,
    responses: { 201: courseWire, 200: courseResultsWire, 207: courseResultsWire },
    respond(result, request, link) {
      const outcome = post.respond(result, request, link);
      const written = (result as { results: ItemResult[] }).results;
      if ((request.input as BulkInput).bulk) return { ...outcome, ...bulkAnswer(written, request, link) };
      const [only] = written;
      if (!only?.course) return itemFailure(only!);
      return { status: 201, body: courseToWire(only.course, link) };
    },
  };
}

export const courseRoutes = [
  createCoursesRoute(),
  updateRoute({
    path: '/courses/{id}',
    summary: "Change a course's title or code (its school's and district's administrators)",
    body: changeBody,
    document: graphql(
      `mutation($input: UpdateCourseInput!) { updateCourse(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { ...request.input, id: request.params.id! } }),
  }),
  updateRoute({
    path: '/sections/{id}',
    summary: "Change a section's title or code (its school's and district's administrators)",
    body: wireBody({ title: text('title'), section_code: text('sectionCode') }),
    document: graphql(
      `mutation($input: UpdateSectionInput!) { updateSection(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { ...request.input, id: request.params.id! } }),
  }),
  deleteRoute({
    path: '/sections/{id}',
    summary: "Delete a section with its enrollments, invites and content (its school's and district's administrators)",
    document: graphql(
      `mutation($input: DeleteSectionInput!) { deleteSection(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { id: request.params.id! } }),
  }),
  deleteRoute({
    path: '/courses/{id}',
    summary:
      "Delete a course with its sections, their enrollments and content (its school's and district's administrators)",
    document: graphql(
      `mutation($input: DeleteCourseInput!) { deleteCourse(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { id: request.params.id! } }),
  }),
];

import { z } from 'zod';
import { GradeLevel, SubjectArea, Weekday } from '../../generated/prisma/enums';
import { forbidden } from '../../core/errors';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import {
  type LinkBuilder,
  MissingObjectError,
  PayloadError,
  type RestRequest,
  type RestRoute,
  redirectRoute,
  bulkRoute,
  createRoute,
  listRoute,
  selfLink,
  updateRoute,
  viewRoute,
  deleteRoute,
  wireBit,
} from '../../rest/route';
import { UserErrors } from '../../rest/user-errors';
import { type WireBody, WireInputError, flag, id, oneOf, text, wireBody, withExamples } from '../../rest/wire-body';
import { enrollmentItemCodes } from './enrollment.service';
import { maxEnrollmentItems } from './roster.validation';

const RestEnrollment = graphql(`
  fragment RestEnrollment on Enrollment @_unmask {
    id: databaseId admin status section { id: databaseId }
    user { id: databaseId schoolUid nameFirst nameLast nameDisplay pictureUrl }
  }
`);
type Enrollment = ResultOf<typeof RestEnrollment>;

/** The platform's enrollment status numbers. */
const statusCodes = { ACTIVE: 1, EXPIRED: 2, INVITE_PENDING: 3, REQUEST_PENDING: 4, ARCHIVED: 5 } as const;
const statusNames = { 1: 'ACTIVE', 2: 'EXPIRED', 3: 'INVITE_PENDING', 4: 'REQUEST_PENDING', 5: 'ARCHIVED' } as const;
const wireStatus = z
  .union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)])
  .describe('1 active, 2 expired, 3 invite pending, 4 request pending, 5 archived');

/**
 * An enrollment as the platform answers it: the enrollment's id and the user's, with the user's names. Name parts the
 * server does not hold (title, middle and preferred names) are left out rather than answered empty.
 */
const enrollmentFields = {
  id: z.string(),
  uid: z.string().describe("The enrolled user's id."),
  school_uid: z.string().describe("The school's own id for the user; empty when it has none."),
  name_first: z.string(),
  name_last: z.string(),
  name_display: z.string(),
  admin: wireBit.describe('1 for a section administrator (teacher), 0 for a member.'),
  status: wireStatus,
  picture_url: z.string(),
  links: selfLink,
};
export const enrollmentWire = z
  .object(enrollmentFields)
  .meta({ id: 'Enrollment', description: 'A user enrolled in a section.' });

type Person = Enrollment['user'];

/** An enrollment's members: the user's, the admin flag and the status, and the path that views it. */
function personToWire(
  id: string,
  user: Person,
  admin: boolean,
  status: z.input<typeof wireStatus>,
  self: string,
): z.input<typeof enrollmentWire> {
  return {
    id,
    uid: user.id,
    school_uid: user.schoolUid ?? '',
    name_first: user.nameFirst,
    name_last: user.nameLast,
    name_display: user.nameDisplay,
    admin: admin ? 1 : 0,
    status,
    picture_url: user.pictureUrl ?? '',
    links: { self },
  };
}

const enrollmentToWire = (enrollment: Enrollment, link: LinkBuilder) =>
  personToWire(
    enrollment.id,
    enrollment.user,
    enrollment.admin,
    statusCodes[enrollment.status],
    link(`/sections/${enrollment.section.id}/enrollments/${enrollment.id}`),
  );

const RestGroupMembership = graphql(`
  fragment RestGroupMembership on GroupMembership @_unmask {
    id: databaseId admin group { id: databaseId }
    user { id: databaseId schoolUid nameFirst nameLast nameDisplay pictureUrl }
  }
`);

/** A group's enrollment is a membership: groups hold active members only (status 1). */
const membershipToWire = (membership: ResultOf<typeof RestGroupMembership>, link: LinkBuilder) =>
  personToWire(
    membership.id,
    membership.user,
    membership.admin,
    1,
    link(`/groups/${membership.group.id}/enrollments/${membership.id}`),
  );

const statusMember = withExamples(oneOf(statusNames), '1', '3', '5');
/** An enrollment's members in requests: the user by `uid` or `school_uid`, and their state. */
const itemMembers = {
  uid: id('userId'),
  school_uid: text('schoolUid'),
  admin: flag('admin'),
  status: statusMember('status'),
};
const itemBody = wireBody(itemMembers);

/** One item of a bulk result: the enrollment's members on success, `message` on failure. */
const resultItem = z.object({
  ...z.object(enrollmentFields).partial().shape,
  response_code: z
    .int()
    .describe('200 written; 204 removed; 400 invalid, 403 refused, 404 no such user or enrollment, 409 raced'),
  message: z.string().optional().describe('Why the item was not written.'),
});
export const enrollmentResultsWire = z
  .object({ enrollment: z.array(resultItem) })
  .meta({ id: 'EnrollmentResults', description: 'Per-item results of a bulk enrollment write, in the order sent.' });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
// An empty XML element (or null) is an empty list; one XML element or one JSON object is a list of one.
const asList = (value: unknown): unknown[] =>
  value === '' || value === null ? [] : Array.isArray(value) ? value : [value];

/** An item the wire could not read fails alone, in its place, as a bad value does. */
interface BulkInput {
  /** One flat enrollment (a single create, answered 201) rather than `enrollments/enrollment`. */
  single: boolean;
  items: { index: number; input: Record<string, unknown> }[];
  failures: { index: number; message: string }[];
  count: number;
}

/**
 * The body of a create: `{"enrollments": {"enrollment": [...]}}` (up to 50, a result per item), or one flat
 * enrollment `{"uid": ..., "admin": ..., "status": ...}`, which is answered as a single create.
 */
const createBody: WireBody = {
  decode(body) {
    if (!Object.hasOwn(body, 'enrollments'))
      return { single: true, items: [{ index: 0, input: itemBody.decode(body) }], failures: [], count: 1 };
    const wrapper = body.enrollments;
    const raw = isObject(wrapper) ? asList(wrapper.enrollment) : asList(wrapper);
    if (raw.length > maxEnrollmentItems)
      throw new WireInputError('enrollments/enrollment', `must list at most ${maxEnrollmentItems} enrollments`);
    const decoded: BulkInput = { single: false, items: [], failures: [], count: raw.length };
    raw.forEach((value, index) => {
      const fields = value === '' ? {} : value;
      if (!isObject(fields)) {
        decoded.failures.push({ index, message: 'enrollment: must be an object' });
        return;
      }
      try {
        decoded.items.push({ index, input: itemBody.decode(fields) });
      } catch (error) {
        if (!(error instanceof WireInputError)) throw error;
        decoded.failures.push({ index, message: error.message });
      }
    });
    return decoded as unknown as Record<string, unknown>;
  },
  wireName: (path) => itemBody.wireName(path.replace(/^input\.items\.\d+\./, '')),
  // One object with both forms' members: the flat enrollment's, or `enrollments/enrollment` (which wins when sent).
  schema: (itemBody.schema as z.ZodObject)
    .extend({ enrollments: z.object({ enrollment: z.array(itemBody.schema) }).optional() })
    .meta({ description: 'One enrollment, or up to 50 under `enrollments/enrollment`.' }),
  required: [],
  listPaths: new Set(['enrollments.enrollment']),
};

type ItemResult<Row = Enrollment> = {
  code: keyof typeof enrollmentItemCodes;
  message: string | null;
  issues: readonly { field: string; message: string }[];
  enrollmentId: string | null;
  enrollment: Row | null;
};
/** How a realm's row (a section's enrollment, a group's membership) is answered. */
type ToWire<Row> = (row: Row, link: LinkBuilder) => z.input<typeof enrollmentWire>;

/** A failed item's message, naming the wire members the client sent. */
const messageOf = (result: ItemResult<unknown>) =>
  result.issues.length
    ? result.issues.map((issue) => `${itemBody.wireName(issue.field)}: ${issue.message}`).join('; ')
    : (result.message ?? '');

function itemToWire<Row>(result: ItemResult<Row>, link: LinkBuilder, toWire: ToWire<Row>): z.input<typeof resultItem> {
  const code = enrollmentItemCodes[result.code];
  if (result.enrollment) return { ...toWire(result.enrollment, link), response_code: code };
  if (result.enrollmentId !== null) return { id: result.enrollmentId, response_code: code };
  return { response_code: code, message: messageOf(result) };
}

/** The answers in the order sent: the operation's results, and the items the wire could not read in their places. */
function bulkAnswer<Row>(
  results: readonly ItemResult<Row>[],
  input: BulkInput,
  link: LinkBuilder,
  toWire: ToWire<Row>,
) {
  const answers: z.input<typeof resultItem>[] = new Array(input.count);
  input.items.forEach((item, at) => {
    answers[item.index] = itemToWire(results[at]!, link, toWire);
  });
  for (const failure of input.failures) answers[failure.index] = { response_code: 400, message: failure.message };
  return answers;
}

/** A single create's one result: 201 with the enrollment, or the item's failure as the request's status. */
function singleAnswer<Row>(result: ItemResult<Row>, link: LinkBuilder, toWire: ToWire<Row>) {
  if (result.enrollment) return { status: 201, body: toWire(result.enrollment, link) };
  const message = messageOf(result);
  if (result.code === 'FORBIDDEN') throw forbidden(message);
  const typename = { NOT_FOUND: 'NotFoundError', CONFLICT: 'ConflictError' }[result.code as string];
  const issues = result.issues.map((issue) => ({
    field: issue.field.replace(/^items\.\d+\./, ''),
    message: issue.message,
  }));
  throw new PayloadError(typename ?? 'ValidationError', message, typename ? [] : issues);
}

/** `{"access_code": "VCVKF-4MJG9"}`: joining a section or a group by the code its administrators hand out. */
const joinBody = wireBody({ access_code: text('accessCode') }, ['access_code']);

const sectionOf = (request: RestRequest) => request.params.section_id!;
const groupOf = (request: RestRequest) => request.params.group_id!;

/** `?uid=1,2` and `?enrollment_status=1,3`: comma-separated lists, as the platform's filters are. */
const commaList = (item: z.ZodType) => (input: string) => ({
  schema: z.preprocess(
    (value) => (typeof value === 'string' || typeof value === 'number' ? String(value).split(',') : value),
    z.array(item, { error: 'must be a comma-separated list' }),
  ),
  input,
});
const numericIds = commaList(
  z
    .string()
    .trim()
    .regex(/^\d{1,15}$/, 'must be numeric ids'),
);
const typeFilter = oneOf({ admin: 'true', member: 'false' });
const enrollmentFilters = wireBody({
  uid: numericIds('userIds'),
  enrollment_status: commaList(
    z
      .string()
      .trim()
      .refine((value) => Object.hasOwn(statusNames, value), 'must be statuses 1 to 5')
      .transform((value) => statusNames[value as unknown as keyof typeof statusNames]),
  )('status'),
  type: typeFilter('admin'),
});

const createResponses = { 201: enrollmentWire, 200: enrollmentResultsWire, 207: enrollmentResultsWire };

/** POST of one enrollment (201) or of `enrollments/enrollment` (a result per item: 200, or 207 when codes differ). */
function createEnrollmentsRoute(): RestRoute {
  const bulk = bulkRoute('POST', {
    path: '/sections/{section_id}/enrollments',
    summary:
      'Enroll users in a section: one (201), or up to 50 with a result per item; a user already enrolled has their ' +
      'enrollment changed (its teachers and administrators)',
    body: createBody,
    wire: enrollmentResultsWire,
    document: graphql(
      `mutation($input: CreateEnrollmentsInput!) {
        createEnrollments(input: $input) {
          userErrors { ...UserErrors }
          results { code message issues { field message } enrollmentId enrollment { ...RestEnrollment } }
        }
      }`,
      [UserErrors, RestEnrollment],
    ),
    variables: (request) => ({
      input: {
        sectionId: sectionOf(request),
        items: (request.input as BulkInput).items.map((item) => item.input),
      },
    }),
    payload: 'results',
    shape: (results, link, request) => ({
      enrollment: bulkAnswer(results, request.input as BulkInput, link, enrollmentToWire),
    }),
  });
  return answeringSingleCreates(bulk, enrollmentToWire);
}

/** A bulk create that answers one flat item as a single create: 201 with the row, or the item's failure. */
function answeringSingleCreates<Row>(bulk: RestRoute, toWire: ToWire<Row>): RestRoute {
  return {
    ...bulk,
    responses: createResponses,
    respond(result, request, link) {
      const input = request.input as BulkInput;
      const outcome = bulk.respond(result, request, link);
      const answers = (outcome.body as { enrollment: z.input<typeof resultItem>[] }).enrollment;
      if (input.single) {
        const results = (result as { results: ItemResult<Row>[] }).results;
        return singleAnswer(results[0]!, link, toWire);
      }
      const codes = new Set(answers.map((answer) => answer.response_code));
      return { ...outcome, status: codes.size > 1 ? 207 : 200 };
    },
  };
}

/** The group twin of createEnrollmentsRoute: one member (201), or up to 50 with a result per item. */
function createGroupEnrollmentsRoute(): RestRoute {
  const bulk = bulkRoute('POST', {
    path: '/groups/{group_id}/enrollments',
    summary:
      'Add users to a group as active members: one (201), or up to 50 with a result per item; a member already has ' +
      'their administration changed (its administrators)',
    body: createBody,
    wire: enrollmentResultsWire,
    document: graphql(
      `mutation($input: CreateGroupMembershipsInput!) {
        createGroupMemberships(input: $input) {
          userErrors { ...UserErrors }
          results {
            code message issues { field message }
            enrollmentId: groupMembershipId enrollment: groupMembership { ...RestGroupMembership }
          }
        }
      }`,
      [UserErrors, RestGroupMembership],
    ),
    variables: (request) => ({
      input: {
        groupId: groupOf(request),
        items: (request.input as BulkInput).items.map((item) => item.input),
      },
    }),
    payload: 'results',
    shape: (results, link, request) => ({
      enrollment: bulkAnswer(results, request.input as BulkInput, link, membershipToWire),
    }),
  });
  return answeringSingleCreates(bulk, membershipToWire);
}

const deleteFilters = wireBody({ enrollment_ids: numericIds('ids') });

/** DELETE with `?enrollment_ids=`: a result per item (200, or 207 when codes differ). */
function deleteEnrollmentsRoute(): RestRoute {
  const bulk = bulkRoute('POST', {
    path: '/sections/{section_id}/enrollments',
    summary: 'Remove enrollments of a section named by `enrollment_ids`, with a result per item (at most 50)',
    body: wireBody({}),
    wire: enrollmentResultsWire,
    document: graphql(
      `mutation($input: DeleteEnrollmentsInput!) {
        deleteEnrollments(input: $input) {
          userErrors { ...UserErrors }
          results { code message issues { field message } enrollmentId enrollment { ...RestEnrollment } }
        }
      }`,
      [UserErrors, RestEnrollment],
    ),
    variables: (request) => ({ input: { sectionId: sectionOf(request), ids: request.filters.ids ?? [] } }),
    payload: 'results',
    codes: (results) => results.map((result) => enrollmentItemCodes[result.code]),
    shape: (results, link) => ({
      enrollment: results.map((result) => itemToWire(result, link, enrollmentToWire)),
    }),
  });
  const { body: _unused, ...route } = bulk;
  return { ...route, method: 'DELETE', filters: deleteFilters };
}

export const RestCourse = graphql(`
  fragment RestCourse on Course @_unmask {
    id: databaseId title courseCode school { id: databaseId }
    department description credits subjectArea gradeLevelRangeStart gradeLevelRangeEnd
  }
`);

/** The platform's subject area numbers, in the order of the enum (0 Other to 9 Arts). */
export const subjectAreas = Object.values(SubjectArea);
/** The platform's grade level numbers: 1 Pre-K to 15 Higher-Ed, in the order of the enum; 0 is none. */
export const gradeLevels = Object.values(GradeLevel);
/** The platform's meeting day numbers: 0 Sunday to 6 Saturday, in the order of the enum. */
export const weekdays = Object.values(Weekday);

const gradeLevelWire = z.int().min(0).max(15).describe('1 Pre-K, 2 K, 3 to 14 grades 1 to 12, 15 Higher-Ed; 0 none.');

/**
 * A course as the platform answers it, with the members the server holds: its school (`building_id`, a school or a
 * building of one), title, code, department, description, credits, subject area and grade levels.
 */
export const courseWire = z
  .object({
    id: z.string(),
    building_id: z.string().describe('The school (or building) offering the course.'),
    title: z.string(),
    course_code: z.string().describe('Unique in the school.'),
    department: z.string(),
    description: z.string(),
    credits: z.number().nullable().describe('Null when not set.'),
    subject_area: z.int().min(0).max(9).nullable().describe('0 Other to 9 Arts; null when not set.'),
    grade_level_range_start: gradeLevelWire,
    grade_level_range_end: gradeLevelWire,
    links: selfLink,
  })
  .meta({ id: 'Course', description: 'A course: the parent of course sections.' });

const levelNumber = (level: GradeLevel | null) => (level ? gradeLevels.indexOf(level) + 1 : 0);

export const courseToWire = (course: ResultOf<typeof RestCourse>, link: LinkBuilder): z.input<typeof courseWire> => ({
  id: course.id,
  building_id: course.school.id,
  title: course.title,
  course_code: course.courseCode,
  department: course.department ?? '',
  description: course.description ?? '',
  credits: course.credits,
  subject_area: course.subjectArea ? subjectAreas.indexOf(course.subjectArea) : null,
  grade_level_range_start: levelNumber(course.gradeLevelRangeStart),
  grade_level_range_end: levelNumber(course.gradeLevelRangeEnd),
  links: { self: link(`/courses/${course.id}`) },
});

export const RestSection = graphql(`
  fragment RestSection on Section @_unmask {
    id: databaseId title sectionCode accessCode sectionSchoolCode description location meetingDays active
    gradingPeriods { id: databaseId }
    course { id: databaseId title courseCode school { id: databaseId } }
  }
`);

/** A course section as the platform answers it, with the members the server holds. */
export const sectionWire = z
  .object({
    id: z.string(),
    course_title: z.string(),
    course_code: z.string(),
    course_id: z.string(),
    school_id: z.string(),
    section_title: z.string(),
    section_code: z.string(),
    access_code: z.string().optional().describe("Only for the section's teachers and administrators."),
    section_school_code: z.string().describe("The school's own code for the section, unique in it; empty when none."),
    description: z.string(),
    location: z.string(),
    meeting_days: z.array(z.int().min(0).max(6)).describe('0 Sunday to 6 Saturday.'),
    active: wireBit,
    grading_periods: z.array(z.int()).describe('Grading period ids of the school.'),
    links: selfLink,
  })
  .meta({ id: 'Section', description: 'A course section: a class of students with its teachers.' });

export const sectionToWire = (
  section: ResultOf<typeof RestSection>,
  link: LinkBuilder,
): z.input<typeof sectionWire> => ({
  id: section.id,
  course_title: section.course.title,
  course_code: section.course.courseCode,
  course_id: section.course.id,
  school_id: section.course.school.id,
  section_title: section.title,
  section_code: section.sectionCode ?? '',
  ...(section.accessCode !== null ? { access_code: section.accessCode } : {}),
  section_school_code: section.sectionSchoolCode ?? '',
  description: section.description ?? '',
  location: section.location ?? '',
  meeting_days: section.meetingDays.map((day) => weekdays.indexOf(day)),
  active: section.active ? 1 : 0,
  grading_periods: section.gradingPeriods.map((period) => Number(period.id)),
  links: { self: link(`/sections/${section.id}`) },
});

export const rosterRoutes = [
  listRoute({
    path: '/courses',
    summary:
      "List the courses the caller reads: their school's (district's) for administrators, their sections' for others",
    item: 'course',
    wire: courseWire,
    filters: wireBody({ building_id: id('buildingId') }),
    document: graphql(
      `query($start: Int!, $limit: Int!, $buildingId: ID) {
        courseList(start: $start, limit: $limit, buildingId: $buildingId) { total items { ...RestCourse } }
      }`,
      [RestCourse],
    ),
    variables: (request) => ({ buildingId: request.filters.buildingId }),
    shape: courseToWire,
  }),
  viewRoute({
    path: '/courses/{id}',
    summary: 'View a course',
    wire: courseWire,
    document: graphql(`query($id: ID!) { course(id: $id) { ...RestCourse } }`, [RestCourse]),
    variables: (request) => ({ id: request.params.id! }),
    shape: courseToWire,
  }),
  listRoute({
    path: '/courses/{id}/sections',
    summary: 'List the sections of a course that the caller reads',
    item: 'section',
    wire: sectionWire,
    document: graphql(
      `query($courseId: ID!, $start: Int!, $limit: Int!) {
        courseSections(courseId: $courseId, start: $start, limit: $limit) { total items { ...RestSection } }
      }`,
      [RestSection],
    ),
    variables: (request) => ({ courseId: request.params.id! }),
    shape: sectionToWire,
  }),
  listRoute({
    path: '/sections',
    summary: "List the sections the caller reads: their school's (district's) for administrators, their own for others",
    item: 'section',
    wire: sectionWire,
    document: graphql(
      `query($start: Int!, $limit: Int!) { sectionList(start: $start, limit: $limit) { total items { ...RestSection } } }`,
      [RestSection],
    ),
    variables: () => ({}),
    shape: sectionToWire,
  }),
  viewRoute({
    path: '/sections/{id}',
    summary: 'View a section (its members, and the administrators of its school)',
    wire: sectionWire,
    document: graphql(`query($id: ID!) { section(id: $id) { ...RestSection } }`, [RestSection]),
    variables: (request) => ({ id: request.params.id! }),
    shape: sectionToWire,
  }),
  redirectRoute({
    path: '/sections/ext/{sectionSchoolCode:word}',
    summary:
      'Redirect (303) to the section the caller reads with this section school code (unique in a school; the lowest id where several schools use it)',
    document: graphql(
      `query($code: String!) { sectionList(sectionSchoolCode: $code, limit: 1) { items { id: databaseId } } }`,
    ),
    variables: ({ params }) => ({ code: params.sectionSchoolCode! }),
    location: ({ items }) => {
      const section = items[0];
      if (!section) throw new MissingObjectError();
      return `/sections/${section.id}`;
    },
  }),
  listRoute({
    path: '/sections/{section_id}/enrollments',
    summary:
      "List a section's enrollments by id, filtered by `uid`, `enrollment_status` and `type` (its members and administrators)",
    item: 'enrollment',
    wire: enrollmentWire,
    filters: enrollmentFilters,
    document: graphql(
      `query($sectionId: ID!, $start: Int!, $limit: Int!, $status: [EnrollmentStatus!], $admin: Boolean, $userIds: [ID!]) {
        sectionEnrollments(sectionId: $sectionId, start: $start, limit: $limit, status: $status, admin: $admin, userIds: $userIds) {
          total items { ...RestEnrollment }
        }
      }`,
      [RestEnrollment],
    ),
    variables: (request) => ({
      sectionId: sectionOf(request),
      status: request.filters.status,
      admin: request.filters.admin === undefined ? undefined : request.filters.admin === 'true',
      userIds: request.filters.userIds,
    }),
    shape: enrollmentToWire,
  }),
  viewRoute({
    path: '/sections/{section_id}/enrollments/{id}',
    summary: 'View an enrollment of a section',
    wire: enrollmentWire,
    document: graphql(
      `query($sectionId: ID!, $id: ID!) { sectionEnrollment(sectionId: $sectionId, id: $id) { ...RestEnrollment } }`,
      [RestEnrollment],
    ),
    variables: (request) => ({ sectionId: sectionOf(request), id: request.params.id! }),
    shape: enrollmentToWire,
  }),
  createEnrollmentsRoute(),
  updateRoute({
    path: '/sections/{section_id}/enrollments/{id}',
    summary: "Change an enrollment's status or admin flag (the section's teachers and administrators)",
    body: wireBody({ admin: flag('admin'), status: statusMember('status') }),
    document: graphql(
      `mutation($input: UpdateEnrollmentInput!) { updateEnrollment(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { ...request.input, id: request.params.id!, sectionId: sectionOf(request) } }),
  }),
  deleteRoute({
    path: '/sections/{section_id}/enrollments/{id}',
    summary: "Remove an enrollment, with its pending invite (the section's teachers and administrators)",
    document: graphql(
      `mutation($input: DeleteEnrollmentInput!) { deleteEnrollment(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { id: request.params.id!, sectionId: sectionOf(request) } }),
  }),
  deleteEnrollmentsRoute(),
  createRoute({
    path: '/sections/accesscode',
    summary:
      'Enroll the caller in the section whose access code they send, as an active member (404 for a wrong code, 409 ' +
      'when already enrolled)',
    body: joinBody,
    wire: enrollmentWire,
    document: graphql(
      `mutation($input: JoinSectionInput!) {
        joinSection(input: $input) { userErrors { ...UserErrors } enrollment { ...RestEnrollment } }
      }`,
      [UserErrors, RestEnrollment],
    ),
    variables: (request) => ({ input: request.input as { accessCode: string } }),
    payload: 'enrollment',
    shape: enrollmentToWire,
  }),
  createRoute({
    path: '/groups/accesscode',
    summary:
      'Make the caller a member of the group whose access code they send (404 for a wrong code, 409 when already a ' +
      'member)',
    body: joinBody,
    wire: enrollmentWire,
    document: graphql(
      `mutation($input: JoinGroupInput!) {
        joinGroup(input: $input) { userErrors { ...UserErrors } groupMembership { ...RestGroupMembership } }
      }`,
      [UserErrors, RestGroupMembership],
    ),
    variables: (request) => ({ input: request.input as { accessCode: string } }),
    payload: 'groupMembership',
    shape: membershipToWire,
  }),
  listRoute({
    path: '/groups/{group_id}/enrollments',
    summary: "List a group's enrollments (its memberships) by id, filtered by `uid` and `type`",
    item: 'enrollment',
    wire: enrollmentWire,
    filters: wireBody({ uid: numericIds('userIds'), type: typeFilter('admin') }),
    document: graphql(
      `query($groupId: ID!, $start: Int!, $limit: Int!, $admin: Boolean, $userIds: [ID!]) {
        groupMemberships(groupId: $groupId, start: $start, limit: $limit, admin: $admin, userIds: $userIds) {
          total items { ...RestGroupMembership }
        }
      }`,
      [RestGroupMembership],
    ),
    variables: (request) => ({
      groupId: groupOf(request),
      admin: request.filters.admin === undefined ? undefined : request.filters.admin === 'true',
      userIds: request.filters.userIds,
    }),
    shape: membershipToWire,
  }),
  viewRoute({
    path: '/groups/{group_id}/enrollments/{id}',
    summary: 'View an enrollment (a membership) of a group',
    wire: enrollmentWire,
    document: graphql(
      `query($groupId: ID!, $id: ID!) { groupMembership(groupId: $groupId, id: $id) { ...RestGroupMembership } }`,
      [RestGroupMembership],
    ),
    variables: (request) => ({ groupId: groupOf(request), id: request.params.id! }),
    shape: membershipToWire,
  }),
  createGroupEnrollmentsRoute(),
  updateRoute({
    path: '/groups/{group_id}/enrollments/{id}',
    summary: "Give or take a member's administration of the group (its administrators)",
    body: wireBody({ admin: flag('admin') }),
    document: graphql(
      `mutation($input: UpdateGroupMembershipInput!) { updateGroupMembership(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { ...request.input, id: request.params.id!, groupId: groupOf(request) } }),
  }),
  deleteRoute({
    path: '/groups/{group_id}/enrollments/{id}',
    summary: 'Remove a member from a group (its administrators)',
    document: graphql(
      `mutation($input: DeleteGroupMembershipInput!) { deleteGroupMembership(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { id: request.params.id!, groupId: groupOf(request) } }),
  }),
];

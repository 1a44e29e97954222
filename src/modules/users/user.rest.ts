import { z } from 'zod';
import { forbidden } from '../../core/errors';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import {
  type LinkBuilder,
  MissingObjectError,
  PayloadError,
  type RestRequest,
  type RestRoute,
  bulkRoute,
  deleteRoute,
  listRoute,
  pageLinks,
  pagedEnvelope,
  redirectRoute,
  selfLink,
  updateRoute,
  viewRoute,
} from '../../rest/route';
import { UserErrors } from '../../rest/user-errors';
import {
  type WireBody,
  type WireField,
  type WireShape,
  WireInputError,
  flag,
  id,
  text,
  wireBody,
  withExamples,
  withoutMembers,
} from '../../rest/wire-body';
import { RestGroup, groupToWire, groupWire } from '../groups/group.rest';
import { RestSection, sectionToWire, sectionWire } from '../roster/roster.rest';
import { type UserItemCode, userItemCodes } from './user.service';
import { maxUserItems } from './user.validation';

const RestUser = graphql(`
  fragment RestUser on User @_unmask {
    id: databaseId username schoolUid nameTitle nameFirst nameFirstPreferred nameMiddle nameLast nameDisplay email
    pictureUrl position gender gradYear role
    school { id: databaseId district { timeZone } } building { id: databaseId }
  }
`);
type RestUserResult = ResultOf<typeof RestUser>;
type Role = RestUserResult['role'];

/**
 * The platform's role ids: each school there has roles of its own with ids of their own; here the five roles are the
 * same in every school, so each has one id, the ids of the platform's documented examples.
 */
export const roleIds: Record<Role, number> = {
  DISTRICT_ADMIN: 1211,
  SCHOOL_ADMIN: 1212,
  TEACHER: 1213,
  STUDENT: 1214,
  PARENT: 1215,
};
const rolesById = Object.fromEntries(Object.entries(roleIds).map(([role, roleId]) => [String(roleId), role])) as Record<
  string,
  Role
>;
const roleIdList = Object.keys(rolesById).join(', ');

/** User ids are integers on the wire, under `id` and `uid` alike (clients read `uid`). */
export const userWire = z
  .object({
    id: z.int(),
    uid: z.int(),
    school_id: z.int(),
    building_id: z.int().describe('0 when the user belongs to no building.'),
    school_uid: z.string(),
    name_title: z.string(),
    name_first: z.string(),
    name_first_preferred: z.string(),
    name_middle: z.string(),
    name_last: z.string(),
    name_display: z.string(),
    username: z.string(),
    primary_email: z.string().optional().describe('Only for the user and their administrators.'),
    picture_url: z.string(),
    position: z.string(),
    gender: z.enum(['M', 'F']).nullable().describe('null when not recorded.'),
    grad_year: z.string().describe('YYYY, or empty when not recorded.'),
    role_id: z
      .int()
      .describe(`The role: ${roleIdList} (district administrator, school administrator, teacher, student, parent).`),
    tz_name: z.string().describe("The district's time zone (IANA name)."),
    links: selfLink,
  })
  .meta({ id: 'User', description: 'A user (administrator, teacher, student or parent).' });

function userToWire(user: RestUserResult, link: LinkBuilder): z.input<typeof userWire> {
  return {
    id: Number(user.id),
    uid: Number(user.id),
    school_id: Number(user.school.id),
    building_id: user.building ? Number(user.building.id) : 0,
    school_uid: user.schoolUid ?? '',
    name_title: user.nameTitle ?? '',
    name_first: user.nameFirst,
    name_first_preferred: user.nameFirstPreferred ?? '',
    name_middle: user.nameMiddle ?? '',
    name_last: user.nameLast,
    name_display: user.nameDisplay,
    username: user.username,
    ...(user.email !== null ? { primary_email: user.email } : {}),
    picture_url: user.pictureUrl ?? '',
    position: user.position ?? '',
    gender: user.gender === 'M' || user.gender === 'F' ? user.gender : null,
    grad_year: user.gradYear === null ? '' : String(user.gradYear),
    role_id: roleIds[user.role],
    tz_name: user.school.district.timeZone,
    links: { self: link(`/users/${user.id}`) },
  };
}

// Members the platform renders empty ("" or null) clear what they fill, so that what a client read it can send back.
const emptyIsNull = (schema: z.ZodType) =>
  z.union([z.literal('').transform(() => null), z.null(), schema], { error: 'is invalid' });
const schoolUid = (input: string): WireField => ({
  schema: emptyIsNull(z.union([z.string(), z.number()]).transform(String)),
  input,
});
const gender = (input: string): WireField => ({
  schema: emptyIsNull(
    z
      .string()
      .trim()
      .transform((value) => value.toUpperCase())
      .pipe(z.enum(['M', 'F'], { error: 'must be M or F' })),
  ),
  input,
});
const gradYear = (input: string): WireField => ({
  schema: emptyIsNull(
    z.union([
      z.int(),
      z
        .string()
        .trim()
        .regex(/^\d{4}$/, 'must be a year (YYYY)')
        .transform(Number),
    ]),
  ),
  input,
});
const roleId = (input: string): WireField => ({
  schema: z
    .union([z.string(), z.number()], { error: `must be one of ${roleIdList}` })
    .transform((value) => String(value).trim())
    .refine((key) => Object.hasOwn(rolesById, key), `must be one of ${roleIdList}`)
    .transform((key) => rolesById[key]),
  input,
});

/** A user's members in requests; `password` and `email_login_info` are read and ignored (docs/rest/users.md). */
const userMembers: WireShape = {
  school_id: id('schoolId'),
  building_id: id('buildingId'),
  school_uid: withExamples(schoolUid, 'S-1042')('schoolUid'),
  username: text('username'),
  name_title: withExamples(text, 'Dr.', '')('nameTitle'),
  name_first: text('nameFirst'),
  name_first_preferred: text('nameFirstPreferred'),
  name_middle: text('nameMiddle'),
  name_last: text('nameLast'),
  primary_email: withExamples(text, 'ada@example.org')('email'),
  position: text('position'),
  gender: withExamples(gender, 'M', 'F', '')('gender'),
  grad_year: withExamples(gradYear, '2031', '')('gradYear'),
  role_id: withExamples(roleId, ...Object.keys(rolesById))('role'),
};
const createBody = wireBody(userMembers, ['name_first', 'name_last', 'role_id']);
const changeMembers = withoutMembers(userMembers, 'school_id');
const changeBody = wireBody(changeMembers);
const changeItemBody = wireBody({ id: id('id'), ...changeMembers }, ['id']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
// An empty XML element (or null) is an empty list; one XML element or one JSON object is a list of one.
const asList = (value: unknown): unknown[] =>
  value === '' || value === null ? [] : Array.isArray(value) ? value : [value];

/** The items of a bulk body, `{"users": {"user": [...]}}` as documented, or `{"users": [...]}`, `{"user": [...]}`. */
function itemsOf(body: Record<string, unknown>): unknown[] | null {
  if (Object.hasOwn(body, 'users')) {
    const wrapper = body.users;
    if (wrapper === '' || wrapper === null) return [];
    if (Array.isArray(wrapper)) return wrapper;
    if (!isObject(wrapper) || !Object.hasOwn(wrapper, 'user')) throw new WireInputError('users/user', 'is required');
    return asList(wrapper.user);
  }
  if (Object.hasOwn(body, 'user')) return asList(body.user);
  return null;
}

/** What a bulk body decodes to: the items the wire could read, and those it could not, each with its place. */
interface BulkInput {
  bulk: boolean;
  items: { index: number; id?: unknown; schoolUid?: unknown; input: Record<string, unknown> }[];
  failures: { index: number; id?: unknown; schoolUid?: unknown; message: string }[];
  count: number;
}

/**
 * A body of many users: an item the wire cannot read (a `role_id` of 7) fails alone, as an invalid value does. With
 * `single` (the one-user body, as documented), a body without `users` is one user: POST /users creates one or many at
 * the same path.
 */
function usersBody(item: WireBody, single?: WireBody): WireBody {
  const users = z.object({ user: z.array(item.schema).max(maxUserItems) });
  const bulkSchema = z.object({ users });
  return {
    decode(body): Record<string, unknown> {
      const raw = itemsOf(body);
      if (raw === null) {
        if (!single) throw new WireInputError('users/user', 'is required');
        return { bulk: false, items: [{ index: 0, input: item.decode(body) }], failures: [], count: 1 };
      }
      if (raw.length > maxUserItems) throw new WireInputError('users/user', `must list at most ${maxUserItems} users`);
      const decoded: BulkInput = { bulk: true, items: [], failures: [], count: raw.length };
      raw.forEach((value, index) => {
        const fields = value === '' ? {} : value;
        if (!isObject(fields)) {
          decoded.failures.push({ index, message: 'user: must be an object' });
          return;
        }
        const sent = { id: fields.id, schoolUid: fields.school_uid };
        try {
          decoded.items.push({ index, ...sent, input: item.decode(fields) });
        } catch (error) {
          if (!(error instanceof WireInputError)) throw error;
          decoded.failures.push({ index, ...sent, message: error.message });
        }
      });
      return decoded as unknown as Record<string, unknown>;
    },
    wireName: item.wireName,
    // One object, as the API document and the fuzzer take bodies: a user's members, or `users` (each user's required
    // members are then required in it).
    schema: single
      ? (single.schema as z.ZodObject).extend({ users: users.optional() }).meta({
          description: `One user (name_first, name_last and role_id required), or up to ${maxUserItems} in users/user.`,
        })
      : bulkSchema,
    required: single ? [] : ['users'],
    listPaths: new Set(['users.user', 'user']),
  };
}

/** One item of a bulk answer, as the platform's: its code, and on success where the user is. */
const resultItemWire = z.object({
  response_code: z
    .int()
    .describe(
      '200 written or reactivated; 204 deleted or made inactive; 400 invalid, 403 refused, 404 not found, 409 taken',
    ),
  id: z.union([z.string(), z.int()]).optional().describe("The user's id; on a failed item, the id as sent."),
  school_uid: z.string().optional().describe("The user's school user id (as sent, on a failed item)."),
  location: z.url().optional().describe('Where the user is; absent on a failed or deleted item.'),
  message: z.string().optional().describe('Why the item was not written.'),
});
export const userResultsWire = z
  .object({ user: z.array(resultItemWire) })
  .meta({ id: 'UserResults', description: 'Per-item results of a bulk write of users, in the order sent.' });

type ItemResult = {
  code: UserItemCode;
  message: string | null;
  issues: readonly { field: string; message: string }[];
  user: RestUserResult | null;
};

/** A failed item's message, naming the wire members the client sent. */
const messageOf = (result: ItemResult, body: WireBody) =>
  result.issues.length
    ? result.issues.map((issue) => `${body.wireName(issue.field)}: ${issue.message}`).join('; ')
    : (result.message ?? '');

const sentText = (value: unknown) =>
  typeof value === 'string' || Number.isSafeInteger(value) ? String(value) : undefined;

/** The per-item answer of a bulk write, with the items the wire could not read in their places: 200, or 207 when codes differ. */
function bulkAnswer(results: readonly ItemResult[], request: RestRequest, link: LinkBuilder, body: WireBody) {
  const input = request.input as BulkInput;
  const answers: z.input<typeof resultItemWire>[] = new Array(input.count);
  input.items.forEach((item, at) => {
    const result = results[at]!;
    const id = result.user ? result.user.id : sentText(item.id);
    const schoolUid = result.user ? (result.user.schoolUid ?? '') : sentText(item.schoolUid);
    answers[item.index] = {
      response_code: userItemCodes[result.code],
      ...(id !== undefined ? { id } : {}),
      ...(schoolUid !== undefined ? { school_uid: schoolUid } : {}),
      ...(result.user ? { location: link(`/users/${result.user.id}`) } : {}),
      ...(result.user || result.code === 'DELETED' ? {} : { message: messageOf(result, body) }),
    };
  });
  for (const failure of input.failures) {
    const id = sentText(failure.id);
    const schoolUid = sentText(failure.schoolUid);
    answers[failure.index] = {
      response_code: 400,
      ...(id !== undefined ? { id } : {}),
      ...(schoolUid !== undefined ? { school_uid: schoolUid } : {}),
      message: failure.message,
    };
  }
  const codes = new Set(answers.map((answer) => answer.response_code));
  return { status: codes.size > 1 ? 207 : 200, body: { user: answers } };
}

/** A single write's failed item, raised as the status its code names. */
function itemFailure(result: ItemResult): never {
  const message = result.message ?? 'The user was not written';
  switch (result.code) {
    case 'FORBIDDEN':
      throw forbidden(message);
    case 'NOT_FOUND':
      throw new PayloadError('NotFoundError', message);
    case 'CONFLICT':
      throw new PayloadError('ConflictError', message, [...result.issues]);
    default:
      throw new PayloadError('ValidationError', message, [...result.issues]);
  }
}

const results = `results { code message issues { field message } user { ...RestUser } }`;
/** A comma-separated query parameter (`role_ids=1213,1214`) as a list of its items. */
const commaList = <Item extends z.ZodType>(schema: Item, error: string) =>
  z.preprocess(
    (value) =>
      typeof value === 'string' || typeof value === 'number'
        ? String(value)
            .split(',')
            .map((part) => part.trim())
            .filter(Boolean)
        : value,
    z.array(schema, { error }),
  );
const commaIds = (input: string): WireField => ({
  schema: commaList(z.string().regex(/^\d{1,15}$/, 'must be numeric ids, comma-separated'), 'must be numeric ids'),
  input,
});
const commaUids = (input: string): WireField => ({
  schema: commaIds(input).schema.pipe(z.array(z.string()).max(maxUserItems, `must list at most ${maxUserItems} users`)),
  input,
});
const commaRoles = (input: string): WireField => ({
  schema: commaList(
    z
      .string()
      .refine((key) => Object.hasOwn(rolesById, key), `must be role ids (${roleIdList}), comma-separated`)
      .transform((key) => rolesById[key]),
    'must be role ids',
  ),
  input,
});
const commaTexts = (input: string): WireField => ({
  schema: commaList(z.string(), 'must be text').pipe(
    z.array(z.string()).max(maxUserItems, `must list at most ${maxUserItems}`),
  ),
  input,
});

/**
 * What a delete (a deactivation) reads: whether the enrollments are kept; the comment and the e-mail notification are
 * read and ignored (nothing keeps a comment, and no mail is sent here).
 */
const deleteOptions: WireShape = {
  option_comment: text('optionComment'),
  option_keep_enrollments: flag('optionKeepEnrollments'),
  email_notification: flag('emailNotification'),
};

const createUsersDocument = graphql(
  `mutation($input: CreateUsersInput!) { createUsers(input: $input) { userErrors { ...UserErrors } ${results} } }`,
  [UserErrors, RestUser],
);

/** POST /users: one user (201 with it) or a bulk of up to 50 (a result per item), at the same path, as the platform. */
function createUsersRoute(): RestRoute {
  const body = usersBody(createBody, wireBody(userMembers));
  const post = bulkRoute('POST', {
    path: '/users',
    summary: `Create a user (201 with it), or up to ${maxUserItems} in users/user with a response code per item (school and district administrators)`,
    body,
    filters: wireBody({ update_existing: flag('updateExisting') }),
    wire: userResultsWire,
    document: createUsersDocument,
    variables: (request) => ({
      input: {
        items: (request.input as BulkInput).items.map((item) => item.input) as never,
        updateExisting: request.filters.updateExisting ?? false,
      },
    }),
    payload: 'results',
    shape: (written, link, request) => bulkAnswer(written, request, link, body).body,
  });
  return {
    ...post,
    responses: { 201: userWire, 200: userResultsWire, 207: userResultsWire },
    respond(result, request, link) {
      const outcome = post.respond(result, request, link);
      const written = (result as { results: ItemResult[] }).results;
      if ((request.input as BulkInput).bulk) return { ...outcome, ...bulkAnswer(written, request, link, body) };
      const [only] = written;
      if (!only?.user) return itemFailure(only!);
      return { status: 201, body: userToWire(only.user, link) };
    },
  };
}

/** PUT /users: up to 50 changes in users/user, a result per item (200, or 207 when their codes differ). */
function updateUsersRoute(): RestRoute {
  const body = usersBody(changeItemBody);
  const put = bulkRoute('PUT', {
    path: '/users',
    summary: `Change up to ${maxUserItems} users in users/user, with a response code per item (their administrators)`,
    body,
    wire: userResultsWire,
    document: graphql(
      `mutation($input: UpdateUsersInput!) { updateUsers(input: $input) { userErrors { ...UserErrors } ${results} } }`,
      [UserErrors, RestUser],
    ),
    variables: (request) => ({
      input: { items: (request.input as BulkInput).items.map((item) => item.input as { id: string }) as never },
    }),
    payload: 'results',
    // The codes of the items the wire could not read are known only here: `respond` below judges 200 or 207.
    codes: (written) => written.map((result) => userItemCodes[result.code]),
    shape: (written, link, request) => bulkAnswer(written, request, link, body).body,
  });
  return {
    ...put,
    respond(result, request, link) {
      const outcome = put.respond(result, request, link);
      return { ...outcome, ...bulkAnswer((result as { results: ItemResult[] }).results, request, link, body) };
    },
  };
}

/** PUT /users/inactive: up to 50 inactive users in users/user made active again, a result per item (200 or 207). */
function reactivateUsersRoute(): RestRoute {
  const body = usersBody(wireBody({ id: id('id') }, ['id']));
  const put = bulkRoute('PUT', {
    path: '/users/inactive',
    summary: `Make up to ${maxUserItems} inactive users in users/user active again, with a response code per item (their administrators)`,
    body,
    wire: userResultsWire,
    document: graphql(
      `mutation($input: ReactivateUsersInput!) { reactivateUsers(input: $input) { userErrors { ...UserErrors } ${results} } }`,
      [UserErrors, RestUser],
    ),
    variables: (request) => ({
      input: { ids: (request.input as BulkInput).items.map((item) => item.input.id as string) },
    }),
    payload: 'results',
    codes: (written) => written.map((result) => userItemCodes[result.code]),
    shape: (written, link, request) => bulkAnswer(written, request, link, body).body,
  });
  return {
    ...put,
    respond(result, request, link) {
      const outcome = put.respond(result, request, link);
      return { ...outcome, ...bulkAnswer((result as { results: ItemResult[] }).results, request, link, body) };
    },
  };
}

export const userRoutes = [
  viewRoute({
    path: '/users/{id}',
    summary: 'View a user',
    wire: userWire,
    document: graphql(`query($id: ID!) { user(id: $id) { ...RestUser } }`, [RestUser]),
    variables: ({ params }) => ({ id: params.id }),
    shape: userToWire,
  }),
  listRoute({
    path: '/users',
    summary: "List the users the caller may see (their school's; the district's for district administrators), by id",
    item: 'user',
    wire: userWire,
    filters: wireBody({
      role_ids: withExamples(commaRoles, '1214', '1213,1214')('roles'),
      school_ids: commaIds('schoolIds'),
      building_id: id('buildingId'),
      school_uids: withExamples(commaTexts, 'S-1042,S-1043')('schoolUids'),
    }),
    document: graphql(
      `query($start: Int!, $limit: Int!, $roles: [Role!], $schoolIds: [ID!], $buildingId: ID, $schoolUids: [String!]) {
        users(start: $start, limit: $limit, roles: $roles, schoolIds: $schoolIds, buildingId: $buildingId, schoolUids: $schoolUids) {
          total items { ...RestUser }
        }
      }`,
      [RestUser],
    ),
    variables: ({ filters }) => ({
      roles: filters.roles ?? null,
      schoolIds: filters.schoolIds ?? null,
      buildingId: filters.buildingId ?? null,
      schoolUids: filters.schoolUids ?? null,
    }),
    shape: userToWire,
  }),
  // Clients call this first to learn who their key acts as; the platform answers with a redirect to the user.
  redirectRoute({
    path: '/users/me',
    summary: 'Redirect (303) to the user the credentials act as',
    document: graphql(`query { viewer { id: databaseId } }`),
    variables: () => ({}),
    location: (viewer) => `/users/${viewer.id}`,
  }),
  redirectRoute({
    path: '/users/ext/{schoolUid:word}',
    summary:
      'Redirect (303) to the user the caller sees with this school user id (the lowest id where several schools use it)',
    document: graphql(
      `query($schoolUids: [String!]) { users(schoolUids: $schoolUids, limit: 1) { items { id: databaseId } } }`,
    ),
    variables: ({ params }) => ({ schoolUids: [params.schoolUid!] }),
    location: ({ items }) => {
      const user = items[0];
      if (!user) throw new MissingObjectError();
      return `/users/${user.id}`;
    },
  }),
  viewRoute({
    path: '/users/{id}/sections',
    paged: true,
    summary: 'List the sections a user is an active member of, by id (the user, their parents and administrators)',
    // The sections as /sections/{id} answers them: clients read both with one model (schoolopy's Section).
    wire: pagedEnvelope('section', sectionWire),
    document: graphql(
      `query($id: ID!, $start: Int!, $limit: Int!) {
        user(id: $id) { sectionList(start: $start, limit: $limit) { total items { ...RestSection } } }
      }`,
      [RestSection],
    ),
    variables: ({ params, page }) => ({ id: params.id!, start: page.start, limit: page.limit }),
    shape: ({ sectionList: { items, total } }, link, request) => ({
      section: items.map((section) => sectionToWire(section, link)),
      total,
      links: pageLinks(total, request, link),
    }),
  }),
  viewRoute({
    path: '/users/{id}/groups',
    paged: true,
    summary:
      'List the groups a user belongs to that the caller sees, by id (the user, their parents and administrators)',
    wire: pagedEnvelope('group', groupWire),
    document: graphql(
      `query($id: ID!, $start: Int!, $limit: Int!) {
        user(id: $id) { groupList(start: $start, limit: $limit) { total items { ...RestGroup } } }
      }`,
      [RestGroup],
    ),
    variables: ({ params, page }) => ({ id: params.id!, start: page.start, limit: page.limit }),
    shape: ({ groupList: { items, total } }, link, request) => ({
      group: items.map((group) => groupToWire(group, link)),
      total,
      links: pageLinks(total, request, link),
    }),
  }),
  createUsersRoute(),
  updateRoute({
    path: '/users/{id}',
    summary: "Change a user (their school's and district's administrators)",
    body: changeBody,
    document: graphql(
      `mutation($input: UpdateUserInput!) { updateUser(input: $input) { userErrors { ...UserErrors } user { id: databaseId } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { ...request.input, id: request.params.id! } }),
  }),
  updateUsersRoute(),
  deleteRoute({
    path: '/users/{id}',
    summary:
      "Make a user inactive, keeping their enrollments with option_keep_enrollments=1 (their school's and district's administrators)",
    filters: wireBody(deleteOptions),
    document: graphql(
      `mutation($input: DeactivateUserInput!) { deactivateUser(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({
      input: { id: request.params.id!, keepEnrollments: request.filters.optionKeepEnrollments ?? false },
    }),
  }),
  bulkRoute('DELETE', {
    path: '/users',
    summary: `Make up to ${maxUserItems} users named in uids inactive, with a response code per item`,
    filters: wireBody({ uids: withExamples(commaUids, '48289,48290')('ids'), ...deleteOptions }, ['uids']),
    wire: userResultsWire,
    document: graphql(
      `mutation($input: DeactivateUsersInput!) { deactivateUsers(input: $input) { userErrors { ...UserErrors } results { code message } } }`,
      [UserErrors],
    ),
    variables: (request) => ({
      input: { ids: request.filters.ids, keepEnrollments: request.filters.optionKeepEnrollments ?? false },
    }),
    payload: 'results',
    codes: (written) => written.map((result) => userItemCodes[result.code]),
    shape: (written, _link, request) => ({
      user: written.map((result, at) => ({
        id: (request.filters.ids as string[])[at]!,
        response_code: userItemCodes[result.code],
        ...(result.code === 'DEACTIVATED' ? {} : { message: result.message ?? '' }),
      })),
    }),
  }),
  listRoute({
    path: '/users/inactive',
    summary:
      "List the inactive users the caller administers (their school's; the district's for district administrators), by id",
    item: 'user',
    wire: userWire,
    filters: wireBody({}),
    document: graphql(
      `query($start: Int!, $limit: Int!) {
        users(start: $start, limit: $limit, active: false) { total items { ...RestUser } }
      }`,
      [RestUser],
    ),
    variables: () => ({}),
    shape: userToWire,
  }),
  viewRoute({
    path: '/users/inactive/{id}',
    summary: 'View an inactive user (their administrators)',
    wire: userWire,
    document: graphql(`query($id: ID!) { user(id: $id) { active ...RestUser } }`, [RestUser]),
    variables: ({ params }) => ({ id: params.id }),
    shape: (user, link) => {
      // An active user is not on the list of inactive ones: this path answers 404 for them, as for an unknown id.
      if (user.active) throw new MissingObjectError();
      return userToWire(user, link);
    },
  }),
  reactivateUsersRoute(),
];

import { createHmac, randomInt } from 'node:crypto';
import { gunzipSync, inflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { issueApiClient } from '../../src/modules/access/access.service';
import { type World, createGroup, createSection, createUser, createWorld, unique } from '../support/factories';
import { useTestServer } from '../support/harness';
import { testOrigin } from '../support/wire';

/*
 * Replays the roster calls of schoolopy (github.com/ErikBoesen/schoolopy, schoolopy/main.py and authentication.py), the
 * platform's Python client, byte for byte as it sends them through requests and requests-oauthlib, and reads the
 * answers as schoolopy does. schoolopy is not installable here (no PyPI); its lines are quoted above each call.
 *
 * How schoolopy sends a request (two-legged: `schoolopy.Auth(key, secret)`):
 *   self.oauth = requests_oauthlib.OAuth1Session(self.consumer_key, self.consumer_secret)
 *   response = self.schoology_auth.oauth.get(url='%s%s?limit=%s' % (self.api_host, path, self.limit), headers=self.schoology_auth._request_header(), auth=self.schoology_auth.oauth.auth)
 *   return {'Authorization': self._oauth_header(), 'Accept': 'application/json', 'Host': 'api.schoology.com', 'Content-Type': 'application/json'}
 * requests-oauthlib's OAuth1 (`auth=`) then signs the request and replaces that PLAINTEXT Authorization header with its
 * own HMAC-SHA1 one, over the URL with the Host header's host (oauthlib's base_string_uri(uri, headers['Host'])), with
 * no oauth_token and no realm; a JSON body is not signed (OAuth1 passes body None unless it is form-encoded).
 */

const server = useTestServer();
let w: World;
let consumer: { key: string; secret: string };

/** schoolopy's default api_host, pointed at the test server: `api_host='https://api.schoology.com/v1/'`. */
const apiHost = `${testOrigin}/v1/`;

/** RFC 5849 percent-encoding, as oauthlib's utils.escape (quote with safe='~'). */
const percentEncode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/** The Authorization header oauthlib's Client.sign renders for a two-legged HMAC-SHA1 request. */
function oauthlibAuthorization(method: string, url: string, host: string): string {
  const oauth: [string, string][] = [
    // oauthlib's generate_nonce: random bits and the timestamp, as digits.
    ['oauth_nonce', `${randomInt(2 ** 47)}${randomInt(2 ** 47)}${Math.floor(Date.now() / 1000)}`],
    ['oauth_timestamp', String(Math.floor(Date.now() / 1000))],
    ['oauth_version', '1.0'],
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_consumer_key', consumer.key],
  ];
  const parsed = new URL(url);
  const query = [...parsed.searchParams.entries()];
  const normalized = [...query, ...oauth]
    .map(([key, value]) => [percentEncode(key), percentEncode(value)] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const baseUri = `${parsed.protocol}//${host}${parsed.pathname}`;
  const base = [method, percentEncode(baseUri), percentEncode(normalized)].join('&');
  const signature = createHmac('sha1', `${percentEncode(consumer.secret)}&`)
    .update(base)
    .digest('base64');
  return `OAuth ${[...oauth, ['oauth_signature', signature]].map(([key, value]) => `${percentEncode(key)}="${percentEncode(value)}"`).join(', ')}`;
}

/** Python's json.dumps as requests' `json=` calls it: ", " and ": " separators, non-ASCII escaped. */
function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, item]) => `${pythonJson(key)}: ${pythonJson(item)}`)
      .join(', ')}}`;
  return JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** One request as requests sends it for schoolopy: its default headers, schoolopy's, the signed Authorization. */
async function schoolopy(method: 'GET' | 'POST', path: string, data?: unknown) {
  // `Schoology.limit = 20`, appended to every path: '%s%s?limit=%s' % (self.api_host, path, self.limit)
  const url = `${apiHost}${path}?limit=20`;
  const body = data === undefined ? undefined : pythonJson(data);
  const response = await server.app.fetch(
    new Request(url, {
      method,
      headers: {
        'User-Agent': 'python-requests/2.32.3',
        'Accept-Encoding': 'gzip, deflate',
        Accept: 'application/json',
        Connection: 'keep-alive',
        Host: 'api.schoology.com',
        'Content-Type': 'application/json',
        Authorization: oauthlibAuthorization(method, url, 'api.schoology.com'),
        ...(body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }),
      },
      body,
    }),
  );
  // requests decodes what it asked for with Accept-Encoding before `response.json()` reads it.
  const bytes = Buffer.from(await response.arrayBuffer());
  const encoding = response.headers.get('content-encoding');
  const text = (
    encoding === 'gzip' ? gunzipSync(bytes) : encoding === 'deflate' ? inflateSync(bytes) : bytes
  ).toString();
  // `response.raise_for_status()`, then `return response.json()`
  expect(response.status, text).toBeLessThan(400);
  return JSON.parse(text) as Record<string, any>;
}

/**
 * schoolopy's models: `class _base_model(dict)` whose `__init__(self, json)` does `self.update(json)`. A dict updates
 * from a mapping; from a string (a key of a dict iterated over) it raises, as Python's dict.update("user") does.
 */
function model(raw: unknown): Record<string, unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new TypeError(`dict.update(${JSON.stringify(raw)}): not a mapping`);
  return { ...(raw as Record<string, unknown>) };
}
/** Python's `for raw in value`: a list's items, a dict's keys. */
const iterate = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value !== null && typeof value === 'object' ? Object.keys(value) : [];

beforeAll(async () => {
  w = await createWorld();
  const issued = await issueApiClient(server.serverKey, { userId: w.schoolAdmin.id, name: 'schoolopy' });
  consumer = { key: issued.consumerKey, secret: issued.consumerSecret };
});

describe('schoolopy roster calls, replayed', () => {
  it('get_users: GET users?limit=20, read as answer["user"], the first page of 20', async () => {
    for (let index = 0; index < 21; index++) await createUser(w.school.id, 'STUDENT');
    // return [User(raw) for raw in self._get('users' + ('/inactive' if inactive else ''))['user']]
    const answer = await schoolopy('GET', 'users');
    const users = answer.user.map(model);
    expect(users).toHaveLength(20);
    expect(users.every((user: Record<string, unknown>) => 'uid' in user && 'name_display' in user)).toBe(true);
    // schoolopy reads one page of `limit`; the rest is behind links.next, as on the platform. Links are built on the
    // server's own address (PUBLIC_URL), never on the Host header the client sent.
    const pathOf = (link: string) => new URL(link).pathname + new URL(link).search;
    expect(pathOf(answer.links.self)).toBe('/v1/users?limit=20&start=0');
    expect(pathOf(answer.links.next)).toBe('/v1/users?limit=20&start=20');
  });

  it('create_users: POST users?limit=20 with users/user; schoolopy iterates the answer object itself', async () => {
    const roster = [
      { school_uid: unique('py'), name_first: 'Guido', name_last: 'Rossum', role_id: 1214 },
      { school_uid: unique('py'), name_first: 'Tim', name_last: 'Peters', role_id: 1214 },
    ];
    // return [User(raw) for raw in self._post('users', {'users': {'user': [user.json() for user in users]}})]
    const answer = await schoolopy('POST', 'users', { users: { user: roster } });
    expect(
      answer.user.map((item: { response_code: number; school_uid: string }) => [item.response_code, item.school_uid]),
    ).toEqual(roster.map((user) => [200, user.school_uid]));
    expect(await db().user.count({ where: { schoolUid: { in: roster.map((user) => user.school_uid) } } })).toBe(2);
    // `for raw in` the answer object yields its keys: User("user") raises in schoolopy, as it would on the
    // platform's own answer ({"user": [...]}), so callers read `_post`'s dict themselves.
    expect(() => iterate(answer).map(model)).toThrow(TypeError);
  });

  it('get_courses and get_sections(course_id): GET courses, courses/{id}/sections, read as ["course"], ["section"]', async () => {
    const section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }]);
    // return [Course(raw) for raw in self._get('courses')['course']]
    const courses = (await schoolopy('GET', 'courses')).course.map(model);
    expect(courses.map((course: Record<string, unknown>) => course.id)).toContain(String(section.courseId));
    // return [Section(raw) for raw in self._get('courses/%s/sections' % course_id)['section']]
    const sections = (await schoolopy('GET', `courses/${section.courseId}/sections`)).section.map(model);
    expect(sections).toEqual([
      expect.objectContaining({ id: String(section.id), course_id: String(section.courseId) }),
    ]);
  });

  it("get_sections (schoolopy's earlier form, without a course): GET sections, read as ['section']", async () => {
    const section = await createSection(w.school.id);
    // return [Section(raw) for raw in self._get('sections')['section']]
    const sections = (await schoolopy('GET', 'sections')).section.map(model);
    expect(sections.length).toBeGreaterThan(0);
    expect(sections.length).toBeLessThanOrEqual(20);
    const all = await db().section.count({ where: { course: { schoolId: w.school.id } } });
    if (all <= 20) expect(sections.map((item: Record<string, unknown>) => item.id)).toContain(String(section.id));
  });

  it('get_section_enrollments and create_section_enrollments: sections/{id}/enrollments', async () => {
    const section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }]);
    const students = [await createUser(w.school.id, 'STUDENT'), await createUser(w.school.id, 'STUDENT')];
    const enrollments = students.map((student) => ({ uid: String(student.id), admin: '0', status: '1' }));
    // return [Enrollment(raw) for raw in self._post('sections/%s/enrollments' % section_id, {'enrollments': {'enrollment': [enrollment.json() for enrollment in enrollments]}})]
    const created = await schoolopy('POST', `sections/${section.id}/enrollments`, {
      enrollments: { enrollment: enrollments },
    });
    expect(
      created.enrollment.map((item: { response_code: number; uid: string }) => [item.response_code, item.uid]),
    ).toEqual(students.map((student) => [200, String(student.id)]));
    expect(() => iterate(created).map(model)).toThrow(TypeError);
    // return [Enrollment(raw) for raw in self._get('sections/%s/enrollments' % section_id)['enrollment']]
    const roster = (await schoolopy('GET', `sections/${section.id}/enrollments`)).enrollment.map(model);
    expect(
      roster.map((enrollment: Record<string, unknown>) => [enrollment.uid, enrollment.admin, enrollment.status]),
    ).toEqual([[String(w.teacher.id), 1, 1], ...students.map((student) => [String(student.id), 0, 1])]);
  });

  it("get_group_enrollments: GET groups/{id}/enrollments, read as ['enrollment']", async () => {
    const group = await createGroup(w.school.id, { admins: [w.teacher.id], members: [w.student.id] });
    // return [Enrollment(raw) for raw in self._get('groups/%s/enrollments' % group_id)['enrollment']]
    const members = (await schoolopy('GET', `groups/${group.id}/enrollments`)).enrollment.map(model);
    expect(members.map((member: Record<string, unknown>) => [member.uid, member.admin, member.status])).toEqual([
      [String(w.teacher.id), 1, 1],
      [String(w.student.id), 0, 1],
    ]);
  });

  it("get_user_sections: GET users/{id}/sections, read as ['section']", async () => {
    const section = await createSection(w.school.id, [{ userId: w.student.id }]);
    // return [Section(raw) for raw in self._get('users/%s/sections' % user_id)['section']]
    const sections = (await schoolopy('GET', `users/${w.student.id}/sections`)).section.map(model);
    expect(sections.map((item: Record<string, unknown>) => item.id)).toContain(String(section.id));
  });
});

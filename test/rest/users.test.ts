import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { type RestClient, clientsFor } from '../support/client';
import { type World, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';
import { v1, xmlHead } from '../support/wire';

const server = useTestServer();
type Person = 'districtAdmin' | 'schoolAdmin' | 'teacher' | 'student' | 'parent' | 'otherSchoolStudent' | 'outsider';
let w: World;
const clients = clientsFor(server);
const as = clients.rest;

beforeAll(async () => {
  w = await createWorld();
  await db().user.update({
    where: { id: w.teacher.id },
    data: { schoolUid: 'T-007', pictureUrl: 'https://img.test/a?b=1&c=2' },
  });
});

/** The wire shape of a user as the platform renders it, built from the database row. */
async function wireUser(id: number, withEmail: boolean) {
  const user = await db().user.findUniqueOrThrow({ where: { id } });
  return {
    id,
    uid: id,
    school_id: user.schoolId,
    building_id: user.buildingId ?? 0,
    school_uid: user.schoolUid ?? '',
    name_title: '',
    name_first: user.nameFirst,
    name_first_preferred: '',
    name_middle: '',
    name_last: user.nameLast,
    name_display: `${user.nameFirst} ${user.nameLast}`,
    username: user.username,
    ...(withEmail ? { primary_email: user.email } : {}),
    picture_url: user.pictureUrl,
    position: '',
    gender: null,
    grad_year: '',
    role_id: { DISTRICT_ADMIN: 1211, SCHOOL_ADMIN: 1212, TEACHER: 1213, STUDENT: 1214, PARENT: 1215 }[user.role],
    tz_name: 'UTC',
    links: { self: `${v1}/users/${id}` },
  };
}

/** PLAINTEXT as client libraries send it: `secret&` with the `&` percent-encoded in the header. */
function plaintextAuthorization(client: RestClient): string {
  const params = {
    oauth_consumer_key: client.consumerKey,
    oauth_token: '',
    oauth_nonce: randomUUID().replace(/-/g, ''),
    oauth_timestamp: String(Math.floor(Date.now() / 1000)),
    oauth_signature_method: 'PLAINTEXT',
    oauth_version: '1.0',
    oauth_signature: `${encodeURIComponent(client.consumerSecret)}%26`,
  };
  return `OAuth realm="Schoology API", ${Object.entries(params)
    .map(([name, value]) => `${name}="${value}"`)
    .join(', ')}`;
}

describe('GET /v1/users/{id}', () => {
  it('shows a user to themself in JSON with integer ids and their primary_email', async () => {
    const response = await (await as(w.teacher)).get(`/users/${w.teacher.id}`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual(await wireUser(w.teacher.id, true));
    expect(response.json).toMatchObject({
      id: w.teacher.id,
      school_id: w.school.id,
      building_id: w.building.id,
      school_uid: 'T-007',
    });
    expect(response.json.primary_email).toMatch(/@example\.test$/);
  });

  it('shows a same-school user in XML without their primary_email', async () => {
    const response = await (await as(w.student)).get(`/users/${w.teacher.id}`, { accept: 'xml' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    const user = await wireUser(w.teacher.id, false);
    expect(response.text).toBe(
      `${xmlHead}<result>` +
        `<id>${w.teacher.id}</id><uid>${w.teacher.id}</uid><school_id>${w.school.id}</school_id><building_id>${w.building.id}</building_id>` +
        `<school_uid>T-007</school_uid><name_title /><name_first>Test</name_first><name_first_preferred /><name_middle />` +
        `<name_last>${user.name_last}</name_last><name_display>${user.name_display}</name_display><username>${user.username}</username>` +
        '<picture_url>https://img.test/a?b=1&amp;c=2</picture_url><position /><gender /><grad_year />' +
        `<role_id>1213</role_id><tz_name>UTC</tz_name><links><self>${user.links.self}</self></links></result>`,
    );
  });

  it.each<[Person, Person, boolean]>([
    ['parent', 'student', false],
    ['teacher', 'student', false],
    ['schoolAdmin', 'student', true],
    ['schoolAdmin', 'parent', true],
    ['districtAdmin', 'teacher', true],
    ['districtAdmin', 'otherSchoolStudent', true],
    ['otherSchoolStudent', 'otherSchoolStudent', true],
  ])('%s sees %s, primary_email shown: %s', async (viewer, subject, withEmail) => {
    const response = await (await as(w[viewer])).get(`/users/${w[subject].id}`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual(await wireUser(w[subject].id, withEmail));
    expect('primary_email' in response.json).toBe(withEmail);
  });

  it.each<[Person, Person | string]>([
    ['teacher', 'otherSchoolStudent'],
    ['schoolAdmin', 'otherSchoolStudent'],
    ['otherSchoolStudent', 'student'],
    ['outsider', 'teacher'],
    ['districtAdmin', 'outsider'],
    ['districtAdmin', '999999'],
    ['districtAdmin', '4000000000'],
    ['districtAdmin', '12345678901234567890'],
    ['districtAdmin', 'abc'],
  ])('%s gets 404 for user %s', async (viewer, subject) => {
    const id = subject in w ? w[subject as Person].id : subject;
    const response = await (await as(w[viewer])).get(`/users/${id}`, { accept: 'xml' });
    expect(response.status).toBe(404);
    expect(response.text).toMatch(/^<\?xml version="1.0" encoding="utf-8" \?><result><error>.+<\/error><\/result>$/);
  });

  it("refuses a user changing themself with 403: their account is their administrators' to change", async () => {
    const response = await (await as(w.teacher)).put(`/users/${w.teacher.id}`, { name_first: 'X' });
    expect(response.status).toBe(403);
    expect((await db().user.findUniqueOrThrow({ where: { id: w.teacher.id } })).nameFirst).toBe('Test');
    const options = await (await as(w.teacher)).request('OPTIONS', `/users/${w.teacher.id}`);
    expect(options.headers.get('allow')).toBe('GET, PUT, DELETE, OPTIONS');
  });
});

describe('GET /v1/users/me', () => {
  it.each(['json', 'xml'] as const)('answers 303 See Other to the caller (HMAC-SHA1, %s)', async (accept) => {
    const client = await as(w.student);
    const response = await client.get('/users/me', { accept });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`${v1}/users/${w.student.id}`);
    expect(response.text).toBe('');
    const followed = await client.get(new URL(response.headers.get('location')!).pathname.slice('/v1'.length));
    expect(followed.status).toBe(200);
    expect(followed.json).toEqual(await wireUser(w.student.id, true));
  });

  it('answers 303 to a PLAINTEXT-signed request, and 401 in plain text to an unsigned one', async () => {
    const client = await as(w.districtAdmin);
    const response = await client.get('/users/me', { headers: { authorization: plaintextAuthorization(client) } });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`${v1}/users/${w.districtAdmin.id}`);
    const unsigned = await server.fetch('/v1/users/me');
    expect(unsigned.status).toBe(401);
    expect(unsigned.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const wrongSecret = await client.get('/users/me', {
      headers: {
        authorization: plaintextAuthorization(client).replace(/oauth_signature="[^"]*"/, 'oauth_signature="wrong%26"'),
      },
    });
    expect(wrongSecret.status).toBe(401);
  });
});

describe('GraphQL twins', () => {
  const fields =
    'id: databaseId username nameTitle nameFirst nameFirstPreferred nameMiddle nameLast nameDisplay email pictureUrl position gender gradYear schoolUid role school { id: databaseId district { timeZone } } building { id: databaseId }';
  const toWire = (user: Record<string, any>) => ({
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
    picture_url: user.pictureUrl,
    position: user.position ?? '',
    gender: user.gender,
    grad_year: user.gradYear === null ? '' : String(user.gradYear),
    role_id: { DISTRICT_ADMIN: 1211, SCHOOL_ADMIN: 1212, TEACHER: 1213, STUDENT: 1214, PARENT: 1215 }[
      user.role as string
    ],
    tz_name: user.school.district.timeZone,
    links: { self: `${v1}/users/${user.id}` },
  });

  it('viewer is the user /users/me redirects to', async () => {
    const graphql = await clients.graphql(w.teacher);
    const { data } = await graphql(`{ viewer { ${fields} } }`);
    expect(data.viewer.role).toBe('TEACHER');
    const rest = await (await as(w.teacher)).get(`/users/${w.teacher.id}`);
    expect(toWire(data.viewer)).toEqual(rest.json);
  });

  it('user(id) matches REST, hides the email from non-admins and answers null for hidden users', async () => {
    const graphql = await clients.graphql(w.parent);
    const query = `query($id: ID!) { user(id: $id) { ${fields} } }`;
    const seen = await graphql(query, { id: String(w.teacher.id) });
    expect(seen.data.user.email).toBeNull();
    expect(toWire(seen.data.user)).toEqual((await (await as(w.parent)).get(`/users/${w.teacher.id}`)).json);
    for (const id of [w.otherSchoolStudent.id, w.outsider.id, 999999, 4000000000]) {
      const hidden = await graphql(query, { id: String(id) });
      expect([id, hidden.status, hidden.errors, hidden.data]).toEqual([id, 200, undefined, { user: null }]);
    }
    const admin = await clients.graphql(w.schoolAdmin);
    const { data } = await admin(query, { id: String(w.teacher.id) });
    expect(data.user.email).toBe((await db().user.findUniqueOrThrow({ where: { id: w.teacher.id } })).email);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { clientsFor } from '../support/client';
import {
  type World,
  createGroup,
  createSchool,
  createSection,
  createUser,
  createWorld,
  unique,
  watchDomainEvents,
} from '../support/factories';
import { useTestServer } from '../support/harness';
import { v1, xmlHead } from '../support/wire';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);
const as = clients.rest;
let w: World;

beforeAll(async () => {
  w = await createWorld();
});

const student = (fields: Record<string, unknown> = {}): Record<string, any> => ({
  school_uid: unique('S'),
  name_first: 'Ada',
  name_last: 'Lovelace',
  role_id: 1214,
  ...fields,
});
const byUid = (schoolUid: string) => db().user.findFirst({ where: { schoolUid } });

describe('POST /v1/users (one user)', () => {
  it('creates a user (201) with the platform members, and answers as GET does', async () => {
    const client = await as(w.schoolAdmin);
    const events = await watchDomainEvents();
    const sent = student({
      name_title: 'Dr.',
      name_middle: 'King',
      name_first_preferred: 'Countess',
      primary_email: `${unique('ada')}@example.test`,
      position: 'Analyst',
      gender: 'f',
      grad_year: '2031',
      building_id: w.building.id,
      password: 'ignored, never stored',
      email_login_info: 1,
    });
    const response = await client.post('/users', sent);
    expect(response.status).toBe(201);
    const created = (await byUid(sent.school_uid))!;
    expect(response.json).toEqual({
      id: created.id,
      uid: created.id,
      school_id: w.school.id,
      building_id: w.building.id,
      school_uid: sent.school_uid,
      name_title: 'Dr.',
      name_first: 'Ada',
      name_first_preferred: 'Countess',
      name_middle: 'King',
      name_last: 'Lovelace',
      name_display: 'Ada Lovelace',
      // Without a username the school's own id is the login name.
      username: sent.school_uid,
      primary_email: sent.primary_email,
      picture_url: '',
      position: 'Analyst',
      gender: 'F',
      grad_year: '2031',
      role_id: 1214,
      tz_name: 'UTC',
      links: { self: `${v1}/users/${created.id}` },
    });
    expect(JSON.stringify(created)).not.toContain('ignored');
    expect((await client.get(`/users/${created.id}`)).json).toEqual(response.json);
    expect(await events()).toEqual([
      ['user.create', 'SCHOOL', w.school.id, created.id, w.schoolAdmin.id, w.district.id, w.school.id],
    ]);
  });

  it('reads an XML body and answers in XML', async () => {
    const schoolUid = unique('X');
    const response = await (await as(w.districtAdmin)).post(
      '/users',
      `<body><school_uid>${schoolUid}</school_uid><name_first>Grace</name_first><name_last>Hopper</name_last>` +
        `<username>${schoolUid}-gh</username><role_id>1213</role_id><school_id>${w.otherSchool.id}</school_id></body>`,
      { accept: 'xml' },
    );
    expect(response.status).toBe(201);
    const created = (await byUid(schoolUid))!;
    expect(created).toMatchObject({ schoolId: w.otherSchool.id, role: 'TEACHER', username: `${schoolUid}-gh` });
    expect(response.text).toMatch(
      new RegExp(
        `^${xmlHead.replace(/[?.]/g, '\\$&')}<result><id>${created.id}</id><uid>${created.id}</uid>.*<gender />.*<role_id>1213</role_id>`,
      ),
    );
  });

  it.each<[string, Record<string, unknown>, number, RegExp]>([
    ['no name_first', { name_first: undefined }, 400, /^name_first: is required$/],
    ['an unknown role_id', { role_id: 7 }, 400, /^role_id: must be one of 1211, 1212, 1213, 1214, 1215$/],
    ['a bad title', { name_title: 'Sir' }, 400, /^name_title: must be one of Mr\./],
    ['a bad grad_year', { grad_year: '31' }, 400, /^grad_year: /],
    ['a building of another school', { building_id: 0 }, 400, /^building_id: is not a building of the school$/],
    ['no username, email or school_uid', { school_uid: '' }, 400, /^username: is required when/],
  ])('refuses %s (%i) and writes nothing', async (_case, fields, status, message) => {
    const building = fields.building_id === 0 ? { building_id: (await createSchool(w.district.id)).id } : {};
    const client = await as(w.schoolAdmin);
    const response = await expectNothingWritten(() => client.post('/users', { ...student(fields), ...building }));
    expect([response.status, response.json.error]).toEqual([status, expect.stringMatching(message)]);
  });

  it('answers 409 for a school_uid or username taken in the school', async () => {
    const taken = student();
    const client = await as(w.schoolAdmin);
    expect((await client.post('/users', taken)).status).toBe(201);
    const again = await expectNothingWritten(() => client.post('/users', { ...taken, username: unique('other') }));
    expect([again.status, again.json.error]).toEqual([409, 'School user id is already used in this school']);
    const username = await expectNothingWritten(() => client.post('/users', student({ username: taken.school_uid })));
    expect([username.status, username.json.error]).toEqual([409, 'Username is already used in this school']);
    // Unique within a school only: another school may use the same id.
    const elsewhere = await (await as(w.districtAdmin)).post('/users', { ...taken, school_id: w.otherSchool.id });
    expect(elsewhere.status).toBe(201);
  });

  it.each([
    ['teacher', 403],
    ['student', 403],
    ['parent', 403],
    ['otherSchoolStudent', 403],
    ['outsider', 404],
  ] as const)('refuses a %s (%i)', async (person, status) => {
    const client = await as(w[person]);
    const response = await expectNothingWritten(() => client.post('/users', { ...student(), school_id: w.school.id }));
    expect(response.status).toBe(status);
  });
});

describe('POST /v1/users (bulk)', () => {
  it('answers each item in order, 207 when their codes differ, and commits the good ones alone', async () => {
    const client = await as(w.schoolAdmin);
    const taken = student();
    await client.post('/users', taken);
    const [good, alsoGood] = [student(), student({ role_id: '1213' })];
    const events = await watchDomainEvents();
    const response = await client.post('/users', {
      users: { user: [good, student({ role_id: 9 }), { ...taken }, alsoGood, student({ role_id: 1211 })] },
    });
    expect(response.status).toBe(207);
    const [first, second] = [(await byUid(good.school_uid))!, (await byUid(alsoGood.school_uid))!];
    expect(response.json).toEqual({
      user: [
        { response_code: 200, id: String(first.id), school_uid: good.school_uid, location: `${v1}/users/${first.id}` },
        { response_code: 400, school_uid: expect.any(String), message: expect.stringMatching(/^role_id: must be/) },
        { response_code: 409, school_uid: taken.school_uid, message: 'School user id is already used in this school' },
        {
          response_code: 200,
          id: String(second.id),
          school_uid: alsoGood.school_uid,
          location: `${v1}/users/${second.id}`,
        },
        {
          response_code: 403,
          school_uid: expect.any(String),
          message: 'Only district administrators create district administrators',
        },
      ],
    });
    expect(second.role).toBe('TEACHER');
    expect((await events()).map(([type, , , objectId]) => [type, objectId])).toEqual([
      ['user.create', first.id],
      ['user.create', second.id],
    ]);
  });

  it('answers 409 to an item asking for a school_uid or username an earlier item of the call has', async () => {
    const client = await as(w.schoolAdmin);
    const [one, other] = [student(), student()];
    const events = await watchDomainEvents();
    const response = await client.post('/users', {
      users: {
        user: [one, { ...student(), school_uid: one.school_uid }, other, { ...student(), username: other.school_uid }],
      },
    });
    expect([response.status, response.json.user.map((item: any) => [item.response_code, item.message])]).toEqual([
      207,
      [
        [200, undefined],
        [409, 'School user id is already used in this school'],
        [200, undefined],
        [409, 'Username is already used in this school'],
      ],
    ]);
    const created = [(await byUid(one.school_uid))!, (await byUid(other.school_uid))!];
    expect((await events()).map(([type, , , objectId]) => [type, objectId])).toEqual(
      created.map((user) => ['user.create', user.id]),
    );
  });

  it('writes a bulk of 50 new users in one transaction: a few statements per call, not per user', async () => {
    const client = await as(w.districtAdmin);
    await client.get('/users/me'); // the caller's credential and roles, as a sync's earlier calls load them
    const count = async (roster: Record<string, any>[]) => {
      const before = server.database.statementCount;
      const response = await client.post('/users', { users: { user: roster } });
      expect([response.status, new Set(response.json.user.map((item: any) => item.response_code))]).toEqual([
        200,
        new Set([200]),
      ]);
      return server.database.statementCount - before;
    };
    const one = await count([student()]);
    const fifty = await count(Array.from({ length: 50 }, () => student()));
    // The users and their events are one INSERT each whatever their number: 49 more users cost no statement more.
    expect(fifty).toBe(one);
  });

  it('with update_existing=1 changes users by school_uid, and a second identical run writes nothing', async () => {
    const client = await as(w.districtAdmin);
    const roster = [student(), student({ school_id: w.otherSchool.id }), student({ role_id: 1213 })];
    const first = await client.post('/users?update_existing=1', { users: { user: roster } });
    expect([first.status, first.json.user.map((item: any) => item.response_code)]).toEqual([200, [200, 200, 200]]);
    const again = await expectNothingWritten(() =>
      client.post('/users?update_existing=1', { users: { user: roster } }),
    );
    expect(again.json).toEqual(first.json);
    const without = await expectNothingWritten(() => client.post('/users', { users: { user: [roster[0]] } }));
    expect(without.json.user[0].response_code).toBe(409);

    const events = await watchDomainEvents();
    const renamed: Record<string, any> = { ...roster[1], name_last: 'Byron' };
    const changed = await client.post('/users?update_existing=1', { users: { user: [renamed] } });
    expect(changed.json.user[0]).toMatchObject({ response_code: 200, school_uid: renamed.school_uid });
    const user = (await byUid(renamed.school_uid))!;
    expect([user.nameLast, user.schoolId]).toEqual(['Byron', w.otherSchool.id]);
    expect(await events()).toEqual([
      ['user.update', 'SCHOOL', w.otherSchool.id, user.id, w.districtAdmin.id, w.district.id, w.otherSchool.id],
    ]);
  });

  it('reads an XML bulk, one <user> being a list of one', async () => {
    const one = student();
    const response = await (await as(w.schoolAdmin)).post(
      '/users',
      `<body><users><user><school_uid>${one.school_uid}</school_uid><name_first>A</name_first><name_last>B</name_last>` +
        '<role_id>1214</role_id></user></users></body>',
      { accept: 'xml' },
    );
    const created = (await byUid(one.school_uid))!;
    expect([response.status, response.text]).toEqual([
      200,
      `${xmlHead}<result><user><response_code>200</response_code><id>${created.id}</id>` +
        `<school_uid>${one.school_uid}</school_uid><location>${v1}/users/${created.id}</location></user></result>`,
    ]);
  });

  it('refuses more than 50 users with 400, writing nothing', async () => {
    const client = await as(w.schoolAdmin);
    const users = Array.from({ length: 51 }, () => student());
    const response = await expectNothingWritten(() => client.post('/users', { users: { user: users } }));
    expect([response.status, response.json.error]).toEqual([400, 'users/user: must list at most 50 users']);
  });
});

describe('PUT /v1/users', () => {
  it('changes one user (204) and records user.update; an unchanged member changes nothing', async () => {
    const user = await createUser(w.school.id, 'STUDENT');
    const client = await as(w.schoolAdmin);
    const events = await watchDomainEvents();
    const response = await client.put(`/users/${user.id}`, {
      name_first: 'Changed',
      grad_year: 2030,
      building_id: w.building.id,
      password: 'ignored',
    });
    expect([response.status, response.text]).toEqual([204, '']);
    expect(await db().user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      nameFirst: 'Changed',
      gradYear: 2030,
      buildingId: w.building.id,
    });
    expect(await events()).toEqual([
      ['user.update', 'SCHOOL', w.school.id, user.id, w.schoolAdmin.id, w.district.id, w.school.id],
    ]);
    await expectNothingWritten(() => client.put(`/users/${user.id}`, { name_first: 'Changed' }));
    const cleared = await client.put(`/users/${user.id}`, { grad_year: '', building_id: '' });
    expect(cleared.status).toBe(204);
    expect(await db().user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      gradYear: null,
      buildingId: null,
    });
  });

  it.each<[string, keyof World, () => Promise<{ id: number }>, Record<string, unknown>, number]>([
    ['a teacher changing themself', 'teacher', async () => w.teacher, { name_first: 'Me' }, 403],
    ['a teacher changing a student', 'teacher', async () => w.student, { name_first: 'X' }, 403],
    ['a school admin making a district admin', 'schoolAdmin', async () => w.student, { role_id: 1211 }, 403],
    ['a school admin changing a district admin', 'schoolAdmin', async () => w.districtAdmin, { name_first: 'X' }, 403],
    ['a school admin, another school', 'schoolAdmin', async () => w.otherSchoolStudent, { name_first: 'X' }, 404],
    ['an unknown user', 'districtAdmin', async () => ({ id: 999999 }), { name_first: 'X' }, 404],
    ['a taken username', 'districtAdmin', async () => w.student, { username: '' }, 400],
  ])('refuses %s (%i)', async (_case, person, subject, body, status) => {
    const client = await as(w[person] as { id: number });
    const { id } = await subject();
    const response = await expectNothingWritten(() => client.put(`/users/${id}`, body));
    expect(response.status).toBe(status);
  });

  it('changes users in bulk, item by item (207)', async () => {
    const [a, b] = [await createUser(w.school.id, 'STUDENT'), await createUser(w.school.id, 'STUDENT')];
    const client = await as(w.schoolAdmin);
    const response = await client.put('/users', {
      users: {
        user: [
          { id: a.id, position: 'Monitor' },
          { id: 999999, name_first: 'X' },
          { name_first: 'no id' },
          { id: b.id, username: (await db().user.findUniqueOrThrow({ where: { id: a.id } })).username },
        ],
      },
    });
    expect(response.status).toBe(207);
    expect(response.json.user).toEqual([
      { response_code: 200, id: String(a.id), school_uid: '', location: `${v1}/users/${a.id}` },
      { response_code: 404, id: '999999', message: 'User 999999 was not found' },
      { response_code: 400, message: 'id: is required' },
      { response_code: 409, id: String(b.id), message: 'Username is already used in this school' },
    ]);
    expect((await db().user.findUniqueOrThrow({ where: { id: a.id } })).position).toBe('Monitor');
  });
});

// DELETE /v1/users (a deactivation, as on the platform): test/rest/users-inactive.test.ts.

describe('GET /v1/users', () => {
  it('lists what the caller may see, filtered as the platform documents', async () => {
    const admin = await as(w.districtAdmin);
    const all = await admin.get(`/users?school_ids=${w.school.id},${w.otherSchool.id}&role_ids=1214&limit=200`);
    expect(all.status).toBe(200);
    const ids = all.json.user.map((user: any) => user.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    expect(ids).toEqual(expect.arrayContaining([w.student.id, w.otherSchoolStudent.id]));
    expect(all.json.user.every((user: any) => user.role_id === 1214)).toBe(true);
    expect(all.json.total).toBe(ids.length);
    // extended=1 (docs/rest/users.md) answers the same users with the same members; only links.self names it.
    const extended = await admin.get(
      `/users?school_ids=${w.school.id},${w.otherSchool.id}&role_ids=1214&limit=200&extended=1`,
    );
    expect(extended.status).toBe(200);
    expect(extended.json.user).toEqual(all.json.user);

    const teacher = await as(w.teacher);
    const seen = await teacher.get(`/users?role_ids=1214&limit=200`);
    expect(seen.json.user.map((user: any) => user.id)).not.toContain(w.otherSchoolStudent.id);
    expect(seen.json.user.every((user: any) => !('primary_email' in user))).toBe(true);

    const inBuilding = await admin.get(`/users?building_id=${w.building.id}`);
    expect(inBuilding.json.user.map((user: any) => user.id)).toEqual(
      expect.arrayContaining([w.teacher.id, w.student.id]),
    );
    expect(inBuilding.json.user.every((user: any) => user.building_id === w.building.id)).toBe(true);
  });

  it('finds users by school_uids and pages with links', async () => {
    const client = await as(w.schoolAdmin);
    const roster = [student(), student(), student()];
    await client.post('/users', { users: { user: roster } });
    const uids = roster.map((user) => user.school_uid).join(',');
    const page = await client.get(`/users?school_uids=${uids}&limit=2`, { accept: 'xml' });
    expect(page.status).toBe(200);
    expect(page.text.match(/<user>/g)).toHaveLength(2);
    expect(page.text).toContain('<total>3</total>');
    expect(page.text).toContain(
      `<next>${v1}/users?school_uids=${encodeURIComponent(uids)}&amp;limit=2&amp;start=2</next>`,
    );
    const bad = await client.get('/users?role_ids=1214,99');
    expect([bad.status, bad.json.error]).toEqual([400, expect.stringMatching(/^role_ids: must be role ids/)]);
  });
});

describe('GET /v1/users/ext/{school_uid}', () => {
  it('answers 303 to the user the caller sees with that school user id, and 404 otherwise', async () => {
    const schoolUid = `${unique('E')} x/y`;
    const created = await createUser(w.school.id, 'STUDENT');
    await db().user.update({ where: { id: created.id }, data: { schoolUid } });
    const response = await (await as(w.teacher)).get(`/users/ext/${encodeURIComponent(schoolUid)}`);
    expect([response.status, response.headers.get('location')]).toEqual([303, `${v1}/users/${created.id}`]);
    const hidden = await (await as(w.otherSchoolStudent)).get(`/users/ext/${encodeURIComponent(schoolUid)}`);
    expect(hidden.status).toBe(404);
    expect((await (await as(w.teacher)).get('/users/ext/nobody-has-this')).status).toBe(404);
  });
});

describe("GET /v1/users/{id}/sections and /groups: a user's realms", () => {
  it('pages the sections a user is active in and their groups, for them and their administrators', async () => {
    const learner = await createUser(w.school.id, 'STUDENT');
    const sections = [
      await createSection(w.school.id, [{ userId: learner.id }]),
      await createSection(w.school.id, [{ userId: learner.id }]),
    ];
    const invited = await createSection(w.school.id);
    await db().enrollment.create({ data: { sectionId: invited.id, userId: learner.id, status: 'INVITE_PENDING' } });
    const group = await createGroup(w.school.id, { members: [learner.id] });
    const client = await as(learner);
    const page = await client.get(`/users/${learner.id}/sections?limit=1`);
    const course = await db().course.findUniqueOrThrow({ where: { id: sections[0]!.courseId } });
    expect(page.json).toEqual({
      section: [
        {
          id: String(sections[0]!.id),
          course_id: String(course.id),
          course_title: course.title,
          course_code: course.courseCode,
          section_title: sections[0]!.title,
          section_code: '',
          school_id: String(w.school.id),
          // As /sections/{id} answers it to the student: the school's members, and no access code.
          section_school_code: '',
          description: '',
          location: '',
          meeting_days: [],
          active: 1,
          grading_periods: [],
          links: { self: `${v1}/sections/${sections[0]!.id}` },
        },
      ],
      total: 2,
      links: {
        self: `${v1}/users/${learner.id}/sections?limit=1&start=0`,
        next: `${v1}/users/${learner.id}/sections?limit=1&start=1`,
      },
    });
    const groups = await (await as(w.schoolAdmin)).get(`/users/${learner.id}/groups`, { accept: 'xml' });
    expect(groups.status).toBe(200);
    expect(groups.text).toContain(`<group><id>${group.id}</id>`);
    expect(groups.text).toContain('<total>1</total>');
    expect((await (await as(w.teacher)).get(`/users/${learner.id}/sections`)).status).toBe(403);
    expect((await (await as(w.otherSchoolStudent)).get(`/users/${learner.id}/groups`)).status).toBe(404);
  });
});

describe('GraphQL twins', () => {
  it('createUsers, updateUsers and deleteUsers answer a result per item', async () => {
    const graphql = await clients.graphql(w.schoolAdmin);
    const schoolUid = unique('G');
    const created = await graphql(
      `mutation($input: CreateUsersInput!) { createUsers(input: $input) {
        userErrors { code } results { code message issues { field } user { databaseId schoolUid role } } } }`,
      {
        input: {
          items: [
            { schoolUid, nameFirst: 'G', nameLast: 'H', role: 'STUDENT' },
            { nameFirst: 'G', nameLast: 'H', role: 'STUDENT' },
          ],
        },
      },
    );
    const [first, second] = created.data.createUsers.results;
    expect(first).toMatchObject({ code: 'CREATED', user: { schoolUid, role: 'STUDENT' } });
    expect(second).toMatchObject({ code: 'INVALID', user: null, issues: [{ field: 'username' }] });
    const id = first.user.databaseId;
    const updated = await graphql(
      `mutation($input: UpdateUsersInput!) { updateUsers(input: $input) { results { code user { nameMiddle } } } }`,
      { input: { items: [{ id, nameMiddle: 'M' }] } },
    );
    expect(updated.data.updateUsers.results).toEqual([{ code: 'UPDATED', user: { nameMiddle: 'M' } }]);
    const deleted = await graphql(
      `mutation($input: DeleteUsersInput!) { deleteUsers(input: $input) { results { code } } }`,
      { input: { ids: [id, id] } },
    );
    expect(deleted.errors).toBeUndefined();
    expect(deleted.data.deleteUsers.results).toEqual([{ code: 'DELETED' }, { code: 'NOT_FOUND' }]);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { subscriptionActivity } from '../../src/modules/subscriptions/event.quota';
import { clientsFor, graphqlClientFor, restClientFor } from '../support/client';
import {
  type World,
  createGroup,
  createSection,
  createUser,
  createWorld,
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
  // Issued now, so that no credential event slips in among the events a test expects.
  await clients.restFor(['schoolAdmin', 'districtAdmin', 'teacher'] as const, w);
  await clients.graphqlFor(['schoolAdmin'] as const, w);
});

const isInactive = async (id: number) =>
  (await db().user.findUniqueOrThrow({ where: { id }, select: { deactivatedAt: true } })).deactivatedAt !== null;

describe('DELETE /v1/users/{id}: the user becomes inactive, as on the platform', () => {
  it('deactivates (204) and drops enrollments and memberships unless option_keep_enrollments=1', async () => {
    const dropped = await createUser(w.school.id, 'STUDENT');
    const kept = await createUser(w.school.id, 'STUDENT');
    const section = await createSection(w.school.id, [
      { userId: w.teacher.id, admin: true },
      { userId: dropped.id },
      { userId: kept.id },
    ]);
    await createGroup(w.school.id, { admins: [w.teacher.id], members: [dropped.id, kept.id] });
    const client = await as(w.schoolAdmin);
    const events = await watchDomainEvents();
    const response = await client.delete(`/users/${dropped.id}?option_comment=left&email_notification=1`);
    expect([response.status, response.text]).toEqual([204, '']);
    expect(await isInactive(dropped.id)).toBe(true);
    expect(await db().enrollment.count({ where: { userId: dropped.id } })).toBe(0);
    expect(await db().groupMembership.count({ where: { userId: dropped.id } })).toBe(0);
    expect(await events()).toEqual([
      ['user.deactivate', 'USER', dropped.id, dropped.id, w.schoolAdmin.id, w.district.id, w.school.id],
    ]);

    expect((await client.delete(`/users/${kept.id}?option_keep_enrollments=1`)).status).toBe(204);
    expect(await db().enrollment.count({ where: { userId: kept.id } })).toBe(1);
    expect(await db().groupMembership.count({ where: { userId: kept.id } })).toBe(1);
    // Kept, but left out of the roster while the user is inactive.
    const roster = await (await as(w.teacher)).get(`/sections/${section.id}/enrollments?limit=200`);
    expect(roster.status).toBe(200);
    expect(roster.json.enrollment.map((enrollment: any) => String(enrollment.uid))).toEqual([String(w.teacher.id)]);

    // Already inactive: not found, as an unknown user.
    const again = await expectNothingWritten(() => client.delete(`/users/${dropped.id}`));
    expect(again.status).toBe(404);
  });

  it('refuses deactivating oneself, others than administrators, and hidden users', async () => {
    const target = await createUser(w.school.id, 'STUDENT');
    for (const [person, id, status] of [
      [w.schoolAdmin, w.schoolAdmin.id, 403],
      [w.teacher, target.id, 403],
      [w.schoolAdmin, w.districtAdmin.id, 403],
      [w.outsider, target.id, 404],
    ] as const) {
      const client = await as(person);
      const response = await expectNothingWritten(() => client.delete(`/users/${id}`));
      expect(response.status).toBe(status);
    }
    expect(await isInactive(target.id)).toBe(false);
  });

  it('deactivates in bulk by uids, a result per item (XML)', async () => {
    const [a, b] = [await createUser(w.school.id, 'STUDENT'), await createUser(w.school.id, 'PARENT')];
    const client = await as(w.schoolAdmin);
    const response = await client.delete(`/users?uids=${a.id},999999,${b.id}&option_comment=graduated`, {
      accept: 'xml',
    });
    expect([response.status, response.text]).toEqual([
      207,
      `${xmlHead}<result><user><id>${a.id}</id><response_code>204</response_code></user>` +
        '<user><id>999999</id><response_code>404</response_code><message>User 999999 was not found</message></user>' +
        `<user><id>${b.id}</id><response_code>204</response_code></user></result>`,
    ]);
    expect([await isInactive(a.id), await isInactive(b.id)]).toEqual([true, true]);
    // Users are kept: a deactivation is not a deletion.
    expect(await db().user.count({ where: { id: { in: [a.id, b.id] } } })).toBe(2);
    const missing = await expectNothingWritten(() => client.delete('/users'));
    expect([missing.status, missing.json.error]).toEqual([400, 'uids: is required']);
  });
});

describe('GET /v1/users/inactive and /v1/users/inactive/{id}', () => {
  it('lists the inactive users an administrator administers, paged; active lists leave them out', async () => {
    const gone = await createUser(w.school.id, 'STUDENT');
    const elsewhere = await createUser(w.otherSchool.id, 'STUDENT');
    const admin = await as(w.districtAdmin);
    expect((await admin.delete(`/users?uids=${gone.id},${elsewhere.id}`)).status).toBe(200);

    const school = await (await as(w.schoolAdmin)).get('/users/inactive?limit=200');
    expect(school.status).toBe(200);
    const schoolIds = school.json.user.map((user: any) => user.id);
    expect(schoolIds).toContain(gone.id);
    expect(schoolIds).not.toContain(elsewhere.id);
    expect(school.json.user.find((user: any) => user.id === gone.id)).toMatchObject({
      uid: gone.id,
      school_id: w.school.id,
      role_id: 1214,
      links: { self: `${v1}/users/${gone.id}` },
    });

    const district = await admin.get('/users/inactive?start=0&limit=1', { accept: 'xml' });
    expect(district.status).toBe(200);
    expect(district.text).toMatch(/<total>\d+<\/total>/);
    expect(district.text.match(/<user>/g)).toHaveLength(1);
    const all = await admin.get('/users/inactive?limit=200');
    expect(all.json.user.map((user: any) => user.id)).toEqual(expect.arrayContaining([gone.id, elsewhere.id]));

    const active = await admin.get(`/users?limit=200&school_ids=${w.school.id},${w.otherSchool.id}`);
    const activeIds = active.json.user.map((user: any) => user.id);
    expect(activeIds).not.toContain(gone.id);
    expect(activeIds).not.toContain(elsewhere.id);

    const one = await admin.get(`/users/inactive/${gone.id}`);
    expect([one.status, one.json.id]).toEqual([200, gone.id]);
    expect((await admin.get(`/users/inactive/${w.student.id}`)).status).toBe(404);
  });

  it('is for administrators: others are refused the list and do not see inactive users', async () => {
    const gone = await createUser(w.school.id, 'STUDENT');
    expect((await (await as(w.schoolAdmin)).delete(`/users/${gone.id}`)).status).toBe(204);
    const teacher = await as(w.teacher);
    expect((await teacher.get('/users/inactive')).status).toBe(403);
    expect((await teacher.get(`/users/inactive/${gone.id}`)).status).toBe(404);
    expect((await teacher.get(`/users/${gone.id}`)).status).toBe(404);
    expect((await (await as(w.outsider)).get(`/users/inactive/${gone.id}`)).status).toBe(404);
  });
});

describe('PUT /v1/users/inactive: reactivation', () => {
  it('reactivates users in users/user, a result per item, and their credentials work again', async () => {
    const returning = await createUser(w.school.id, 'STUDENT');
    const own = await restClientFor(server, returning);
    expect((await own.get('/users/me')).status).toBe(303);
    const admin = await as(w.schoolAdmin);
    expect((await admin.delete(`/users/${returning.id}`)).status).toBe(204);
    expect((await own.get('/users/me')).status).toBe(401);

    const events = await watchDomainEvents();
    const response = await admin.put('/users/inactive', {
      users: { user: [{ id: returning.id }, { id: w.student.id }, { id: 'x' }] },
    });
    expect([response.status, response.json]).toEqual([
      207,
      {
        user: [
          {
            response_code: 200,
            id: String(returning.id),
            school_uid: '',
            location: `${v1}/users/${returning.id}`,
          },
          // An active user is not among the inactive ones.
          { response_code: 404, id: String(w.student.id), message: `User ${w.student.id} was not found` },
          { response_code: 400, id: 'x', message: expect.stringContaining('id') },
        ],
      },
    ]);
    expect(await isInactive(returning.id)).toBe(false);
    expect(await events()).toEqual([
      ['user.reactivate', 'USER', returning.id, returning.id, w.schoolAdmin.id, w.district.id, w.school.id],
    ]);
    expect((await own.get('/users/me')).status).toBe(303);
    expect((await admin.get(`/users/${returning.id}`)).status).toBe(200);
  });

  it('answers XML, and refuses others than administrators whole', async () => {
    const returning = await createUser(w.school.id, 'TEACHER');
    const admin = await as(w.schoolAdmin);
    expect((await admin.delete(`/users/${returning.id}`)).status).toBe(204);
    const refused = await expectNothingWritten(async () =>
      (await as(w.teacher)).put('/users/inactive', { users: { user: [{ id: returning.id }] } }),
    );
    expect(refused.status).toBe(403);
    const response = await admin.put('/users/inactive', `<users><user><id>${returning.id}</id></user></users>`, {
      accept: 'xml',
    });
    expect([response.status, response.text]).toEqual([
      200,
      `${xmlHead}<result><user><response_code>200</response_code><id>${returning.id}</id><school_uid />` +
        `<location>${v1}/users/${returning.id}</location></user></result>`,
    ]);
  });
});

describe('An inactive user cannot authenticate', () => {
  it('refuses their OAuth clients and bearer tokens (with a credential cache: test/hot-path/credentials.ts)', async () => {
    const leaving = await createUser(w.school.id, 'TEACHER');
    const oauth = await restClientFor(server, leaving);
    const graphql = await graphqlClientFor(server, leaving);
    // Both work while the user is active.
    expect((await oauth.get('/users/me')).status).toBe(303);
    expect((await graphql('{ viewer { databaseId } }')).data).toEqual({ viewer: { databaseId: String(leaving.id) } });

    expect((await (await as(w.schoolAdmin)).delete(`/users/${leaving.id}`)).status).toBe(204);
    expect((await oauth.get('/users/me')).status).toBe(401);
    const refused = await graphql('{ viewer { databaseId } }');
    expect([refused.status, refused.errors?.[0]?.extensions?.code]).toEqual([401, 'UNAUTHENTICATED']);
  });

  it('ends their open subscriptions', async () => {
    const leaving = await createUser(w.school.id, 'STUDENT');
    const group = await createGroup(w.school.id, { admins: [w.teacher.id], members: [leaving.id] });
    const { token, id } = await issueAccessToken({ userId: leaving.id });
    const listens = new Promise<void>((resolve) => {
      const onListening = (key: string) => {
        if (key !== `bearer:${id}`) return;
        subscriptionActivity.off('listening', onListening);
        resolve();
      };
      subscriptionActivity.on('listening', onListening);
    });
    const response = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        query: 'subscription ($id: ID!) { realmEvents(realm: { type: GROUP, id: $id }) { id type } }',
        variables: { id: String(group.id) },
      }),
    });
    const ended = response.text();
    await listens;
    const graphql = await clients.graphql(w.schoolAdmin);
    const answer = await graphql(
      'mutation($input: DeactivateUserInput!) { deactivateUser(input: $input) { userErrors { code } user { active } } }',
      { input: { id: String(leaving.id), keepEnrollments: true } },
    );
    expect(answer.data).toEqual({ deactivateUser: { userErrors: [], user: { active: false } } });
    expect(await ended).toContain('"code":"ACCESS_REVOKED"');
  });
});

describe('GraphQL twins', () => {
  it('deactivateUsers, reactivateUser(s) and users(active: false)', async () => {
    const [a, b] = [await createUser(w.school.id, 'STUDENT'), await createUser(w.school.id, 'STUDENT')];
    const graphql = await clients.graphql(w.schoolAdmin);
    const deactivated = await graphql(
      `mutation($input: DeactivateUsersInput!) { deactivateUsers(input: $input) { results { code user { active } } } }`,
      { input: { ids: [String(a.id), String(b.id), String(a.id)] } },
    );
    expect(deactivated.data.deactivateUsers.results).toEqual([
      { code: 'DEACTIVATED', user: { active: false } },
      { code: 'DEACTIVATED', user: { active: false } },
      { code: 'NOT_FOUND', user: null },
    ]);
    const listed = await graphql('{ users(active: false, limit: 200) { items { databaseId active } } }');
    expect(listed.data.users.items).toEqual(
      expect.arrayContaining([
        { databaseId: String(a.id), active: false },
        { databaseId: String(b.id), active: false },
      ]),
    );
    const one = await graphql(
      'mutation($input: ReactivateUserInput!) { reactivateUser(input: $input) { userErrors { code } user { active } } }',
      { input: { id: String(a.id) } },
    );
    expect(one.data.reactivateUser).toEqual({ userErrors: [], user: { active: true } });
    const many = await graphql(
      `mutation($input: ReactivateUsersInput!) { reactivateUsers(input: $input) { results { code } } }`,
      { input: { ids: [String(a.id), String(b.id)] } },
    );
    expect(many.data.reactivateUsers.results).toEqual([{ code: 'NOT_FOUND' }, { code: 'REACTIVATED' }]);
    const teacher = await graphqlClientFor(server, w.teacher);
    const refused = await teacher('{ users(active: false) { total } }');
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

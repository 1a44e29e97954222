import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { clientsFor } from '../support/client';
import {
  type World,
  createGroup,
  createSection,
  createUser,
  createWorld,
  unique,
  watchDomainEvents,
} from '../support/factories';
import { useTestServer } from '../support/harness';
import { v1, xmlHead } from '../support/wire';

const server = useTestServer();
const clients = clientsFor(server);
let w: World;
let section: { id: number };

const base = (id = section.id) => `/sections/${id}/enrollments`;
const sortedIds = (rows: { id: number }[]) => rows.map((row) => row.id).sort((a, b) => a - b);

/** A student of the cast's school with a school uid of their own. */
const student = async () => {
  const user = await createUser(w.school.id, 'STUDENT');
  return db().user.update({ where: { id: user.id }, data: { schoolUid: unique('sis') } });
};

beforeAll(async () => {
  w = await createWorld();
  section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
  await clients.restFor(['teacher', 'student', 'parent', 'outsider', 'schoolAdmin', 'districtAdmin'], w);
});

describe('list and view (GET /sections/{id}/enrollments)', () => {
  it('lists the roster by id with the user, admin flag and status number, paged', async () => {
    const response = await (await clients.rest(w.student)).get(`${base()}?limit=1`);
    expect(response.status).toBe(200);
    const [teacher] = await db().enrollment.findMany({ where: { sectionId: section.id }, orderBy: { id: 'asc' } });
    expect(response.json).toEqual({
      enrollment: [
        {
          id: String(teacher!.id),
          uid: String(w.teacher.id),
          school_uid: '',
          name_first: w.teacher.nameFirst,
          name_last: w.teacher.nameLast,
          name_display: `${w.teacher.nameFirst} ${w.teacher.nameLast}`,
          admin: 1,
          status: 1,
          picture_url: '',
          links: { self: `${v1}${base()}/${teacher!.id}` },
        },
      ],
      total: 2,
      links: { self: `${v1}${base()}?limit=1&start=0`, next: `${v1}${base()}?limit=1&start=1` },
    });
  });

  it('filters by type, enrollment_status and uid, as comma-separated lists', async () => {
    const own = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
    const invited = await student();
    await db().enrollment.create({ data: { sectionId: own.id, userId: invited.id, status: 'INVITE_PENDING' } });
    const teacher = await clients.rest(w.teacher);
    const uids = async (query: string) =>
      (await teacher.get(`${base(own.id)}?${query}`)).json.enrollment.map((item: { uid: string }) => Number(item.uid));
    expect(await uids('type=admin')).toEqual([w.teacher.id]);
    expect(await uids('type=member')).toEqual([w.student.id, invited.id]);
    expect(await uids('enrollment_status=3')).toEqual([invited.id]);
    expect(await uids('enrollment_status=1,3&type=member')).toEqual([w.student.id, invited.id]);
    expect(await uids(`uid=${invited.id},${w.teacher.id}`)).toEqual([w.teacher.id, invited.id]);
    const bad = await teacher.get(`${base(own.id)}?enrollment_status=9`);
    expect(bad.status).toBe(400);
    expect(bad.json.error).toContain('enrollment_status');
  });

  it("views one enrollment in XML; hides another section's, and the section from outsiders", async () => {
    const [enrollment] = await db().enrollment.findMany({ where: { sectionId: section.id, userId: w.student.id } });
    const teacher = await clients.rest(w.teacher);
    const xml = await teacher.get(`${base()}/${enrollment!.id}`, { accept: 'xml' });
    expect(xml.status).toBe(200);
    expect(xml.text.startsWith(`${xmlHead}<result><id>${enrollment!.id}</id><uid>${w.student.id}</uid>`)).toBe(true);
    expect(xml.text).toContain('<school_uid /><name_first>Test</name_first>');
    expect(xml.text).toContain('<admin>0</admin><status>1</status>');
    const other = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }]);
    expect((await teacher.get(`${base(other.id)}/${enrollment!.id}`)).status).toBe(404);
    expect((await (await clients.rest(w.outsider)).get(base())).status).toBe(404);
    // The parent sees the school's sections exist, but not their rosters.
    expect((await (await clients.rest(w.parent)).get(base())).status).toBe(403);
  });
});

describe('create (POST /sections/{id}/enrollments)', () => {
  it('enrolls one user by uid (201) with its event, or by school_uid, in JSON and XML', async () => {
    const target = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }]);
    const [first, second] = [await student(), await student()];
    const teacher = await clients.rest(w.teacher);
    const events = await watchDomainEvents();
    const created = await teacher.post(base(target.id), { uid: String(first.id), admin: '0', status: '1' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ uid: String(first.id), school_uid: first.schoolUid, admin: 0, status: 1 });
    const xml = await teacher.post(
      base(target.id),
      `<body><school_uid>${second.schoolUid}</school_uid><admin>1</admin></body>`,
      { accept: 'xml' },
    );
    expect(xml.status).toBe(201);
    expect(xml.text).toContain(`<uid>${second.id}</uid>`);
    const stored = await db().enrollment.findMany({
      where: { sectionId: target.id, userId: { in: [first.id, second.id] } },
    });
    expect(stored.map((row) => [row.userId, row.admin, row.status]).sort()).toEqual(
      [
        [first.id, false, 'ACTIVE'],
        [second.id, true, 'ACTIVE'],
      ].sort(),
    );
    expect((await events()).map(([type, realm, realmId, objectId]) => [type, realm, realmId, objectId])).toEqual(
      [Number(created.json.id), Number(/<id>(\d+)<\/id>/.exec(xml.text)![1])].map((id) => [
        'enrollment.create',
        'SECTION',
        target.id,
        id,
      ]),
    );
  });

  it('refuses a single create without a user (400), an unknown user (404), and students and parents (403)', async () => {
    const teacher = await clients.rest(w.teacher);
    const missing = await teacher.post(base(), { admin: 0 });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toContain('uid');
    const unknown = await teacher.post(base(), { school_uid: unique('nobody') });
    expect(unknown.status).toBe(404);
    const badStatus = await teacher.post(base(), { uid: String(w.parent.id), status: 7 });
    expect(badStatus.status).toBe(400);
    expect(badStatus.json.error).toContain('status');
    const target = await student();
    expect((await (await clients.rest(w.student)).post(base(), { uid: String(target.id) })).status).toBe(403);
    expect((await (await clients.rest(w.parent)).post(base(), { uid: String(target.id) })).status).toBe(403);
    expect(await db().enrollment.count({ where: { userId: target.id } })).toBe(0);
  });

  it('writes a bulk create item by item: 207 with each result in its place, the good ones committed', async () => {
    const target = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }]);
    const [first, second] = [await student(), await student()];
    const admin = await clients.rest(w.schoolAdmin);
    const response = await admin.post(base(target.id), {
      enrollments: {
        enrollment: [
          { uid: first.id, admin: 0, status: 1 },
          { school_uid: unique('nobody'), status: 1 },
          { uid: second.id, status: 'active' },
          { school_uid: second.schoolUid, admin: 1 },
          { admin: 1 },
        ],
      },
    });
    expect(response.status).toBe(207);
    const items = response.json.enrollment;
    expect(items.map((item: { response_code: number }) => item.response_code)).toEqual([200, 404, 400, 200, 400]);
    expect(items[0]).toMatchObject({ uid: String(first.id), admin: 0, status: 1 });
    expect(items[2]).toEqual({ response_code: 400, message: 'status: must be one of 1, 2, 3, 4, 5' });
    expect(items[3]).toMatchObject({ uid: String(second.id), admin: 1, status: 1 });
    expect(items[4]).toEqual({ response_code: 400, message: 'uid: is required (or schoolUid)' });
    const stored = await db().enrollment.findMany({ where: { sectionId: target.id, admin: false } });
    expect(stored.map((row) => row.userId)).toEqual([first.id]);
  });

  it('is idempotent: the same bulk create twice writes nothing the second time; a change is written', async () => {
    const target = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }]);
    const users = [await student(), await student(), await student()];
    const body = {
      enrollments: {
        enrollment: users.map((user, index) => ({ school_uid: user.schoolUid, admin: index === 0 ? 1 : 0, status: 1 })),
      },
    };
    const admin = await clients.rest(w.districtAdmin);
    const first = await admin.post(base(target.id), body);
    expect(first.status).toBe(200);
    const before = await db().enrollment.findMany({ where: { sectionId: target.id }, orderBy: { id: 'asc' } });
    const events = await watchDomainEvents();
    const again = await admin.post(base(target.id), body);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(await events()).toEqual([]);
    expect(await db().enrollment.findMany({ where: { sectionId: target.id }, orderBy: { id: 'asc' } })).toEqual(before);
    body.enrollments.enrollment[1]!.status = 5;
    const changed = await admin.post(base(target.id), body);
    expect(changed.json.enrollment[1]).toMatchObject({ uid: String(users[1]!.id), status: 5 });
    expect((await events()).map(([type]) => type)).toEqual(['enrollment.update']);
  });

  it('an item naming a user an earlier item of the call enrolls changes that enrollment, as a later call would', async () => {
    const target = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }]);
    const user = await student();
    const admin = await clients.rest(w.districtAdmin);
    const events = await watchDomainEvents();
    const response = await admin.post(base(target.id), {
      enrollments: {
        enrollment: [
          { uid: user.id, status: 1 },
          { school_uid: user.schoolUid, status: 1, admin: 1 },
        ],
      },
    });
    expect(response.status).toBe(200);
    const enrollment = (await db().enrollment.findFirst({ where: { sectionId: target.id, userId: user.id } }))!;
    expect(response.json.enrollment.map((item: any) => [item.id, item.admin])).toEqual([
      [String(enrollment.id), 0],
      [String(enrollment.id), 1],
    ]);
    expect(enrollment.admin).toBe(true);
    expect((await events()).map(([type]) => type)).toEqual(['enrollment.create', 'enrollment.update']);
  });

  it('writes nothing of a bulk whose one transaction fails: no enrollment, no event, no invite', async () => {
    const target = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }]);
    const users = [await student(), await student()];
    const admin = await clients.rest(w.districtAdmin);
    const events = await watchDomainEvents();
    // An invite is written after the enrollments and their events, in the same transaction: its failure undoes them.
    await db().$executeRawUnsafe(
      `CREATE FUNCTION lectern_test_refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql`,
    );
    await db().$executeRawUnsafe(
      'CREATE TRIGGER lectern_test_refuse BEFORE INSERT ON invites FOR EACH ROW EXECUTE FUNCTION lectern_test_refuse()',
    );
    try {
      const response = await admin.post(base(target.id), {
        enrollments: {
          enrollment: [
            { uid: users[0]!.id, status: 1 },
            { uid: users[1]!.id, status: 3 },
          ],
        },
      });
      expect(response.status).toBe(500);
    } finally {
      await db().$executeRawUnsafe('DROP TRIGGER lectern_test_refuse ON invites');
      await db().$executeRawUnsafe('DROP FUNCTION lectern_test_refuse()');
    }
    expect(
      await db().enrollment.count({ where: { sectionId: target.id, userId: { in: users.map((u) => u.id) } } }),
    ).toBe(0);
    expect(await events()).toEqual([]);
  });

  it('refuses more than 50 items, and a section the caller does not administer, as a whole', async () => {
    const admin = await clients.rest(w.schoolAdmin);
    const many = { enrollments: { enrollment: Array.from({ length: 51 }, () => ({ uid: w.student.id })) } };
    const tooMany = await admin.post(base(), many);
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error).toContain('at most 50');
    const refused = await (await clients.rest(w.student)).post(base(), {
      enrollments: { enrollment: [{ uid: w.parent.id }] },
    });
    expect(refused.status).toBe(403);
    expect((await admin.post(base(2_000_000_000), { enrollments: { enrollment: [] } })).status).toBe(404);
  });

  it('reads a bulk create in XML, one repeated element as a list of one', async () => {
    const target = await createSection(w.school.id);
    const user = await student();
    const response = await (await clients.rest(w.schoolAdmin)).post(
      base(target.id),
      `<body><enrollments><enrollment><uid>${user.id}</uid><status>1</status></enrollment></enrollments></body>`,
      { accept: 'xml' },
    );
    expect(response.status).toBe(200);
    expect(response.text).toContain(`<enrollment><id>`);
    expect(response.text).toContain(`<uid>${user.id}</uid>`);
    expect(response.text).toContain('<response_code>200</response_code></enrollment></result>');
  });
});

describe('invite pending and invites', () => {
  it('an enrollment made "invite pending" sends the invite; accepting it makes the enrollment active', async () => {
    const target = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }]);
    const user = await student();
    const created = await (await clients.rest(w.teacher)).post(base(target.id), { uid: user.id, status: 3 });
    expect(created.json.status).toBe(3);
    const invite = await db().invite.findFirstOrThrow({ where: { userId: user.id, sectionId: target.id } });
    const invitee = await clients.rest(user);
    const answer = await invitee.put(`/users/${user.id}/invites/sections/${invite.id}`, { invite_action: 'accept' });
    expect(answer.status).toBe(204);
    expect(await db().enrollment.findFirst({ where: { userId: user.id, sectionId: target.id } })).toMatchObject({
      status: 'ACTIVE',
    });
  });

  it('denying the invite removes the pending enrollment; leaving the state or deleting withdraws the invite', async () => {
    const target = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }]);
    const [denier, promoted, removed] = [await student(), await student(), await student()];
    const teacher = await clients.rest(w.teacher);
    const made = await teacher.post(base(target.id), {
      enrollments: { enrollment: [denier, promoted, removed].map((user) => ({ uid: user.id, status: 3 })) },
    });
    const [, promotedId, removedId] = made.json.enrollment.map((item: { id: string }) => item.id);
    const invite = await db().invite.findFirstOrThrow({ where: { userId: denier.id, sectionId: target.id } });
    const deny = await (await clients.rest(denier)).put(`/users/${denier.id}/invites/sections/${invite.id}`, {
      invite_action: 'deny',
    });
    expect(deny.status).toBe(204);
    expect((await teacher.put(`${base(target.id)}/${promotedId}`, { status: 1, admin: 1 })).status).toBe(204);
    expect((await teacher.delete(`${base(target.id)}/${removedId}`)).status).toBe(204);
    expect(await db().invite.count({ where: { sectionId: target.id } })).toBe(0);
    const left = await db().enrollment.findMany({
      where: { sectionId: target.id, admin: true },
      orderBy: { id: 'asc' },
    });
    expect(left.map((row) => [row.userId, row.status])).toEqual([
      [w.teacher.id, 'ACTIVE'],
      [promoted.id, 'ACTIVE'],
    ]);
    expect(await db().enrollment.count({ where: { sectionId: target.id } })).toBe(2);
  });
});

describe('update and delete', () => {
  it('changes status and admin (204), refuses a bad status (400) and members (403)', async () => {
    const target = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
    const [enrollment] = await db().enrollment.findMany({ where: { sectionId: target.id, userId: w.student.id } });
    const path = `${base(target.id)}/${enrollment!.id}`;
    const teacher = await clients.rest(w.teacher);
    const events = await watchDomainEvents();
    expect((await teacher.put(path, '<body><status>2</status></body>')).status).toBe(204);
    expect(await db().enrollment.findUnique({ where: { id: enrollment!.id } })).toMatchObject({ status: 'EXPIRED' });
    expect((await teacher.put(path, { status: 0 })).status).toBe(400);
    expect((await (await clients.rest(w.student)).put(path, { admin: 1 })).status).toBe(403);
    expect((await teacher.put(`${base(section.id)}/${enrollment!.id}`, { admin: 1 })).status).toBe(404);
    expect((await events()).map(([type, , , objectId]) => [type, objectId])).toEqual([
      ['enrollment.update', enrollment!.id],
    ]);
  });

  it('removes enrollments by enrollment_ids with a result each, 207 when one is not of the section', async () => {
    const target = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }]);
    const [a, b] = [await student(), await student()];
    const rows = await Promise.all(
      [a, b].map((user) => db().enrollment.create({ data: { sectionId: target.id, userId: user.id } })),
    );
    const [foreign] = await db().enrollment.findMany({ where: { sectionId: section.id } });
    const ids = [...sortedIds(rows), foreign!.id];
    const response = await (await clients.rest(w.schoolAdmin)).delete(
      `${base(target.id)}?enrollment_ids=${ids.join(',')}`,
    );
    expect(response.status).toBe(207);
    expect(response.json.enrollment.map((item: { response_code: number }) => item.response_code)).toEqual([
      204, 204, 404,
    ]);
    expect(response.json.enrollment[0]).toEqual({ id: String(ids[0]), response_code: 204 });
    expect(await db().enrollment.count({ where: { sectionId: target.id } })).toBe(1);
    expect(await db().enrollment.count({ where: { id: foreign!.id } })).toBe(1);
    const none = await (await clients.rest(w.schoolAdmin)).delete(base(target.id));
    expect(none.status).toBe(400);
  });
});

describe('group enrollments (/groups/{id}/enrollments): the memberships of a group', () => {
  it('lists, views, adds, changes and removes members, each with status 1, in JSON and XML', async () => {
    const group = await createGroup(w.school.id, { admins: [w.teacher.id] });
    const [member] = await db().groupMembership.findMany({ where: { groupId: group.id } });
    const teacher = await clients.rest(w.teacher);
    const path = `/groups/${group.id}/enrollments`;
    const listed = await teacher.get(path);
    expect(listed.json).toEqual({
      enrollment: [
        expect.objectContaining({
          id: String(member!.id),
          uid: String(w.teacher.id),
          admin: 1,
          status: 1,
          links: { self: `${v1}${path}/${member!.id}` },
        }),
      ],
      total: 1,
      links: { self: `${v1}${path}?start=0&limit=20` },
    });
    const events = await watchDomainEvents();
    const added = await teacher.post(
      path,
      `<body><uid>${w.student.id}</uid><admin>0</admin><status>1</status></body>`,
      {
        accept: 'xml',
      },
    );
    expect(added.status).toBe(201);
    const addedId = Number(/<id>(\d+)<\/id>/.exec(added.text)![1]);
    expect(added.text).toContain(`<uid>${w.student.id}</uid>`);
    expect((await teacher.get(`${path}?type=member`)).json.enrollment.map((item: { id: string }) => item.id)).toEqual([
      String(addedId),
    ]);
    expect((await teacher.get(`${path}/${addedId}`)).json).toMatchObject({ uid: String(w.student.id), admin: 0 });
    expect((await teacher.put(`${path}/${addedId}`, { admin: 1 })).status).toBe(204);
    expect(await db().groupMembership.findUnique({ where: { id: addedId } })).toMatchObject({ admin: true });
    expect((await teacher.delete(`${path}/${addedId}`)).status).toBe(204);
    expect((await teacher.delete(`${path}/${addedId}`)).status).toBe(404);
    expect((await (await clients.rest(w.student)).delete(`${path}/${member!.id}`)).status).toBe(403);
    expect((await events()).map(([type, , , objectId]) => [type, objectId])).toEqual([
      ['group_member.create', addedId],
      ['group_member.update', addedId],
      ['group_member.delete', addedId],
    ]);
  });

  it("refuses members who do not administer the group (403), and hides another group's membership (404)", async () => {
    const group = await createGroup(w.school.id, { admins: [w.teacher.id], members: [w.student.id] });
    const other = await createGroup(w.school.id, { admins: [w.teacher.id] });
    const [membership] = await db().groupMembership.findMany({ where: { groupId: group.id, userId: w.student.id } });
    const student = await clients.rest(w.student);
    expect((await student.post(`/groups/${group.id}/enrollments`, { uid: w.parent.id })).status).toBe(403);
    expect((await student.put(`/groups/${group.id}/enrollments/${membership!.id}`, { admin: 1 })).status).toBe(403);
    const teacher = await clients.rest(w.teacher);
    expect((await teacher.get(`/groups/${other.id}/enrollments/${membership!.id}`)).status).toBe(404);
    expect((await teacher.post(`/groups/${group.id}/enrollments`, { admin: 1 })).status).toBe(400);
  });
});

describe('statements of a roster sync', () => {
  it('costs a bulk create of 50 what one item costs: one transaction for every new enrollment; a rerun reads', async () => {
    const target = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }]);
    const users = await Promise.all(Array.from({ length: 51 }, () => student()));
    const body = (some: typeof users) => ({
      enrollments: { enrollment: some.map((user) => ({ school_uid: user.schoolUid, status: 1 })) },
    });
    const admin = await clients.rest(w.schoolAdmin);
    await admin.get(base(target.id)); // the caller's credential and roles, as a sync's earlier calls load them
    const statements = async (some: typeof users) => {
      const before = server.database.statementCount;
      const response = await admin.post(base(target.id), body(some));
      expect(response.status).toBe(200);
      return server.database.statementCount - before;
    };
    const one = await statements(users.slice(50));
    const created = await statements(users.slice(0, 50));
    const rerun = await statements(users.slice(0, 50));
    // The enrollments and their events are one INSERT each whatever their number; the rerun reads the users,
    // enrollments and invites once and writes nothing.
    expect(created).toBe(one);
    expect(created - rerun).toBeLessThanOrEqual(5);
    expect(rerun).toBeLessThanOrEqual(8);
  });
});

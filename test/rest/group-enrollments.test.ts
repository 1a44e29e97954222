import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { clientsFor } from '../support/client';
import { type World, createGroup, createUser, createWorld, unique, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';

// Bulk enrollments of a group (`POST /v1/groups/{id}/enrollments` with `enrollments/enrollment`), written as a
// section's are: a result per item in the order sent, the new members in one transaction.

const server = useTestServer();
const clients = clientsFor(server);
let w: World;

const base = (id: number) => `/groups/${id}/enrollments`;
const member = async () => {
  const user = await createUser(w.school.id, 'STUDENT');
  return db().user.update({ where: { id: user.id }, data: { schoolUid: unique('sis') } });
};

beforeAll(async () => {
  w = await createWorld();
});

describe('POST /groups/{id}/enrollments with enrollments/enrollment', () => {
  it('writes item by item: 207 with each result in its place, new members committed with their events', async () => {
    const group = await createGroup(w.school.id, { admins: [w.teacher.id], members: [w.student.id] });
    const [byUid, bySchoolUid] = [await member(), await member()];
    const teacher = await clients.rest(w.teacher);
    const events = await watchDomainEvents();
    const response = await teacher.post(base(group.id), {
      enrollments: {
        enrollment: [
          { uid: String(byUid.id), admin: '0', status: '1' },
          { school_uid: bySchoolUid.schoolUid, admin: '1' },
          { uid: String(w.student.id), admin: '1' },
          { uid: '999999999' },
          { uid: String((await member()).id), status: '3' },
          'not an object',
        ],
      },
    });
    expect(response.status).toBe(207);
    const rows = await db().groupMembership.findMany({ where: { groupId: group.id } });
    const idOf = (userId: number) => String(rows.find((row) => row.userId === userId)!.id);
    expect(
      response.json.enrollment.map((item: { response_code: number; id?: string }) => [item.response_code, item.id]),
    ).toEqual([
      [200, idOf(byUid.id)],
      [200, idOf(bySchoolUid.id)],
      [200, idOf(w.student.id)],
      [404, undefined],
      [400, undefined],
      [400, undefined],
    ]);
    expect(response.json.enrollment[1]).toMatchObject({ uid: String(bySchoolUid.id), admin: 1, status: 1 });
    expect(response.json.enrollment[4].message).toContain('status');
    expect(rows.map((row) => [row.userId, row.admin]).sort()).toEqual(
      [
        [w.teacher.id, true],
        [w.student.id, true],
        [byUid.id, false],
        [bySchoolUid.id, true],
      ].sort(),
    );
    expect((await events()).map(([type, realm, realmId]) => [type, realm, realmId]).sort()).toEqual(
      [
        ['group_member.update', 'GROUP', group.id],
        ['group_member.create', 'GROUP', group.id],
        ['group_member.create', 'GROUP', group.id],
      ].sort(),
    );
  });

  it('is idempotent: the same call twice writes nothing the second time (200)', async () => {
    const group = await createGroup(w.school.id, { admins: [w.teacher.id] });
    const people = [await member(), await member()];
    const body = { enrollments: { enrollment: people.map((person) => ({ uid: String(person.id), admin: 0 })) } };
    const teacher = await clients.rest(w.teacher);
    expect((await teacher.post(base(group.id), body)).status).toBe(200);
    const events = await watchDomainEvents();
    const again = await teacher.post(base(group.id), body);
    expect(again.status).toBe(200);
    expect(again.json.enrollment.map((item: { response_code: number }) => item.response_code)).toEqual([200, 200]);
    expect(await events()).toEqual([]);
  });

  it('takes XML; refuses more than 50 items (400), and callers who do not administer the group (403)', async () => {
    const group = await createGroup(w.school.id, { admins: [w.teacher.id], members: [w.student.id] });
    const person = await member();
    const xml = await (await clients.rest(w.teacher)).post(
      base(group.id),
      `<body><enrollments><enrollment><uid>${person.id}</uid><admin>0</admin></enrollment></enrollments></body>`,
      { accept: 'xml' },
    );
    expect(xml.status).toBe(200);
    expect(xml.text).toContain(`<uid>${person.id}</uid>`);
    expect(xml.text).toContain('<response_code>200</response_code>');
    const many = { enrollments: { enrollment: Array.from({ length: 51 }, () => ({ uid: String(person.id) })) } };
    expect((await (await clients.rest(w.teacher)).post(base(group.id), many)).status).toBe(400);
    const refused = await (await clients.rest(w.student)).post(base(group.id), {
      enrollments: { enrollment: [{ uid: String(person.id) }] },
    });
    expect(refused.status).toBe(403);
  });

  it('answers one flat enrollment as a single create: 201, or the failure as the status', async () => {
    const group = await createGroup(w.school.id, { admins: [w.teacher.id] });
    const person = await member();
    const teacher = await clients.rest(w.teacher);
    const created = await teacher.post(base(group.id), { uid: String(person.id), admin: '1' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ uid: String(person.id), admin: 1, status: 1 });
    expect((await teacher.post(base(group.id), { uid: '999999999' })).status).toBe(404);
    expect((await teacher.post(base(group.id), { uid: String(person.id), status: '2' })).status).toBe(400);
  });

  it('createGroupMemberships answers the same per item over GraphQL', async () => {
    const group = await createGroup(w.school.id, { admins: [w.teacher.id] });
    const person = await member();
    const graphql = await clients.graphql(w.teacher);
    const answer = await graphql(
      `mutation($input: CreateGroupMembershipsInput!) {
        createGroupMemberships(input: $input) {
          results { code groupMembership { admin user { databaseId } } }
          group { memberCount }
        }
      }`,
      { input: { groupId: String(group.id), items: [{ userId: String(person.id), admin: true }, { userId: '0' }] } },
    );
    expect(answer.data.createGroupMemberships).toEqual({
      results: [
        { code: 'WRITTEN', groupMembership: { admin: true, user: { databaseId: String(person.id) } } },
        { code: 'NOT_FOUND', groupMembership: null },
      ],
      group: { memberCount: 2 },
    });
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { clientsFor } from '../support/client';
import {
  type World,
  createGroup,
  createInvite,
  createSection,
  createUser,
  createWorld,
  watchDomainEvents,
} from '../support/factories';
import { useTestServer } from '../support/harness';
import { v1 } from '../support/wire';

// Joining a section or a group by access code: `POST /v1/{sections|groups}/accesscode` with `{"access_code": ...}`,
// answered with the caller's enrollment (docs/rest/roster.md, "Joining by access code").

const server = useTestServer();
const clients = clientsFor(server);
let w: World;

beforeAll(async () => {
  w = await createWorld();
});

const sectionCodeOf = async (id: number) =>
  (await db().section.findUniqueOrThrow({ where: { id }, select: { accessCode: true } })).accessCode;

describe("a section's access code", () => {
  it('is drawn for every section as XXXXX-XXXXX, and shown only to those who enroll users in it', async () => {
    const section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
    const code = await sectionCodeOf(section.id);
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{5}-[A-HJ-NP-Z2-9]{5}$/);
    expect(await sectionCodeOf((await createSection(w.school.id)).id)).not.toBe(code);
    const teacherView = await (await clients.rest(w.teacher)).get(`/sections/${section.id}`);
    expect(teacherView.json.access_code).toBe(code);
    expect((await (await clients.rest(w.schoolAdmin)).get(`/sections/${section.id}`)).json.access_code).toBe(code);
    const studentView = await (await clients.rest(w.student)).get(`/sections/${section.id}`);
    expect(studentView.status).toBe(200);
    expect(studentView.json).not.toHaveProperty('access_code');
    const query = `query($id: ID!) { section(id: $id) { accessCode } }`;
    expect((await (await clients.graphql(w.teacher))(query, { id: String(section.id) })).data).toEqual({
      section: { accessCode: code },
    });
    expect((await (await clients.graphql(w.student))(query, { id: String(section.id) })).data).toEqual({
      section: { accessCode: null },
    });
  });
});

describe('POST /sections/accesscode', () => {
  it('enrolls the caller as an active member (201) with its event; the code is read in any letter case', async () => {
    const section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }]);
    const joiner = await createUser(w.school.id, 'STUDENT');
    const client = await clients.rest(joiner);
    const events = await watchDomainEvents();
    const joined = await client.post('/sections/accesscode', {
      access_code: ` ${(await sectionCodeOf(section.id)).toLowerCase()} `,
    });
    expect(joined.status).toBe(201);
    const enrollment = await db().enrollment.findUniqueOrThrow({
      where: { sectionId_userId: { sectionId: section.id, userId: joiner.id } },
    });
    expect(enrollment).toMatchObject({ admin: false, status: 'ACTIVE' });
    expect(joined.json).toMatchObject({
      id: String(enrollment.id),
      uid: String(joiner.id),
      admin: 0,
      status: 1,
      links: { self: `${v1}/sections/${section.id}/enrollments/${enrollment.id}` },
    });
    expect(
      (await events()).map(([type, realm, realmId, objectId, actorId]) => [type, realm, realmId, objectId, actorId]),
    ).toEqual([['enrollment.create', 'SECTION', section.id, enrollment.id, joiner.id]]);
  });

  it('answers 409 to joining twice, 404 to a wrong code and to a code of another district, 400 without a code', async () => {
    const section = await createSection(w.school.id, [{ userId: w.student.id }]);
    const code = await sectionCodeOf(section.id);
    const student = await clients.rest(w.student);
    const twice = await student.post('/sections/accesscode', { access_code: code });
    expect(twice.status).toBe(409);
    expect(twice.json.error).toContain('already enrolled');
    const wrong = await student.post('/sections/accesscode', { access_code: 'AAAAA-AAAAA' });
    expect(wrong.status).toBe(404);
    const farStudent = await createUser(w.farSchool.id, 'STUDENT');
    expect((await (await clients.rest(farStudent)).post('/sections/accesscode', { access_code: code })).status).toBe(
      404,
    );
    expect((await student.post('/sections/accesscode', {})).status).toBe(400);
    expect(await db().enrollment.count({ where: { sectionId: section.id } })).toBe(1);
  });

  it('makes a pending invite active and withdraws the invite; takes an XML body', async () => {
    const section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }]);
    const invited = await createUser(w.school.id, 'STUDENT');
    await db().enrollment.create({ data: { sectionId: section.id, userId: invited.id, status: 'INVITE_PENDING' } });
    await createInvite(invited.id, { sectionId: section.id });
    const joined = await (await clients.rest(invited)).post(
      '/sections/accesscode',
      `<body><access_code>${await sectionCodeOf(section.id)}</access_code></body>`,
      { accept: 'xml' },
    );
    expect(joined.status).toBe(201);
    expect(joined.text).toContain('<status>1</status>');
    expect(
      await db().enrollment.findUniqueOrThrow({
        where: { sectionId_userId: { sectionId: section.id, userId: invited.id } },
        select: { status: true },
      }),
    ).toEqual({ status: 'ACTIVE' });
    expect(await db().invite.count({ where: { sectionId: section.id, userId: invited.id } })).toBe(0);
  });
});

describe('POST /groups/accesscode', () => {
  const groupWithCode = async (privacyLevel: 'SCHOOL' | 'GROUP' = 'SCHOOL') => {
    const group = await createGroup(w.school.id, { admins: [w.teacher.id], privacyLevel });
    const accessCode = `G${group.id}`.padEnd(5, 'X').concat('-JOIN2');
    return db().group.update({ where: { id: group.id }, data: { accessCode } });
  };

  it('makes the caller a member (201) with its event, even of a group they could not see', async () => {
    const group = await groupWithCode('GROUP');
    const joiner = await createUser(w.school.id, 'STUDENT');
    const client = await clients.rest(joiner);
    const events = await watchDomainEvents();
    const joined = await client.post('/groups/accesscode', { access_code: group.accessCode });
    expect(joined.status).toBe(201);
    const membership = await db().groupMembership.findUniqueOrThrow({
      where: { groupId_userId: { groupId: group.id, userId: joiner.id } },
    });
    expect(membership.admin).toBe(false);
    expect(joined.json).toMatchObject({
      id: String(membership.id),
      uid: String(joiner.id),
      admin: 0,
      status: 1,
      links: { self: `${v1}/groups/${group.id}/enrollments/${membership.id}` },
    });
    expect((await events()).map(([type, realm, realmId, objectId]) => [type, realm, realmId, objectId])).toEqual([
      ['group_member.create', 'GROUP', group.id, membership.id],
    ]);
    // Now a member, they read the group.
    expect((await client.get(`/groups/${group.id}`)).status).toBe(200);
  });

  it("answers 409 to a member, 404 to a wrong code, a section's code, and another district's user", async () => {
    const group = await groupWithCode();
    const teacher = await clients.rest(w.teacher);
    expect((await teacher.post('/groups/accesscode', { access_code: group.accessCode })).status).toBe(409);
    expect((await teacher.post('/groups/accesscode', { access_code: 'ZZZZZ-ZZZZZ' })).status).toBe(404);
    const section = await createSection(w.school.id);
    expect((await teacher.post('/groups/accesscode', { access_code: await sectionCodeOf(section.id) })).status).toBe(
      404,
    );
    const far = await createUser(w.farSchool.id, 'TEACHER');
    expect((await (await clients.rest(far)).post('/groups/accesscode', { access_code: group.accessCode })).status).toBe(
      404,
    );
  });
});

describe('joinSection and joinGroup', () => {
  const joinSection = `mutation($code: String!) {
    joinSection(input: { accessCode: $code }) {
      userErrors { code message }
      enrollment { status admin user { databaseId } }
      section { databaseId }
    }
  }`;
  const joinGroup = `mutation($code: String!) {
    joinGroup(input: { accessCode: $code }) {
      userErrors { code message }
      groupMembership { admin user { databaseId } }
      group { databaseId memberCount }
    }
  }`;

  it('join, and answer NOT_FOUND and CONFLICT as typed errors', async () => {
    const section = await createSection(w.school.id);
    const joiner = await createUser(w.school.id, 'STUDENT');
    const graphql = await clients.graphql(joiner);
    const joined = await graphql(joinSection, { code: await sectionCodeOf(section.id) });
    expect(joined.data.joinSection).toEqual({
      userErrors: [],
      enrollment: { status: 'ACTIVE', admin: false, user: { databaseId: String(joiner.id) } },
      section: { databaseId: String(section.id) },
    });
    const again = await graphql(joinSection, { code: await sectionCodeOf(section.id) });
    expect(again.data.joinSection.userErrors.map((error: { code: string }) => error.code)).toEqual(['CONFLICT']);
    const wrong = await graphql(joinGroup, { code: 'NOPE' });
    expect(wrong.data.joinGroup).toMatchObject({ userErrors: [{ code: 'NOT_FOUND' }], groupMembership: null });
    const group = await createGroup(w.school.id, { admins: [w.teacher.id] });
    await db().group.update({ where: { id: group.id }, data: { accessCode: `J${group.id}-GROUP` } });
    const member = await graphql(joinGroup, { code: `j${group.id}-group` });
    expect(member.data.joinGroup).toEqual({
      userErrors: [],
      groupMembership: { admin: false, user: { databaseId: String(joiner.id) } },
      group: { databaseId: String(group.id), memberCount: 2 },
    });
  });
});

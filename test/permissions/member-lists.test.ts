import { beforeAll, describe, expect, it } from 'vitest';
import { clientsFor } from '../support/client';
import { type World, createGroup, createSection, createUser, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();
const clients = clientsFor(server);

const id = (object: { id: number }) => String(object.id);
let world: World;
let group: { id: number };
let classmate: { id: number };

/** A group open to everyone with members of two schools, and a page of such groups for the statement counts. */
beforeAll(async () => {
  world = await createWorld();
  classmate = await createUser(world.otherSchool.id, 'STUDENT');
  group = await createGroup(world.school.id, {
    privacyLevel: 'EVERYONE',
    admins: [world.teacher.id],
    members: [world.student.id, world.otherSchoolStudent.id, classmate.id],
  });
  for (let i = 0; i < 19; i++) {
    await createGroup(world.school.id, {
      privacyLevel: 'EVERYONE',
      admins: [world.teacher.id],
      members: [world.student.id, classmate.id],
    });
  }
});

const groupDoc = 'query($id: ID!) { group(id: $id) { memberCount members { admin user { id: databaseId } } } }';

describe('group members', () => {
  it.each([
    ['a student sees the members of their own school', 'student', ['teacher', 'student']],
    ['a student of another school sees those of theirs', 'otherSchoolStudent', ['otherSchoolStudent', 'classmate']],
    ['a school administrator sees those of the school', 'schoolAdmin', ['teacher', 'student']],
    [
      'a district administrator sees everyone',
      'districtAdmin',
      ['teacher', 'student', 'otherSchoolStudent', 'classmate'],
    ],
  ] as const)('%s, and memberCount counts just them', async (_name, person, expected) => {
    const people: Record<string, { id: number }> = { ...world, classmate };
    const { data } = await (await clients.graphql(world[person]))(groupDoc, { id: id(group) });
    expect(data.group.members.map((member: { user: { id: string } }) => member.user.id)).toEqual(
      expected.map((name) => id(people[name]!)),
    );
    expect(data.group.memberCount).toBe(expected.length);
  });
});

describe('section enrollments', () => {
  it('leave out enrolled users the viewer may not see', async () => {
    const section = await createSection(world.school.id, [
      { userId: world.teacher.id, admin: true },
      { userId: world.otherSchoolStudent.id },
      { userId: world.student.id },
    ]);
    const doc = 'query($id: ID!) { section(id: $id) { enrollments { user { id: databaseId } } } }';
    const seen = async (person: 'teacher' | 'otherSchoolStudent' | 'districtAdmin') =>
      (await (await clients.graphql(world[person]))(doc, { id: id(section) })).data.section.enrollments.map(
        (enrollment: { user: { id: string } }) => enrollment.user.id,
      );
    expect(await seen('teacher')).toEqual([id(world.teacher), id(world.student)]);
    expect(await seen('otherSchoolStudent')).toEqual([id(world.otherSchoolStudent)]);
    expect(await seen('districtAdmin')).toEqual([id(world.teacher), id(world.otherSchoolStudent), id(world.student)]);
  });
});

describe('a page of groups with visible members', () => {
  const pageDoc =
    'query($limit: Int!) { groups(limit: $limit) { items { id: databaseId memberCount members { user { id: databaseId nameFirst } } } } }';

  it.each(['student', 'districtAdmin'] as const)(
    'loads 20 groups in as many statements as 5, for a %s',
    async (person) => {
      const graphql = await clients.graphql(world[person]);
      const statements = async (limit: number) => {
        const before = server.database.statementCount;
        const { data, errors } = await graphql(pageDoc, { limit });
        expect([errors, data.groups.items.length]).toEqual([undefined, limit]);
        return server.database.statementCount - before;
      };
      await statements(1);
      expect(await statements(20)).toBe(await statements(5));
    },
  );
});

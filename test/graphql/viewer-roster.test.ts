import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { encodeGlobalId } from '../../src/core/global-id';
import { type GraphQLClient, clientsFor } from '../support/client';
import {
  type World,
  createCalendarEvent,
  createGroup,
  createSection,
  createUser,
  createWorld,
} from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();
const clients = clientsFor(server);

const gid = (type: string, row: { id: number }) => encodeGlobalId(type, row.id);
const ids = (connection: { nodes: { id: string }[] }) => connection.nodes.map((node) => node.id);

type Section = Awaited<ReturnType<typeof createSection>>;

let world: World;
/** Another teacher of the school, with a student of their own in a section the first teacher has nothing to do with. */
let otherTeacher: { id: number };
let otherStudent: { id: number };
/** The teacher's and the student's section; the other teacher's; one the student is only invited to. */
let taught: Section;
let othersSection: Section;
let invitedTo: Section;
let otherSchoolSection: Section;
let club: { id: number };
let gql: Record<'student' | 'parent' | 'teacher' | 'schoolAdmin' | 'districtAdmin' | 'otherTeacher', GraphQLClient>;

beforeAll(async () => {
  world = await createWorld();
  otherTeacher = await createUser(world.school.id, 'TEACHER');
  otherStudent = await createUser(world.school.id, 'STUDENT');
  taught = await createSection(world.school.id, [
    { userId: world.teacher.id, admin: true },
    { userId: world.student.id },
  ]);
  othersSection = await createSection(world.school.id, [
    { userId: otherTeacher.id, admin: true },
    { userId: otherStudent.id },
  ]);
  invitedTo = await createSection(world.school.id);
  await db().enrollment.create({
    data: { sectionId: invitedTo.id, userId: world.student.id, status: 'INVITE_PENDING' },
  });
  otherSchoolSection = await createSection(world.otherSchool.id, [{ userId: world.otherSchoolStudent.id }]);
  club = await createGroup(world.school.id, { members: [world.student.id], privacyLevel: 'SCHOOL' });
  await createGroup(world.school.id, { members: [otherStudent.id], privacyLevel: 'SCHOOL' });
  await db().parentLink.create({ data: { parentId: world.parent.id, childId: world.student.id } });
  await createCalendarEvent(
    { type: 'SECTION', id: taught.id },
    { start: new Date('2026-03-02T09:00:00Z'), title: 'Field trip' },
  );
  gql = await clients.graphqlFor(['student', 'parent', 'teacher', 'schoolAdmin', 'districtAdmin', 'otherTeacher'], {
    ...world,
    otherTeacher,
  });
});

describe("a student's dashboard", () => {
  // One fragment on the shared connection type, used at the root list and at the viewer's.
  const dashboard = /* GraphQL */ `
    fragment SectionCard on SectionConnection { __typename totalCount nodes { id title course { title } } }
    query Dashboard($from: DateTime!, $to: DateTime!) {
      viewer {
        id
        sections(first: 10) { ...SectionCard }
        groups { __typename nodes { id } }
        enrollments { edges { node { status admin section { id } } } }
      }
      sections { ...SectionCard }
      calendarConnection(from: $from, to: $to) { nodes { title } }
    }
  `;

  it('is one request: their sections with courses, groups, enrollments and calendar', async () => {
    const { data, errors } = await gql.student(dashboard, {
      from: '2026-03-01T00:00:00Z',
      to: '2026-03-08T00:00:00Z',
    });
    expect(errors).toBeUndefined();
    const course = await db().course.findUniqueOrThrow({ where: { id: taught.courseId } });
    const sections = {
      __typename: 'SectionConnection',
      totalCount: 1,
      nodes: [{ id: gid('Section', taught), title: taught.title, course: { title: course.title } }],
    };
    expect(data).toEqual({
      viewer: {
        id: gid('User', world.student),
        // Active memberships only: the pending invitation is among the enrollments, with its status.
        sections,
        groups: { __typename: 'GroupConnection', nodes: [{ id: gid('Group', club) }] },
        enrollments: {
          edges: [
            { node: { status: 'ACTIVE', admin: false, section: { id: gid('Section', taught) } } },
            { node: { status: 'INVITE_PENDING', admin: false, section: { id: gid('Section', invitedTo) } } },
          ],
        },
      },
      sections,
      calendarConnection: { nodes: [{ title: 'Field trip' }] },
    });
  });
});

describe('roster roots', () => {
  const roots = '{ sections(first: 50) { nodes { id } } courses(first: 50) { nodes { id } } }';

  it('list a teacher their sections, and an administrator their school or district', async () => {
    const sectionIds = (...sections: Section[]) => sections.map((section) => gid('Section', section)).sort();
    const courseIds = (...sections: Section[]) =>
      sections.map((section) => encodeGlobalId('Course', section.courseId)).sort();
    const listed = async (client: GraphQLClient) => {
      const { data, errors } = await client(roots);
      expect(errors).toBeUndefined();
      return { sections: ids(data.sections).sort(), courses: ids(data.courses).sort() };
    };
    expect(await listed(gql.teacher)).toEqual({ sections: sectionIds(taught), courses: courseIds(taught) });
    expect(await listed(gql.otherTeacher)).toEqual({
      sections: sectionIds(othersSection),
      courses: courseIds(othersSection),
    });
    const school = [taught, othersSection, invitedTo];
    expect(await listed(gql.schoolAdmin)).toEqual({ sections: sectionIds(...school), courses: courseIds(...school) });
    expect(await listed(gql.districtAdmin)).toEqual({
      sections: sectionIds(...school, otherSchoolSection),
      courses: courseIds(...school, otherSchoolSection),
    });
  });
});

describe("a user's roster", () => {
  const rosterOf = /* GraphQL */ `
    query ($id: ID!) {
      user(id: $id) {
        sections { nodes { id } }
        enrollments { totalCount nodes { id } }
        groups { nodes { id } }
        children { nodes { id } }
      }
    }
  `;

  it("is a parent's: their children, with the children's sections", async () => {
    const { data, errors } = await gql.parent(
      '{ viewer { children { totalCount nodes { id sections { nodes { id } } enrollments { totalCount } } } } }',
    );
    expect(errors).toBeUndefined();
    expect(data.viewer.children).toEqual({
      totalCount: 1,
      nodes: [
        {
          id: gid('User', world.student),
          sections: { nodes: [{ id: gid('Section', taught) }] },
          enrollments: { totalCount: 2 },
        },
      ],
    });
  });

  it('has no children for anyone but a parent', async () => {
    const { data } = await gql.teacher('{ viewer { children { totalCount nodes { id } } } }');
    expect(data.viewer.children).toEqual({ totalCount: 0, nodes: [] });
  });

  it("is closed to a teacher for another teacher's student, even one they can see", async () => {
    const { data, errors } = await gql.teacher(rosterOf, { id: gid('User', otherStudent) });
    expect(errors).toBeUndefined();
    expect(data.user).toEqual({ sections: null, enrollments: null, groups: null, children: null });
  });

  it("is closed to a teacher for their own student too, through the section's people", async () => {
    const { data, errors } = await gql.teacher(
      `query ($id: ID!) { section(id: $id) { enrollmentsConnection { nodes { user { id enrollments { totalCount } } } } } }`,
      { id: gid('Section', taught) },
    );
    expect(errors).toBeUndefined();
    expect(data.section.enrollmentsConnection.nodes).toEqual([
      { user: { id: gid('User', world.teacher), enrollments: { totalCount: 1 } } },
      { user: { id: gid('User', world.student), enrollments: null } },
    ]);
  });

  it("is open to the school's administrator", async () => {
    const { data, errors } = await gql.schoolAdmin(rosterOf, { id: gid('User', otherStudent) });
    expect(errors).toBeUndefined();
    expect(data.user).toEqual({
      sections: { nodes: [{ id: gid('Section', othersSection) }] },
      enrollments: { totalCount: 1, nodes: [expect.any(Object)] },
      groups: { nodes: [expect.any(Object)] },
      children: { nodes: [] },
    });
  });

  it('loads the rosters of a page of users in as many statements as one', async () => {
    const statementsFor = async (first: number) => {
      const before = server.database.statementCount;
      const { data, errors } = await gql.schoolAdmin(
        `query ($first: Int!) { sections(first: $first) { nodes { enrollmentsConnection { nodes { user {
          sections { nodes { title course { title } } } groups { nodes { title } } } } } } } }`,
        { first },
      );
      expect(errors).toBeUndefined();
      expect(data.sections.nodes).toHaveLength(first);
      return server.database.statementCount - before;
    };
    await statementsFor(1);
    expect(await statementsFor(2)).toBe(await statementsFor(1));
  });
});

describe('connections', () => {
  let fiveSections: Section[];
  let pupil: GraphQLClient;

  beforeAll(async () => {
    const student = await createUser(world.school.id, 'STUDENT');
    fiveSections = [];
    for (let i = 0; i < 5; i++) fiveSections.push(await createSection(world.school.id, [{ userId: student.id }]));
    pupil = await clients.graphql(student);
  });

  it('answer first with last as the Relay spec orders them: the last items of the first', async () => {
    const page = '{ totalCount nodes { id } pageInfo { hasPreviousPage hasNextPage startCursor endCursor } }';
    const { data, errors } = await pupil(
      `{ sections(first: 4, last: 2) ${page} viewer { sections(first: 4, last: 2) ${page} } }`,
    );
    expect(errors).toBeUndefined();
    const expected = {
      totalCount: 5,
      nodes: fiveSections.slice(2, 4).map((section) => ({ id: gid('Section', section) })),
      pageInfo: expect.objectContaining({ hasPreviousPage: true, hasNextPage: true }),
    };
    expect(data.sections).toEqual(expected);
    expect(data.viewer.sections).toEqual(expected);
    // The page's cursors are its own items', so paging on from it goes on after the fourth.
    const after = await pupil(`query ($after: String!) { sections(first: 1, after: $after) { nodes { id } } }`, {
      after: data.sections.pageInfo.endCursor,
    });
    expect(ids(after.data.sections)).toEqual([gid('Section', fiveSections[4]!)]);
  });

  it('refuse a negative last beside first as bad input', async () => {
    const { status, errors } = await pupil('{ sections(first: 2, last: -1) { nodes { id } } }');
    expect(status).toBe(400);
    expect(errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('give nodes as edges give them', async () => {
    const { data } = await pupil('{ viewer { sections(first: 3) { nodes { id } edges { node { id } } } } }');
    expect(ids(data.viewer.sections)).toEqual(
      data.viewer.sections.edges.map((edge: { node: { id: string } }) => edge.node.id),
    );
    expect(data.viewer.sections.nodes).toHaveLength(3);
  });

  it("share one type per node type: a fragment on GroupConnection fits the root list and the viewer's", async () => {
    const { data, errors } = await gql.student(`
      fragment Groups on GroupConnection { __typename totalCount nodes { id } }
      { groupsConnection(first: 200) { ...Groups } viewer { groups { ...Groups } } }
    `);
    expect(errors).toBeUndefined();
    expect(data.viewer.groups).toEqual({
      __typename: 'GroupConnection',
      totalCount: 1,
      nodes: [{ id: gid('Group', club) }],
    });
    expect(data.groupsConnection.__typename).toBe('GroupConnection');
    expect(ids(data.groupsConnection)).toContain(gid('Group', club));
  });
});

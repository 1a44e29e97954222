import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { triggerCatalogue } from '../../src/webhooks/triggers';
import { issueAccessToken, issueApiClient } from '../../src/modules/access/access.service';
import { type GraphQLClient, graphqlClientFor } from '../support/client';
import {
  createCalendarEvent,
  createGradingGroup,
  createSection,
  createStoredUpload,
  createUser,
  createWorld,
  type World,
} from '../support/factories';
import { type ConnectionPage, walkConnection } from '../support/connections';
import { useTestServer } from '../support/harness';

const server = useTestServer();

type Page = ConnectionPage<Record<string, unknown>>;

const pageInfo = 'totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';
const day = (text: string) => new Date(`${text}T00:00:00Z`);
const cursorOf = (text: string) => Buffer.from(text).toString('base64');
/** A cursor of a connection over rows: the id 1, as Pothos' Prisma plugin writes it. */
const idCursor = cursorOf('GPC:N:1');

/** Items of a section, in id order. */
async function createAssignments(sectionId: number, count: number) {
  const assignments = [];
  for (let index = 0; index < count; index++)
    assignments.push(await db().assignment.create({ data: { sectionId, title: `A${index}`, maxPoints: 10 } }));
  return assignments;
}

/**
 * A list that stays a plain list (or an offset page over a computed answer) and the connection beside it, for one
 * viewer: `list` asks for the whole list, `connection(window)` for one page (its document declares `$cursor: String`),
 * `key` names an item of either; `expected` are the keys the viewer must see, in order.
 */
interface ListCase {
  name: string;
  /** What its cursors are: positions in the list (computed or in-memory lists), or ids (rows). */
  cursors: 'offset' | 'id';
  viewer: 'teacher' | 'student' | 'triggerAdmin';
  variables: () => Record<string, unknown>;
  key: (node: any) => string;
  list: string;
  pickList: (data: any) => any[];
  connection: (window: string) => string;
  pickPage: (data: any) => Page;
  expected: () => string[];
}

describe('connections beside the bounded lists and the computed views', () => {
  let world: World;
  const clients = {} as Record<ListCase['viewer'], GraphQLClient>;
  const fixture = {} as Record<string, any>;

  beforeAll(async () => {
    world = await createWorld();
    const { school, farSchool, teacher, student } = world;

    // The teacher's own credentials and feeds, and some of the student's that the teacher must not see.
    for (let index = 0; index < 3; index++) {
      await issueAccessToken({ userId: teacher.id, name: `token ${index}` });
      await issueApiClient(server.serverKey, { userId: teacher.id, name: `client ${index}` });
      for (const userId of [teacher.id, student.id])
        await db().calendarFeed.create({ data: { userId, tokenHash: randomBytes(16).toString('hex') } });
    }
    await issueAccessToken({ userId: student.id, name: 'elsewhere' });
    await issueApiClient(server.serverKey, { userId: student.id, name: 'elsewhere' });

    // Periods that start out of id order (two on the same day), scales, and some of a far school.
    for (const [title, startsOn] of [
      ['Spring', '2027-01-05'],
      ['Fall', '2026-09-01'],
      ['Summer', '2027-06-01'],
      ['Fall bis', '2026-09-01'],
    ]) {
      await db().gradingPeriod.create({
        data: { schoolId: school.id, title, startsOn: day(startsOn), endsOn: day('2027-08-01') },
      });
    }
    const levels = [
      { grade: 'A', minimum: 90 },
      { grade: 'B', minimum: 80 },
      { grade: 'C', minimum: 70 },
      { grade: 'F', minimum: 0 },
    ];
    for (let index = 0; index < 3; index++)
      await db().gradingScale.create({ data: { schoolId: school.id, title: `Scale ${index}`, levels } });
    await db().gradingPeriod.create({
      data: { schoolId: farSchool.id, title: 'Far', startsOn: day('2026-09-01'), endsOn: day('2027-06-01') },
    });
    await db().gradingScale.create({ data: { schoolId: farSchool.id, title: 'Far', levels: [] } });

    // A section the teacher administers, with three students, grading groups, attendance on four days (one of them
    // outside the days asked) and grades on three items; a section of a far school with a grading group.
    const classmates = [student, await createUser(school.id, 'STUDENT'), await createUser(school.id, 'STUDENT')];
    const section = await createSection(school.id, [
      { userId: teacher.id, admin: true },
      ...classmates.map((user) => ({ userId: user.id })),
    ]);
    const enrollments = await db().enrollment.findMany({
      where: { sectionId: section.id, admin: false },
      orderBy: { id: 'asc' },
    });
    fixture.section = section;
    await createGradingGroup(section.id, enrollments.map((enrollment) => enrollment.id).reverse());
    for (let index = 0; index < 2; index++) await createGradingGroup(section.id, [enrollments[index]!.id]);
    const statuses = ['ABSENT', 'LATE', 'PRESENT', 'EXCUSED'] as const;
    for (const [index, date] of ['2026-09-03', '2026-09-01', '2026-09-02', '2026-09-20'].entries()) {
      await db().attendanceRecord.createMany({
        data: enrollments.map((enrollment, at) => ({
          enrollmentId: enrollment.id,
          sectionId: section.id,
          date: day(date),
          status: statuses[(index + at) % 4]!,
        })),
      });
    }
    const assignments = await createAssignments(section.id, 3);
    await db().grade.createMany({
      data: enrollments.flatMap((enrollment, at) =>
        assignments.map((assignment, index) => ({
          enrollmentId: enrollment.id,
          assignmentId: assignment.id,
          sectionId: section.id,
          grade: at + index,
        })),
      ),
    });

    // The parts of objects: a webhook target of the school with subscriptions and a delivery tried three times, and an
    // event with files (their uploads out of id order).
    const target = await db().triggerTarget.create({
      data: { schoolId: school.id, url: 'https://receiver.test/hook', secret: 'sealed' },
    });
    for (const trigger of ['group', 'blog_post', 'section'])
      await db().triggerSubscription.create({ data: { targetId: target.id, trigger } });
    const delivery = await db().webhookDelivery.create({
      data: { targetId: target.id, eventId: 1n, type: 'group.create', payload: {}, status: 'FAILED' },
    });
    for (const statusCode of [500, 502, 503])
      await db().webhookAttempt.create({
        data: { deliveryId: delivery.id, startedAt: new Date(), latencyMs: 5, statusCode },
      });
    const event = await createCalendarEvent({ type: 'SCHOOL', id: school.id }, { start: day('2026-09-01') });
    const uploads = [];
    for (let index = 0; index < 3; index++) uploads.push(await createStoredUpload(teacher.id, { attached: true }));
    for (const upload of uploads.reverse())
      await db().calendarEventAttachment.create({ data: { eventId: event.id, uploadId: upload.id } });
    fixture.event = event;

    const farSection = await createSection(farSchool.id, [{ userId: world.outsider.id, admin: true }]);
    await createGradingGroup(farSection.id);
    fixture.farSection = farSection;

    clients.teacher = await graphqlClientFor(server, teacher);
    clients.student = await graphqlClientFor(server, student);
    clients.triggerAdmin = await graphqlClientFor(
      server,
      await createUser(school.id, 'SCHOOL_ADMIN', { triggerAdmin: true }),
    );

    // What each list must show, read from the database (after the clients' own tokens were issued).
    const owned = { where: { userId: teacher.id }, orderBy: { id: 'asc' as const } };
    fixture.accessTokens = ownRows(await db().accessToken.findMany(owned));
    fixture.apiClients = ownRows(await db().apiClient.findMany(owned));
    fixture.calendarFeeds = ownRows(await db().calendarFeed.findMany(owned));
    fixture.periods = ownRows(
      await db().gradingPeriod.findMany({
        where: { schoolId: school.id },
        orderBy: [{ startsOn: 'asc' }, { id: 'asc' }],
      }),
    );
    fixture.scales = ownRows(
      await db().gradingScale.findMany({ where: { schoolId: school.id }, orderBy: { id: 'asc' } }),
    );
    fixture.groups = ownRows(
      await db().gradingGroup.findMany({ where: { sectionId: fixture.section.id }, orderBy: { id: 'asc' } }),
    );
    // Trigger names read as the TriggerName enum: the catalogue's names in capitals.
    fixture.triggers = triggerCatalogue().map((trigger) => trigger.name.toUpperCase());
    fixture.subscriptions = ownRows(
      await db().triggerSubscription.findMany({ where: { targetId: target.id }, orderBy: { id: 'asc' } }),
    );
    fixture.attempts = ownRows(
      await db().webhookAttempt.findMany({ where: { deliveryId: delivery.id }, orderBy: { id: 'asc' } }),
    );
    fixture.attachments = ownRows(uploads.sort((a, b) => a.id - b.id));
    fixture.members = ownRows([...enrollments]);
    fixture.levels = levels.map((level) => level.grade);
    // The computed answers, as the lists compute them: grades by enrollment then item, days with their records by status.
    const own = enrollments[0]!.id; // the student's
    const grades = await db().grade.findMany({
      where: { sectionId: fixture.section.id },
      orderBy: [{ enrollmentId: 'asc' }, { assignmentId: 'asc' }],
    });
    fixture.grades = grades.map((grade) => `${grade.enrollmentId}/${grade.assignmentId}`);
    fixture.ownGrades = grades
      .filter((grade) => grade.enrollmentId === own)
      .map((grade) => `${grade.enrollmentId}/${grade.assignmentId}`);
    const records = await db().attendanceRecord.findMany({
      where: { sectionId: fixture.section.id },
      orderBy: [{ date: 'asc' }, { status: 'asc' }, { enrollmentId: 'asc' }],
    });
    const daysOf = (wanted: (record: (typeof records)[number]) => boolean, until: string) =>
      [
        ...new Set(
          records.filter((record) => record.date <= day(until)).map((record) => record.date.toISOString().slice(0, 10)),
        ),
      ].map((date) => {
        const ofDay = records.filter(
          (record) => record.date.toISOString().startsWith(date) && record.status !== 'PRESENT' && wanted(record),
        );
        const statuses = ['ABSENT', 'LATE', 'EXCUSED']
          .map((status) => ({
            status,
            records: ofDay
              .filter((record) => record.status === status)
              .map((record) => ({ enrollmentId: String(record.enrollmentId) })),
          }))
          .filter((group) => group.records.length > 0);
        return JSON.stringify({ date, statuses });
      });
    fixture.days = daysOf(() => true, '2026-09-10');
    fixture.ownDays = daysOf((record) => record.enrollmentId === own, '2026-12-31');
  });

  const schoolVariables = () => ({ school: String(world.school.id) });
  const sectionVariables = () => ({ section: String(fixture.section.id) });
  const byId = { key: (node: { id: string }) => node.id };
  const byGrade = {
    key: (node: { enrollmentId: string; assignmentId: string }) => `${node.enrollmentId}/${node.assignmentId}`,
  };
  const ownRows = (rows: { id: number | bigint }[]) => rows.map((row) => String(row.id));

  const cases: ListCase[] = [
    {
      name: 'triggersConnection',
      cursors: 'offset',
      viewer: 'teacher',
      variables: () => ({}),
      key: (node) => node.name,
      list: '{ list: triggers { name } }',
      pickList: (data) => data.list,
      connection: (window) =>
        `query($cursor: String) { page: triggersConnection(${window}) { ${pageInfo} edges { cursor node { name } } } }`,
      pickPage: (data) => data.page,
      expected: () => fixture.triggers,
    },
    {
      name: 'accessTokensConnection',
      cursors: 'id',
      viewer: 'teacher',
      variables: () => ({}),
      ...byId,
      list: '{ list: accessTokens { id: databaseId } }',
      pickList: (data) => data.list,
      connection: (window) =>
        `query($cursor: String) { page: accessTokensConnection(${window}) { ${pageInfo} edges { cursor node { id: databaseId } } } }`,
      pickPage: (data) => data.page,
      expected: () => fixture.accessTokens,
    },
    {
      name: 'apiClientsConnection',
      cursors: 'id',
      viewer: 'teacher',
      variables: () => ({}),
      ...byId,
      list: '{ list: apiClients { id: databaseId } }',
      pickList: (data) => data.list,
      connection: (window) =>
        `query($cursor: String) { page: apiClientsConnection(${window}) { ${pageInfo} edges { cursor node { id: databaseId } } } }`,
      pickPage: (data) => data.page,
      expected: () => fixture.apiClients,
    },
    {
      name: 'calendarFeedsConnection',
      cursors: 'id',
      viewer: 'teacher',
      variables: () => ({}),
      ...byId,
      list: '{ list: calendarFeeds { id: databaseId } }',
      pickList: (data) => data.list,
      connection: (window) =>
        `query($cursor: String) { page: calendarFeedsConnection(${window}) { ${pageInfo} edges { cursor node { id: databaseId } } } }`,
      pickPage: (data) => data.page,
      expected: () => fixture.calendarFeeds,
    },
    {
      name: 'gradingPeriodsConnection',
      cursors: 'id',
      viewer: 'teacher',
      variables: schoolVariables,
      ...byId,
      list: 'query($school: ID!) { list: gradingPeriods(schoolId: $school) { id: databaseId } }',
      pickList: (data) => data.list,
      connection: (window) =>
        `query($school: ID!, $cursor: String) { page: gradingPeriodsConnection(schoolId: $school, ${window}) { ${pageInfo} edges { cursor node { id: databaseId } } } }`,
      pickPage: (data) => data.page,
      expected: () => fixture.periods,
    },
    {
      name: 'gradingScalesConnection',
      cursors: 'id',
      viewer: 'teacher',
      variables: schoolVariables,
      ...byId,
      list: 'query($school: ID!) { list: gradingScales(schoolId: $school) { id: databaseId } }',
      pickList: (data) => data.list,
      connection: (window) =>
        `query($school: ID!, $cursor: String) { page: gradingScalesConnection(schoolId: $school, ${window}) { ${pageInfo} edges { cursor node { id: databaseId } } } }`,
      pickPage: (data) => data.page,
      expected: () => fixture.scales,
    },
    {
      name: 'gradingGroupsConnection',
      cursors: 'id',
      viewer: 'teacher',
      variables: sectionVariables,
      ...byId,
      list: 'query($section: ID!) { list: gradingGroups(sectionId: $section) { id: databaseId } }',
      pickList: (data) => data.list,
      connection: (window) =>
        `query($section: ID!, $cursor: String) { page: gradingGroupsConnection(sectionId: $section, ${window}) { ${pageInfo} edges { cursor node { id: databaseId } } } }`,
      pickPage: (data) => data.page,
      expected: () => fixture.groups,
    },
    {
      name: 'attendanceConnection',
      cursors: 'offset',
      viewer: 'teacher',
      variables: sectionVariables,
      key: (node) => JSON.stringify(node),
      list: 'query($section: ID!) { list: attendance(sectionId: $section, startDate: "2026-09-01", endDate: "2026-09-10", limit: 200) { items { date statuses { status records { enrollmentId } } } } }',
      pickList: (data) => data.list.items,
      connection: (window) =>
        `query($section: ID!, $cursor: String) { page: attendanceConnection(sectionId: $section, startDate: "2026-09-01", endDate: "2026-09-10", ${window}) { ${pageInfo} edges { cursor node { date statuses { status records { enrollmentId } } } } } }`,
      pickPage: (data) => data.page,
      expected: () => fixture.days,
    },
    {
      name: 'attendanceConnection of a student',
      cursors: 'offset',
      viewer: 'student',
      variables: sectionVariables,
      key: (node) => JSON.stringify(node),
      list: 'query($section: ID!) { list: attendance(sectionId: $section, limit: 200) { items { date statuses { status records { enrollmentId } } } } }',
      pickList: (data) => data.list.items,
      connection: (window) =>
        `query($section: ID!, $cursor: String) { page: attendanceConnection(sectionId: $section, ${window}) { ${pageInfo} edges { cursor node { date statuses { status records { enrollmentId } } } } } }`,
      pickPage: (data) => data.page,
      expected: () => fixture.ownDays,
    },
    {
      name: 'SectionGrades.gradesConnection',
      cursors: 'offset',
      viewer: 'teacher',
      variables: sectionVariables,
      ...byGrade,
      list: 'query($section: ID!) { list: sectionGrades(sectionId: $section) { grades(limit: 200) { enrollmentId assignmentId grade } } }',
      pickList: (data) => data.list.grades,
      connection: (window) =>
        `query($section: ID!, $cursor: String) { list: sectionGrades(sectionId: $section) { page: gradesConnection(${window}) { ${pageInfo} edges { cursor node { enrollmentId assignmentId grade } } } } }`,
      pickPage: (data) => data.list.page,
      expected: () => fixture.grades,
    },
    {
      name: 'SectionGrades.gradesConnection of userGrades',
      cursors: 'offset',
      viewer: 'student',
      variables: () => ({ ...sectionVariables(), user: String(world.student.id) }),
      ...byGrade,
      list: 'query($section: ID!, $user: ID!) { list: userGrades(userId: $user, sectionId: $section) { grades(limit: 200) { enrollmentId assignmentId grade } } }',
      pickList: (data) => data.list.grades,
      connection: (window) =>
        `query($section: ID!, $user: ID!, $cursor: String) { list: userGrades(userId: $user, sectionId: $section) { page: gradesConnection(${window}) { ${pageInfo} edges { cursor node { enrollmentId assignmentId grade } } } } }`,
      pickPage: (data) => data.list.page,
      expected: () => fixture.ownGrades,
    },
    {
      name: 'TriggerTarget.subscriptionsConnection',
      cursors: 'id',
      viewer: 'triggerAdmin',
      variables: () => ({}),
      ...byId,
      list: '{ list: triggerTargets(limit: 1) { items { subscriptions { id: databaseId } } } }',
      pickList: (data) => data.list.items[0].subscriptions,
      connection: (window) =>
        `query($cursor: String) { list: triggerTargets(limit: 1) { items { page: subscriptionsConnection(${window}) { ${pageInfo} edges { cursor node { id: databaseId } } } } } }`,
      pickPage: (data) => data.list.items[0].page,
      expected: () => fixture.subscriptions,
    },
    {
      name: 'WebhookDelivery.attemptLogConnection',
      cursors: 'id',
      viewer: 'triggerAdmin',
      variables: () => ({}),
      key: (node) => node.id,
      list: '{ list: triggerTargets(limit: 1) { items { deliveries(limit: 1) { items { attemptLog { id } } } } } }',
      pickList: (data) => data.list.items[0].deliveries.items[0].attemptLog,
      connection: (window) =>
        `query($cursor: String) { list: triggerTargets(limit: 1) { items { deliveries(limit: 1) { items { page: attemptLogConnection(${window}) { ${pageInfo} edges { cursor node { id } } } } } } } }`,
      pickPage: (data) => data.list.items[0].deliveries.items[0].page,
      expected: () => fixture.attempts,
    },
    {
      name: 'CalendarEvent.attachmentsConnection',
      cursors: 'id',
      viewer: 'teacher',
      variables: () => ({ realm: { type: 'SCHOOL', id: String(world.school.id) }, event: String(fixture.event.id) }),
      key: (node) => node.file.id,
      list: 'query($realm: RealmInput!, $event: ID!) { list: calendarEvent(realm: $realm, id: $event) { attachments { file { id: databaseId } } } }',
      pickList: (data) => data.list.attachments,
      connection: (window) =>
        `query($realm: RealmInput!, $event: ID!, $cursor: String) { list: calendarEvent(realm: $realm, id: $event) { page: attachmentsConnection(${window}) { ${pageInfo} edges { cursor node { file { id: databaseId } } } } } }`,
      pickPage: (data) => data.list.page,
      expected: () => fixture.attachments,
    },
    {
      name: 'GradingGroup.membersConnection',
      cursors: 'id',
      viewer: 'teacher',
      variables: sectionVariables,
      key: (node) => node.enrollment.id,
      list: 'query($section: ID!) { list: gradingGroups(sectionId: $section) { members { enrollment { id: databaseId } } } }',
      pickList: (data) => data.list[0].members,
      connection: (window) =>
        `query($section: ID!, $cursor: String) { list: gradingGroupsConnection(sectionId: $section, first: 1) { edges { node { page: membersConnection(${window}) { ${pageInfo} edges { cursor node { enrollment { id: databaseId } } } } } } } }`,
      pickPage: (data) => data.list.edges[0].node.page,
      expected: () => fixture.members,
    },
    {
      name: 'GradingScale.levelsConnection',
      cursors: 'offset',
      viewer: 'teacher',
      variables: schoolVariables,
      key: (node) => node.grade,
      list: 'query($school: ID!) { list: gradingScales(schoolId: $school) { levels { grade } } }',
      pickList: (data) => data.list[0].levels,
      connection: (window) =>
        `query($school: ID!, $cursor: String) { list: gradingScalesConnection(schoolId: $school, first: 1) { edges { node { page: levelsConnection(${window}) { ${pageInfo} edges { cursor node { grade } } } } } } }`,
      pickPage: (data) => data.list.edges[0].node.page,
      expected: () => fixture.levels,
    },
  ];

  /** Every page of a connection, walking forwards with `first`/`after` or backwards with `last`/`before`. */
  const walk = (list: ListCase, direction: 'forwards' | 'backwards', size: number) =>
    walkConnection<Page>(
      async (window, cursor) => {
        const result = await clients[list.viewer](list.connection(window), { ...list.variables(), cursor });
        expect(result.errors).toBeUndefined();
        return list.pickPage(result.data);
      },
      direction,
      size,
    );
  const keys = (list: ListCase, page: Page) => page.edges.map((edge) => list.key(edge.node));

  it.each(cases.map((list) => [list.name, list] as const))(
    '%s walks exactly what its list shows, forwards and backwards',
    async (_name, list) => {
      const answer = await clients[list.viewer](list.list, list.variables());
      expect(answer.errors).toBeUndefined();
      const listed = list.pickList(answer.data).map(list.key);
      expect(listed).toEqual(list.expected());
      expect(listed.length).toBeGreaterThanOrEqual(3);

      const forwards = await walk(list, 'forwards', 2);
      expect(forwards.flatMap((page) => keys(list, page))).toEqual(listed);
      expect(forwards[0]!.edges).toHaveLength(2);
      expect(forwards.map((page) => page.totalCount)).toEqual(forwards.map(() => listed.length));
      const backwards = await walk(list, 'backwards', 2);
      expect(backwards.reverse().flatMap((page) => keys(list, page))).toEqual(listed);
      expect(backwards.map((page) => page.totalCount)).toEqual(backwards.map(() => listed.length));

      // Without `first` or `last`, the whole (short) list in one page; `last` alone is its end.
      const whole = await clients[list.viewer](list.connection('after: $cursor'), {
        ...list.variables(),
        cursor: null,
      });
      expect(keys(list, list.pickPage(whole.data))).toEqual(listed);
      const end = await clients[list.viewer](list.connection('last: 1, before: $cursor'), {
        ...list.variables(),
        cursor: null,
      });
      expect(keys(list, list.pickPage(end.data))).toEqual(listed.slice(-1));
    },
  );

  it.each(cases.map((list) => [list.name, list] as const))(
    '%s refuses a malformed cursor with BAD_USER_INPUT',
    async (_name, list) => {
      // Besides text that is no cursor at all, a well-formed cursor of the other kind (a position, or an id).
      const otherKind = list.cursors === 'id' ? cursorOf('OffsetConnection:1') : idCursor;
      for (const cursor of ['garbage', cursorOf('OffsetConnection:-1'), cursorOf('OffsetConnection:1x'), otherKind]) {
        for (const window of ['first: 1, after: $cursor', 'last: 1, before: $cursor']) {
          const result = await clients[list.viewer](list.connection(window), { ...list.variables(), cursor });
          // 400 when the refused field takes `data` with it (a non-null root list), 200 beside the null of a nullable one.
          expect(result.status, `${cursor} as ${window}`).toBe(result.data ? 200 : 400);
          expect(result.errors?.[0]?.extensions?.code, `${cursor} as ${window}`).toBe('BAD_USER_INPUT');
        }
      }
    },
  );

  it("pages are at most 200 items, as every connection's", async () => {
    const students = [];
    for (let index = 0; index < 15; index++) students.push(await createUser(world.school.id, 'STUDENT'));
    const section = await createSection(world.school.id, [
      { userId: world.teacher.id, admin: true },
      ...students.map((user) => ({ userId: user.id })),
    ]);
    const enrollments = await db().enrollment.findMany({ where: { sectionId: section.id, admin: false } });
    const assignments = await createAssignments(section.id, 14);
    await db().grade.createMany({
      data: enrollments.flatMap((enrollment) =>
        assignments.map((assignment) => ({
          enrollmentId: enrollment.id,
          assignmentId: assignment.id,
          sectionId: section.id,
          grade: 1,
        })),
      ),
    });
    for (const window of ['first: 500', 'last: 500']) {
      const result = await clients.teacher(
        `query($section: ID!) { sectionGrades(sectionId: $section) { gradesConnection(${window}) { ${pageInfo} edges { cursor } } } }`,
        { section: String(section.id) },
      );
      const page = result.data.sectionGrades.gradesConnection as Page;
      expect(page.totalCount).toBe(210);
      expect(page.edges).toHaveLength(200);
      expect(window.startsWith('first') ? page.pageInfo.hasNextPage : page.pageInfo.hasPreviousPage).toBe(true);
    }
  });

  it('a connection is null where its list is null, even when only its count is asked', async () => {
    const query = `query($school: ID!, $section: ID!) {
      gradingPeriods(schoolId: $school) { id } gradingPeriodsConnection(schoolId: $school) { totalCount }
      gradingScales(schoolId: $school) { id } gradingScalesConnection(schoolId: $school) { totalCount }
      gradingGroups(sectionId: $section) { id } gradingGroupsConnection(sectionId: $section) { totalCount }
      attendance(sectionId: $section) { total } attendanceConnection(sectionId: $section) { totalCount }
      sectionGrades(sectionId: $section) { gradesConnection { totalCount } }
    }`;
    const hidden = await clients.teacher(query, {
      school: String(world.farSchool.id),
      section: String(fixture.farSection.id),
    });
    expect(hidden.errors).toBeUndefined();
    expect(hidden.data).toEqual(Object.fromEntries(Object.keys(hidden.data).map((field) => [field, null])));
    expect(Object.keys(hidden.data)).toHaveLength(9);
  });

  it('a connection is refused where its list is, with the same error', async () => {
    const refusals = async (
      client: GraphQLClient,
      pairs: [string, string][],
      variables: Record<string, unknown> = {},
    ) => {
      for (const [list, connection] of pairs) {
        const [plain, paged] = await Promise.all([client(list, variables), client(connection, variables)]);
        expect(paged.status).toBe(plain.status);
        expect(paged.errors?.map((error) => [error.message, error.extensions?.code])).toEqual(
          plain.errors?.map((error) => [error.message, error.extensions?.code]),
        );
        expect(plain.errors?.length).toBeGreaterThan(0);
      }
    };
    // A student knows the section but not its grading groups.
    await refusals(
      clients.student,
      [
        [
          'query($section: ID!) { gradingGroups(sectionId: $section) { id } }',
          'query($section: ID!) { gradingGroupsConnection(sectionId: $section) { totalCount } }',
        ],
      ],
      sectionVariables(),
    );
    // Without a credential, every list is 401.
    const anonymous = (async (query: string, variables: Record<string, unknown> = {}) => {
      const response = await server.fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, ...((await response.json()) as object) };
    }) as GraphQLClient;
    await refusals(anonymous, [
      ['{ triggers { name } }', '{ triggersConnection { totalCount } }'],
      ['{ accessTokens { id } }', '{ accessTokensConnection { totalCount } }'],
      ['{ apiClients { id } }', '{ apiClientsConnection { totalCount } }'],
      ['{ calendarFeeds { id } }', '{ calendarFeedsConnection { totalCount } }'],
    ]);
    // A district that keeps attendance in another app has none here: GONE for both.
    await db().district.update({ where: { id: world.district.id }, data: { attendanceApp: 'Elsewhere' } });
    try {
      await refusals(
        clients.teacher,
        [
          [
            'query($section: ID!) { attendance(sectionId: $section) { total } }',
            'query($section: ID!) { attendanceConnection(sectionId: $section) { totalCount } }',
          ],
        ],
        sectionVariables(),
      );
    } finally {
      await db().district.update({ where: { id: world.district.id }, data: { attendanceApp: null } });
    }
    // A user's grades are read one section at a time.
    await refusals(
      clients.teacher,
      [
        [
          'query($user: ID!) { userGrades(userId: $user) { total } }',
          'query($user: ID!) { userGrades(userId: $user) { gradesConnection { totalCount } } }',
        ],
      ],
      { user: String(world.student.id) },
    );
  });

  it('a grading period cursor pages on from its place once its period is deleted', async () => {
    const school = { school: String(world.school.id) };
    const page = (window: string, cursor: string | null) =>
      clients.teacher(
        `query($school: ID!, $cursor: String) { page: gradingPeriodsConnection(schoolId: $school, ${window}) { pageInfo { endCursor } edges { node { id: databaseId } } } }`,
        { ...school, cursor },
      );
    const later = await db().gradingPeriod.create({
      data: { schoolId: world.school.id, title: 'Later', startsOn: day('2030-01-01'), endsOn: day('2030-06-01') },
    });
    const last = await db().gradingPeriod.create({
      data: { schoolId: world.school.id, title: 'Last', startsOn: day('2031-01-01'), endsOn: day('2031-06-01') },
    });
    const all: string[] = (await page('first: 200, after: $cursor', null)).data.page.edges.map(
      (edge: { node: { id: string } }) => edge.node.id,
    );
    expect(all.slice(-2)).toEqual([String(later.id), String(last.id)]);
    let cursor: string | null = null;
    for (;;) {
      const next: Page = (await page('first: 1, after: $cursor', cursor)).data.page;
      cursor = next.pageInfo.endCursor;
      if (next.edges[0]!.node.id === String(later.id)) break;
    }
    await db().gradingPeriod.delete({ where: { id: later.id } });
    const after = await page('first: 1, after: $cursor', cursor);
    expect(after.errors).toBeUndefined();
    expect(after.data.page.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([String(last.id)]);
    const before = await page('last: 1, before: $cursor', cursor);
    expect(before.data.page.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([all.at(-3)]);
  });

  it('attendanceConnection carries the totals of the whole span, as attendance does', async () => {
    const answer = await clients.teacher(
      `query($section: ID!) {
        list: attendance(sectionId: $section, limit: 1) { totals { status count } }
        page: attendanceConnection(sectionId: $section, first: 1) { totals { status count } }
      }`,
      sectionVariables(),
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data.page.totals).toEqual(answer.data.list.totals);
    expect(answer.data.page.totals.length).toBeGreaterThan(1);
  });
});

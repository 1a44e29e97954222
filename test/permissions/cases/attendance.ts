import { db } from '../../../src/db/database';
import { createSection, createUser } from '../../support/factories';
import { type Fixture, outcome, permissionCases } from '../../support/permissions';

interface Shared {
  section: { id: number };
  own: number;
  classmate: number;
}
type F = Fixture<Shared>;

type Day = { statuses: { status: { attendances: { attendance: { enrollment_id: number }[] } }[] } };
/** Whether a /v1 attendance list shows a record of the enrollment. */
const shows = (answer: { date: Day[] }, enrollment: number) =>
  answer.date.some((day) =>
    day.statuses.status.some((group) =>
      group.attendances.attendance.some((record) => record.enrollment_id === enrollment),
    ),
  );
type GraphQLDay = { statuses: { records: { enrollmentId: string }[] }[] };
const showsOnGraphQL = (answer: { items: GraphQLDay[] } | null, enrollment: number) =>
  !!answer?.items.some((day) =>
    day.statuses.some((group) => group.records.some((record) => record.enrollmentId === String(enrollment))),
  );
const list = `query($sectionId: ID!) { attendance(sectionId: $sectionId) { items { statuses { records { enrollmentId } } } } }`;
/** A connection's days, as the offset list holds them. */
const daysOf = (connection: { edges: { node: GraphQLDay }[] } | null) =>
  connection && { items: connection.edges.map((edge) => edge.node) };
const connection = `query($sectionId: ID!) { attendanceConnection(sectionId: $sectionId, first: 200) { edges { node { statuses { records { enrollmentId } } } } } }`;
const body = (f: F) => ({ attendances: { attendance: [{ enrollment_id: f.own, date: '2026-01-06', status: 3 }] } });

// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
// The teacher administers the section, the student is enrolled with a classmate, and the parent is linked to the
// student: the student reads their own attendance, the parent their child's; neither sees the classmate's.
export default permissionCases<Shared>(
  'attendance',
  async (world) => {
    const classmate = await createUser(world.school.id, 'STUDENT');
    const section = await createSection(world.school.id, [
      { userId: world.teacher.id, admin: true },
      { userId: world.student.id },
      { userId: classmate.id },
    ]);
    // The cast's world is shared by every table: another may have linked them already.
    const link = { parentId: world.parent.id, childId: world.student.id };
    await db().parentLink.upsert({ where: { parentId_childId: link }, create: link, update: {} });
    const enrollments = await db().enrollment.findMany({ where: { sectionId: section.id } });
    const of = (userId: number) => enrollments.find((row) => row.userId === userId)!.id;
    const [own, other] = [of(world.student.id), of(classmate.id)];
    const date = new Date('2026-01-05');
    await db().attendanceRecord.createMany({
      data: [
        { enrollmentId: own, sectionId: section.id, date, status: 'ABSENT' },
        { enrollmentId: other, sectionId: section.id, date, status: 'LATE' },
      ],
    });
    return { section, own, classmate: other };
  },
  [
    {
      route: 'GET /sections/{id}/attendance',
      name: "the student's own records",
      expect: 'h h o o o o o',
      request: (f) => ({ params: { id: f.section.id } }),
      finds: (answer, f) => shows(answer, f.own),
    },
    {
      route: 'GET /sections/{id}/attendance',
      name: "a classmate's records",
      expect: 'h h h o h o o',
      request: (f) => ({ params: { id: f.section.id } }),
      finds: (answer, f) => shows(answer, f.classmate),
    },
    {
      route: 'PUT /sections/{id}/attendance',
      name: 'take attendance',
      expect: 'h h f o f o o',
      request: (f) => ({ params: { id: f.section.id }, body: body(f) }),
    },
    {
      graphql: list,
      name: "the student's own records",
      expect: 'h h o o o o o',
      variables: (f) => ({ sectionId: String(f.section.id) }),
      finds: (answer, f) => showsOnGraphQL(answer, f.own),
    },
    {
      graphql: list,
      name: "a classmate's records",
      expect: 'h h h o h o o',
      variables: (f) => ({ sectionId: String(f.section.id) }),
      finds: (answer, f) => showsOnGraphQL(answer, f.classmate),
    },
    {
      graphql: connection,
      name: "the student's own records",
      expect: 'h h o o o o o',
      variables: (f) => ({ sectionId: String(f.section.id) }),
      finds: (answer, f) => showsOnGraphQL(daysOf(answer), f.own),
    },
    {
      graphql: connection,
      name: "a classmate's records",
      expect: 'h h h o h o o',
      variables: (f) => ({ sectionId: String(f.section.id) }),
      finds: (answer, f) => showsOnGraphQL(daysOf(answer), f.classmate),
    },
    {
      graphql: `mutation($sectionId: ID!, $records: [AttendanceInput!]!) { setAttendance(input: { sectionId: $sectionId, records: $records }) { ${outcome} } }`,
      name: 'take attendance',
      expect: 'h h f o f o o',
      variables: (f) => ({
        sectionId: String(f.section.id),
        records: [{ enrollmentId: String(f.own), date: '2026-01-06', status: 'LATE' }],
      }),
    },
  ],
);

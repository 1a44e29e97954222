import { db } from '../../../src/db/database';
import { createSection, createUser } from '../../support/factories';
import { type Fixture, outcome, permissionCases } from '../../support/permissions';

const id = (object: { id: number }) => String(object.id);

interface Gradebook {
  section: { id: number };
  studentEnrollment: { id: number };
  assignment: { id: number };
  period: { id: number };
  scale: { id: number };
}

const freshAssignment = (f: Fixture<Gradebook>) =>
  db().assignment.create({ data: { sectionId: f.section.id, title: 'Quiz' } });
const freshPeriod = (school: { id: number }) =>
  db().gradingPeriod.create({
    data: { schoolId: school.id, title: 'Term', startsOn: new Date('2026-09-01'), endsOn: new Date('2026-12-20') },
  });
const freshScale = (school: { id: number }) =>
  db().gradingScale.create({
    data: {
      schoolId: school.id,
      title: 'Letters',
      levels: [
        { grade: 'P', minimum: 50 },
        { grade: 'F', minimum: 0 },
      ],
    },
  });
const freshFamily = async (f: Fixture<Gradebook>) => ({
  parentId: id(await createUser(f.school.id, 'PARENT')),
  childId: id(await createUser(f.school.id, 'STUDENT')),
});

// A section's gradebook: its teachers and the school's and district's administrators keep it and list its grades; its
// student reads their own part (at /users/{id}/grades) and their linked parent their child's; others who know the
// section are refused, the rest do not see it.
// Grading periods and scales are the school's: its administrators keep them, those who know the school read them.
// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
export default permissionCases<Gradebook>(
  'gradebook',
  async (world) => {
    const section = await createSection(world.school.id, [
      { userId: world.teacher.id, admin: true },
      { userId: world.student.id },
    ]);
    await db().parentLink.upsert({
      where: { parentId_childId: { parentId: world.parent.id, childId: world.student.id } },
      create: { parentId: world.parent.id, childId: world.student.id },
      update: {},
    });
    return {
      section,
      studentEnrollment: await db().enrollment.findFirstOrThrow({
        where: { sectionId: section.id, userId: world.student.id },
      }),
      assignment: await db().assignment.create({ data: { sectionId: section.id, title: 'Essay' } }),
      period: await freshPeriod(world.school),
      scale: await freshScale(world.school),
    };
  },
  [
    {
      route: 'GET /sections/{section_id}/assignments',
      name: "the section's items",
      expect: 'h h o o o o o',
      request: (f) => ({ params: { section_id: f.section.id } }),
    },
    {
      route: 'GET /sections/{section_id}/assignments/{id}',
      name: 'an item of the section',
      expect: 'h h o o o o o',
      request: (f) => ({ params: { section_id: f.section.id, id: f.assignment.id } }),
    },
    {
      route: 'GET /sections/{section_id}/grades',
      name: "the section's grades, to its teachers and administrators",
      expect: 'h h f o f o o',
      request: (f) => ({ params: { section_id: f.section.id } }),
    },
    {
      route: 'GET /users/{user_id}/grades',
      name: "the student's grades in the section",
      expect: 'h h o o o o o',
      request: (f) => ({ params: { user_id: f.student.id }, query: { section_id: id(f.section) } }),
    },
    {
      route: 'PUT /sections/{section_id}/grades',
      name: 'grade the student',
      expect: 'h h f o f o o',
      request: (f) => ({
        params: { section_id: f.section.id },
        body: {
          grades: { grade: [{ assignment_id: f.assignment.id, enrollment_id: f.studentEnrollment.id, grade: 7 }] },
        },
      }),
    },

    {
      graphql: 'query($sectionId: ID!) { assignments(sectionId: $sectionId) { total } }',
      name: "the section's items",
      expect: 'h h o o o o o',
      variables: (f) => ({ sectionId: id(f.section) }),
    },
    {
      graphql: 'query($sectionId: ID!) { assignmentsConnection(sectionId: $sectionId) { totalCount } }',
      name: "the section's items",
      expect: 'h h o o o o o',
      variables: (f) => ({ sectionId: id(f.section) }),
    },
    {
      graphql: 'query($sectionId: ID!, $id: ID!) { assignment(sectionId: $sectionId, id: $id) { id: databaseId } }',
      name: 'an item of the section',
      expect: 'h h o o o o o',
      variables: (f) => ({ sectionId: id(f.section), id: id(f.assignment) }),
    },
    {
      graphql: 'query($sectionId: ID!) { sectionGrades(sectionId: $sectionId) { total } }',
      name: "the section's grades, to its teachers and administrators",
      expect: 'h h f o f o o',
      variables: (f) => ({ sectionId: id(f.section) }),
    },
    {
      graphql: 'query($userId: ID!, $sectionId: ID!) { userGrades(userId: $userId, sectionId: $sectionId) { total } }',
      name: "the student's grades in the section",
      expect: 'h h o o o o o',
      variables: (f) => ({ userId: id(f.student), sectionId: id(f.section) }),
    },
    {
      graphql: 'query($sectionId: ID!) { sectionGrades(sectionId: $sectionId) { gradesConnection { totalCount } } }',
      name: "the section's grades, as a connection",
      expect: 'h h f o f o o',
      variables: (f) => ({ sectionId: id(f.section) }),
    },
    {
      graphql: `mutation($sectionId: ID!, $grades: [GradeInput!]) { setSectionGrades(input: { sectionId: $sectionId, grades: $grades }) { ${outcome} } }`,
      name: 'grade the student',
      expect: 'h h f o f o o',
      variables: (f) => ({
        sectionId: id(f.section),
        grades: [{ assignmentId: id(f.assignment), enrollmentId: id(f.studentEnrollment), grade: '8' }],
      }),
    },
    {
      graphql: `mutation($sectionId: ID!) { createAssignment(input: { sectionId: $sectionId, title: "Lab" }) { ${outcome} } }`,
      name: 'an item in the section',
      expect: 'h h f o f o o',
      variables: (f) => ({ sectionId: id(f.section) }),
    },
    {
      graphql: `mutation($id: ID!) { updateAssignment(input: { id: $id, title: "Lab 2" }) { ${outcome} } }`,
      name: 'an item of the section',
      expect: 'h h f o f o o',
      variables: (f) => ({ id: id(f.assignment) }),
    },
    {
      graphql: `mutation($id: ID!) { deleteAssignment(input: { id: $id }) { ${outcome} } }`,
      name: 'a fresh item of the section',
      expect: 'h h f o f o o',
      variables: async (f) => ({ id: id(await freshAssignment(f)) }),
    },

    {
      graphql: 'query($schoolId: ID!) { gradingPeriods(schoolId: $schoolId) { id: databaseId } }',
      name: "the school's periods",
      expect: 'h o o o o o o',
      variables: (f) => ({ schoolId: id(f.school) }),
    },
    {
      graphql: 'query($schoolId: ID!) { gradingScales(schoolId: $schoolId) { id: databaseId } }',
      name: "the school's scales",
      expect: 'h o o o o o o',
      variables: (f) => ({ schoolId: id(f.school) }),
    },
    {
      graphql: 'query($schoolId: ID!) { gradingPeriodsConnection(schoolId: $schoolId) { totalCount } }',
      name: "the school's periods",
      expect: 'h o o o o o o',
      variables: (f) => ({ schoolId: id(f.school) }),
    },
    {
      graphql: 'query($schoolId: ID!) { gradingScalesConnection(schoolId: $schoolId) { totalCount } }',
      name: "the school's scales",
      expect: 'h o o o o o o',
      variables: (f) => ({ schoolId: id(f.school) }),
    },
    {
      graphql: `mutation($schoolId: ID!) { createGradingPeriod(input: { schoolId: $schoolId, title: "Spring", startsOn: "2027-01-05", endsOn: "2027-05-30" }) { ${outcome} } }`,
      name: 'a period of the school',
      expect: 'h f f f f o o',
      variables: (f) => ({ schoolId: id(f.school) }),
    },
    {
      graphql: `mutation($id: ID!) { updateGradingPeriod(input: { id: $id, title: "Autumn" }) { ${outcome} } }`,
      name: 'a period of the school',
      expect: 'h f f f f o o',
      variables: (f) => ({ id: id(f.period) }),
    },
    {
      graphql: `mutation($id: ID!) { deleteGradingPeriod(input: { id: $id }) { ${outcome} } }`,
      name: 'a fresh period of the school',
      expect: 'h f f f f o o',
      variables: async (f) => ({ id: id(await freshPeriod(f.school)) }),
    },
    {
      graphql: `mutation($schoolId: ID!) { createGradingScale(input: { schoolId: $schoolId, title: "Pass", levels: [{ grade: "P", minimum: 50 }] }) { ${outcome} } }`,
      name: 'a scale of the school',
      expect: 'h f f f f o o',
      variables: (f) => ({ schoolId: id(f.school) }),
    },
    {
      graphql: `mutation($id: ID!) { updateGradingScale(input: { id: $id, title: "Pass/fail" }) { ${outcome} } }`,
      name: 'a scale of the school',
      expect: 'h f f f f o o',
      variables: (f) => ({ id: id(f.scale) }),
    },
    {
      graphql: `mutation($id: ID!) { deleteGradingScale(input: { id: $id }) { ${outcome} } }`,
      name: 'a fresh scale of the school',
      expect: 'h f f f f o o',
      variables: async (f) => ({ id: id(await freshScale(f.school)) }),
    },

    {
      graphql: `mutation($input: LinkParentInput!) { linkParent(input: $input) { ${outcome} } }`,
      name: 'a parent and child of the school',
      expect: 'h h f f f o o',
      variables: async (f) => ({ input: await freshFamily(f) }),
    },
    {
      graphql: `mutation($input: UnlinkParentInput!) { unlinkParent(input: $input) { ${outcome} } }`,
      name: 'a parent and child of the school',
      expect: 'h h f f f o o',
      variables: async (f) => ({ input: await freshFamily(f) }),
    },
  ],
);

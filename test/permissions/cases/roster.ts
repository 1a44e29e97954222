import { db } from '../../../src/db/database';
import { createSection, createUser, unique } from '../../support/factories';
import { outcome, permissionCases } from '../../support/permissions';

const id = (object: { id: number }) => String(object.id);
type Enrollment = { user: { id: string } };
const enrolls = (section: { enrollments: Enrollment[] }, user: { id: number }) =>
  section.enrollments.some((enrollment) => enrollment.user.id === id(user));
const enrollmentsDoc = 'query($id: ID!) { section(id: $id) { enrollments { user { id: databaseId username } } } }';
const lists = (connection: { nodes: { id: string }[] }, object: { id: number }) =>
  connection.nodes.some((node) => node.id === id(object));
const rosterDoc = 'query($id: ID!) { user(id: $id) { sections { nodes { id: databaseId } } } }';

// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
export default permissionCases(
  'roster',
  async (world) => {
    // The cast's parent is linked to a child of their own here: a link to the cast's student would open that student's
    // grades and attendance to the parent in the other tables.
    const child = await createUser(world.school.id, 'STUDENT');
    await db().parentLink.create({ data: { parentId: world.parent.id, childId: child.id } });
    return {
      child,
      childSection: await createSection(world.school.id, [
        { userId: world.teacher.id, admin: true },
        { userId: child.id },
      ]),
      section: await createSection(world.school.id, [
        { userId: world.teacher.id, admin: true },
        { userId: world.student.id },
      ]),
      // A district administrator may enroll a student of another school: the section's own users still must not see them.
      mixedSection: await createSection(world.school.id, [
        { userId: world.teacher.id, admin: true },
        { userId: world.student.id },
        { userId: world.otherSchoolStudent.id },
      ]),
    };
  },
  [
    {
      graphql: 'query($id: ID!) { section(id: $id) { id: databaseId } }',
      name: 'enrolled users and administrators',
      expect: 'h h o o h o o',
      variables: (f) => ({ id: id(f.section) }),
    },
    {
      graphql: `mutation($input: CreateSectionInput!) { createSection(input: $input) { ${outcome} } }`,
      name: "in the cast's school",
      expect: 'h f f f f o o',
      variables: (f) => ({
        input: { schoolId: id(f.school), courseTitle: 'Chemistry', courseCode: unique('CH'), title: 'Period 1' },
      }),
    },
    {
      graphql: `mutation($input: CreateEnrollmentInput!) { createEnrollment(input: $input) { ${outcome} } }`,
      name: "a student of the school, by the section's administrators",
      expect: 'h h f o f o o',
      variables: async (f) => ({
        input: { sectionId: id(f.section), userId: id(await createUser(f.school.id, 'STUDENT')) },
      }),
    },
    {
      graphql: enrollmentsDoc,
      name: 'enrollments: a student of the school',
      expect: 'h h o o h o o',
      variables: (f) => ({ id: id(f.mixedSection) }),
      finds: (answer, f) => enrolls(answer, f.student),
    },
    {
      graphql: enrollmentsDoc,
      name: 'enrollments: a student of another school, to those who see that student',
      expect: 'h o h h h h o',
      variables: (f) => ({ id: id(f.mixedSection) }),
      finds: (answer, f) => enrolls(answer, f.otherSchoolStudent),
    },
    {
      graphql: '{ sections(first: 200) { nodes { id: databaseId } } }',
      name: 'sections: one the teacher teaches and the student takes',
      expect: 'h h o o h o o',
      finds: (answer, f) => lists(answer, f.section),
    },
    {
      graphql: '{ courses(first: 200) { nodes { id: databaseId } } }',
      name: 'courses: the course of a section the teacher teaches and the student takes',
      expect: 'h h o o h o o',
      finds: (answer, f) => lists(answer, { id: f.section.courseId }),
    },
    {
      graphql: rosterDoc,
      name: "a user's roster: the parent's child's sections, not to the child's teacher",
      expect: 'h h h h o o o',
      variables: (f) => ({ id: id(f.child) }),
      finds: (answer: { sections: unknown } | null) => answer?.sections != null,
    },
  ],
);

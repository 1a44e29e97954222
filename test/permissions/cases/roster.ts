import { db } from '../../../src/db/database';
import { createSection, createUser, unique } from '../../support/factories';
import { type Fixture as TestFixture, type PermissionCase, outcome, permissionCases } from '../../support/permissions';

const id = (object: { id: number }) => String(object.id);
type Enrollment = { user: { id: string } };
const enrolls = (section: { enrollments: Enrollment[] }, user: { id: number }) =>
  section.enrollments.some((enrollment) => enrollment.user.id === id(user));
const enrollmentsDoc = 'query($id: ID!) { section(id: $id) { enrollments { user { id: databaseId username } } } }';
const lists = (connection: { nodes: { id: string }[] }, object: { id: number }) =>
  connection.nodes.some((node) => node.id === id(object));
const rosterDoc = 'query($id: ID!) { user(id: $id) { sections { nodes { id: databaseId } } } }';

type Fixture = TestFixture<{ section: { id: number; courseId: number } }>;
/** The student's enrollment in a section. */
const enrollmentOf = async (section: { id: number }, userId: number) =>
  db().enrollment.findUniqueOrThrow({ where: { sectionId_userId: { sectionId: section.id, userId } } });
/** A fresh student enrolled in the section, for a removal each request. */
const freshEnrollment = async (f: Fixture) =>
  db().enrollment.create({ data: { sectionId: f.section.id, userId: (await createUser(f.school.id, 'STUDENT')).id } });
const readers = 'h h o o f o o';
/** Whoever has a section's or group's code joins it, in its district: the code is the administrators' consent. */
const joiners = 'h o o o o o o';
const codeOfFreshSection = async (f: Fixture) =>
  (
    await db().section.findUniqueOrThrow({
      where: { id: (await createSection(f.school.id)).id },
      select: { accessCode: true },
    })
  ).accessCode;
const writers = 'h h f o f o o';

/** /v1 section enrollments and their GraphQL twins: members read the roster, its administrators change it. */
const enrollmentCases: PermissionCase<{ section: { id: number; courseId: number } }>[] = [
  {
    route: 'GET /sections/{section_id}/enrollments',
    name: "a section's roster, to its members and administrators",
    expect: readers,
    request: (f: Fixture) => ({ params: { section_id: f.section.id } }),
  },
  {
    route: 'GET /sections/{section_id}/enrollments/{id}',
    name: "a student's enrollment",
    expect: readers,
    request: async (f: Fixture) => ({
      params: { section_id: f.section.id, id: (await enrollmentOf(f.section, f.student.id)).id },
    }),
  },
  {
    route: 'POST /sections/{section_id}/enrollments',
    name: 'a student of the school, by the section administrators',
    expect: writers,
    request: async (f: Fixture) => ({
      params: { section_id: f.section.id },
      body: { uid: String((await createUser(f.school.id, 'STUDENT')).id) },
    }),
  },
  {
    route: 'PUT /sections/{section_id}/enrollments/{id}',
    name: "a student's status",
    expect: writers,
    request: async (f: Fixture) => ({
      params: { section_id: f.section.id, id: (await enrollmentOf(f.section, f.student.id)).id },
      body: { status: 1 },
    }),
  },
  {
    route: 'DELETE /sections/{section_id}/enrollments/{id}',
    name: 'a student of the section',
    expect: writers,
    request: async (f: Fixture) => ({ params: { section_id: f.section.id, id: (await freshEnrollment(f)).id } }),
  },
  {
    route: 'DELETE /sections/{section_id}/enrollments',
    name: 'a student of the section, by enrollment_ids',
    expect: writers,
    request: async (f: Fixture) => ({
      params: { section_id: f.section.id },
      query: { enrollment_ids: String((await freshEnrollment(f)).id) },
    }),
  },
  {
    graphql: 'query($id: ID!) { sectionEnrollments(sectionId: $id) { total items { id: databaseId } } }',
    name: "a section's roster, to its members and administrators",
    expect: readers,
    variables: (f: Fixture) => ({ id: id(f.section) }),
  },
  {
    graphql: 'query($section: ID!, $id: ID!) { sectionEnrollment(sectionId: $section, id: $id) { id: databaseId } }',
    name: "a student's enrollment",
    expect: readers,
    variables: async (f: Fixture) => ({
      section: id(f.section),
      id: id(await enrollmentOf(f.section, f.student.id)),
    }),
  },
  {
    graphql: `mutation($input: CreateEnrollmentsInput!) { createEnrollments(input: $input) { ${outcome} } }`,
    name: 'students of the school, by the section administrators',
    expect: writers,
    variables: async (f: Fixture) => ({
      input: { sectionId: id(f.section), items: [{ userId: id(await createUser(f.school.id, 'STUDENT')) }] },
    }),
  },
  {
    graphql: `mutation($input: UpdateEnrollmentInput!) { updateEnrollment(input: $input) { ${outcome} } }`,
    name: "a student's status",
    expect: writers,
    variables: async (f: Fixture) => ({
      input: { id: id(await enrollmentOf(f.section, f.student.id)), status: 'ACTIVE' },
    }),
  },
  {
    graphql: `mutation($input: DeleteEnrollmentInput!) { deleteEnrollment(input: $input) { ${outcome} } }`,
    name: 'a student of the section',
    expect: writers,
    variables: async (f: Fixture) => ({ input: { id: id(await freshEnrollment(f)) } }),
  },
  {
    graphql: `mutation($input: DeleteEnrollmentsInput!) { deleteEnrollments(input: $input) { ${outcome} } }`,
    name: 'students of the section',
    expect: writers,
    variables: async (f: Fixture) => ({ input: { sectionId: id(f.section), ids: [id(await freshEnrollment(f))] } }),
  },
  {
    route: 'POST /sections/accesscode',
    name: "a fresh section's code, by anyone of its district",
    expect: joiners,
    request: async (f: Fixture) => ({ body: { access_code: await codeOfFreshSection(f) } }),
  },
  {
    graphql: `mutation($input: JoinSectionInput!) { joinSection(input: $input) { ${outcome} } }`,
    name: "a fresh section's code, by anyone of its district",
    expect: joiners,
    variables: async (f: Fixture) => ({ input: { accessCode: await codeOfFreshSection(f) } }),
  },
];

/** A fresh course of the cast's school, taught by the cast's teacher and taken by its student, for a change or delete. */
const freshSection = (f: Fixture) =>
  createSection(f.school.id, [{ userId: f.teacher.id, admin: true }, { userId: f.student.id }]);
const freshCourse = async (f: Fixture) => (await freshSection(f)).courseId;
const newCourse = () => ({ title: 'Chemistry', course_code: unique('CH') });
const courseManagers = 'h f f f f o o';
// Those who read the course (its teacher and student) are refused; those who do not read it do not learn of it.
const courseChangers = 'h h f f h o o';
// The school's users see its sections: a parent or another student of the school is refused rather than not told.
const sectionChangers = 'h h f f f o o';

/** /v1 course writes and their GraphQL twins: the administrators of the course's school and district. */
const courseWriteCases: PermissionCase<{ section: { id: number; courseId: number } }>[] = [
  {
    route: 'POST /courses',
    name: "one course of the cast's school",
    expect: courseManagers,
    request: (f: Fixture) => ({ body: { ...newCourse(), building_id: f.school.id } }),
  },
  {
    route: 'POST /courses',
    name: "a bulk of a course of the cast's school",
    expect: courseManagers,
    request: (f: Fixture) => ({ body: { courses: { course: [{ ...newCourse(), building_id: f.school.id }] } } }),
    finds: (answer: { course: { response_code: number }[] }) => answer.course[0]!.response_code === 200,
  },
  {
    route: 'POST /courses/{id}/sections',
    name: 'a section of a course the teacher teaches and the student takes',
    expect: courseChangers,
    request: async (f: Fixture) => ({
      params: { id: await freshCourse(f) },
      body: { title: 'Period 2', section_school_code: unique('SSC') },
    }),
  },
  {
    route: 'POST /courses/{id}/sections',
    name: 'a bulk of a section of a course the teacher teaches and the student takes',
    expect: courseChangers,
    request: async (f: Fixture) => ({
      params: { id: await freshCourse(f) },
      body: { sections: { section: [{ title: 'Period 2', section_school_code: unique('SSC') }] } },
    }),
    finds: (answer: { section: { response_code: number }[] }) => answer.section[0]!.response_code === 200,
  },
  {
    graphql: `mutation($input: CreateSectionsInput!) { createSections(input: $input) { ${outcome} results { code } } }`,
    name: 'a section of a course the teacher teaches and the student takes',
    expect: courseChangers,
    variables: async (f: Fixture) => ({
      input: { courseId: String(await freshCourse(f)), items: [{ title: 'Period 2', sectionCode: unique('P') }] },
    }),
    finds: (answer: { results: { code: string }[] }) => answer.results[0]!.code === 'CREATED',
  },
  {
    route: 'PUT /courses/{id}',
    name: 'a course the teacher teaches and the student takes',
    expect: courseChangers,
    request: async (f: Fixture) => ({ params: { id: await freshCourse(f) }, body: { title: 'Renamed' } }),
  },
  {
    route: 'DELETE /courses/{id}',
    name: 'a course the teacher teaches and the student takes',
    expect: courseChangers,
    request: async (f: Fixture) => ({ params: { id: await freshCourse(f) } }),
  },
  {
    graphql: `mutation($input: CreateCourseInput!) { createCourse(input: $input) { ${outcome} } }`,
    name: "in the cast's school",
    expect: courseManagers,
    variables: (f: Fixture) => ({ input: { schoolId: id(f.school), title: 'Chemistry', courseCode: unique('CH') } }),
  },
  {
    graphql: `mutation($input: CreateCoursesInput!) { createCourses(input: $input) { ${outcome} results { code } } }`,
    name: "a course of the cast's school",
    expect: courseManagers,
    variables: (f: Fixture) => ({
      input: { items: [{ schoolId: id(f.school), title: 'Chemistry', courseCode: unique('CH') }] },
    }),
    finds: (answer: { results: { code: string }[] }) => answer.results[0]!.code === 'CREATED',
  },
  {
    graphql: `mutation($input: UpdateCourseInput!) { updateCourse(input: $input) { ${outcome} } }`,
    name: 'a course the teacher teaches and the student takes',
    expect: courseChangers,
    variables: async (f: Fixture) => ({ input: { id: String(await freshCourse(f)), title: 'Renamed' } }),
  },
  {
    graphql: `mutation($input: DeleteCourseInput!) { deleteCourse(input: $input) { ${outcome} } }`,
    name: 'a course the teacher teaches and the student takes',
    expect: courseChangers,
    variables: async (f: Fixture) => ({ input: { id: String(await freshCourse(f)) } }),
  },
  {
    route: 'PUT /sections/{id}',
    name: 'a section the teacher teaches and the student takes',
    expect: sectionChangers,
    request: async (f: Fixture) => ({ params: { id: (await freshSection(f)).id }, body: { title: 'Renamed' } }),
  },
  {
    route: 'DELETE /sections/{id}',
    name: 'a section the teacher teaches and the student takes',
    expect: sectionChangers,
    request: async (f: Fixture) => ({ params: { id: (await freshSection(f)).id } }),
  },
  {
    graphql: `mutation($input: UpdateSectionInput!) { updateSection(input: $input) { ${outcome} } }`,
    name: 'a section the teacher teaches and the student takes',
    expect: sectionChangers,
    variables: async (f: Fixture) => ({ input: { id: String((await freshSection(f)).id), title: 'Renamed' } }),
  },
  {
    graphql: `mutation($input: DeleteSectionInput!) { deleteSection(input: $input) { ${outcome} } }`,
    name: 'a section the teacher teaches and the student takes',
    expect: sectionChangers,
    variables: async (f: Fixture) => ({ input: { id: String((await freshSection(f)).id) } }),
  },
];

type Listed = { id: string }[];
const listsId = (items: Listed, object: { id: number }) => items.some((item) => item.id === id(object));

/** /v1 courses and sections, and their GraphQL lists: administrators read their schools', members their own. */
const courseCases: PermissionCase<{ section: { id: number; courseId: number } }>[] = [
  {
    route: 'GET /courses',
    name: 'the course of a section the teacher teaches and the student takes',
    expect: 'h h o o h o o',
    request: () => ({ query: { limit: '200' } }),
    finds: (answer: { course: Listed }, f: Fixture) => listsId(answer.course, { id: f.section.courseId }),
  },
  {
    route: 'GET /courses/{id}',
    name: 'the course of a section the teacher teaches and the student takes',
    expect: 'h h o o h o o',
    request: (f: Fixture) => ({ params: { id: f.section.courseId } }),
  },
  {
    route: 'GET /courses/{id}/sections',
    name: 'a section the teacher teaches and the student takes',
    expect: 'h h o o h o o',
    request: (f: Fixture) => ({ params: { id: f.section.courseId }, query: { limit: '200' } }),
    finds: (answer: { section: Listed }, f: Fixture) => listsId(answer.section, f.section),
  },
  {
    route: 'GET /sections',
    name: 'a section the teacher teaches and the student takes',
    expect: 'h h o o h o o',
    request: () => ({ query: { limit: '200' } }),
    finds: (answer: { section: Listed }, f: Fixture) => listsId(answer.section, f.section),
  },
  {
    route: 'GET /sections/{id}',
    name: 'enrolled users and administrators',
    expect: 'h h o o h o o',
    request: (f: Fixture) => ({ params: { id: f.section.id } }),
  },
  {
    route: 'GET /sections/ext/{sectionSchoolCode:word}',
    name: 'a section the teacher teaches and the student takes, by its school code',
    expect: 'h h o o h o o',
    request: async (f: Fixture) => {
      const section = await freshSection(f);
      const code = unique('SSC');
      await db().section.update({
        where: { id: section.id },
        data: { sectionSchoolCode: code, codeSchoolId: f.school.id },
      });
      return { params: { sectionSchoolCode: code } };
    },
  },
  {
    graphql: 'query { courseList(limit: 200) { items { id: databaseId } } }',
    name: 'the course of a section the teacher teaches and the student takes',
    expect: 'h h o o h o o',
    finds: (answer: { items: Listed }, f: Fixture) => listsId(answer.items, { id: f.section.courseId }),
  },
  {
    graphql: 'query($id: ID!) { course(id: $id) { id: databaseId } }',
    name: 'the course of a section the teacher teaches and the student takes',
    expect: 'h h o o h o o',
    variables: (f: Fixture) => ({ id: String(f.section.courseId) }),
  },
  {
    graphql: 'query($id: ID!) { courseSections(courseId: $id, limit: 200) { items { id: databaseId } } }',
    name: 'a section the teacher teaches and the student takes',
    expect: 'h h o o h o o',
    variables: (f: Fixture) => ({ id: String(f.section.courseId) }),
    finds: (answer: { items: Listed }, f: Fixture) => listsId(answer.items, f.section),
  },
  {
    graphql: 'query { courseListConnection(first: 200) { nodes { id: databaseId } } }',
    name: 'the course of a section the teacher teaches and the student takes',
    expect: 'h h o o h o o',
    finds: (answer: { nodes: Listed }, f: Fixture) => listsId(answer.nodes, { id: f.section.courseId }),
  },
  {
    graphql: 'query($id: ID!) { courseSectionsConnection(courseId: $id, first: 200) { nodes { id: databaseId } } }',
    name: 'a section the teacher teaches and the student takes',
    expect: 'h h o o h o o',
    variables: (f: Fixture) => ({ id: String(f.section.courseId) }),
    finds: (answer: { nodes: Listed }, f: Fixture) => listsId(answer.nodes, f.section),
  },
  {
    graphql: 'query { sectionListConnection(first: 200) { nodes { id: databaseId } } }',
    name: 'a section the teacher teaches and the student takes',
    expect: 'h h o o h o o',
    finds: (answer: { nodes: Listed }, f: Fixture) => listsId(answer.nodes, f.section),
  },
  {
    graphql: 'query($id: ID!) { sectionEnrollmentsConnection(sectionId: $id) { totalCount } }',
    name: "a section's roster, to its members and administrators",
    expect: readers,
    variables: (f: Fixture) => ({ id: id(f.section) }),
  },
  {
    graphql: 'query { sectionList(limit: 200) { items { id: databaseId } } }',
    name: 'a section the teacher teaches and the student takes',
    expect: 'h h o o h o o',
    finds: (answer: { items: Listed }, f: Fixture) => listsId(answer.items, f.section),
  },
];

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
    ...enrollmentCases,
    ...courseCases,
    ...courseWriteCases,
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

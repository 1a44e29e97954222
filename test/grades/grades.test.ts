import { beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import { issueAccessToken } from '../../src/modules/access/access.service';
import { subscriptionActivity } from '../../src/modules/subscriptions/event.quota';
import { clientsFor } from '../support/client';
import { type World, createSection, createUser, createWorld, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';
import { streamSettled } from '../support/stream';
import { v1 } from '../support/wire';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);
const as = clients.rest;
let w: World;
let section: { id: number };
let secondStudent: { id: number };
let enrollment: { student: number; second: number };
let period: { id: number };
let items: { quiz: number; test: number; essay: number; loose: number };
let categories: { homework: number; exams: number };

const createAssignment = `mutation($input: CreateAssignmentInput!) {
  createAssignment(input: $input) { assignment { id: databaseId maxPoints scaleId } userErrors { field code message } }
}`;

beforeAll(async () => {
  w = await createWorld();
  secondStudent = await createUser(w.school.id, 'STUDENT');
  section = await createSection(w.school.id, [
    { userId: w.teacher.id, admin: true },
    { userId: w.student.id },
    { userId: secondStudent.id },
  ]);
  const rows = await db().enrollment.findMany({ where: { sectionId: section.id }, orderBy: { id: 'asc' } });
  enrollment = {
    student: rows.find((row) => row.userId === w.student.id)!.id,
    second: rows.find((row) => row.userId === secondStudent.id)!.id,
  };
  await db().parentLink.create({ data: { parentId: w.parent.id, childId: w.student.id } });
  period = await db().gradingPeriod.create({
    data: {
      schoolId: w.school.id,
      title: 'Fall',
      startsOn: new Date('2026-09-01'),
      endsOn: new Date('2026-12-20'),
      weight: 1,
    },
  });
  const scale = await db().gradingScale.create({
    data: {
      schoolId: w.school.id,
      title: 'Letters',
      levels: [
        { grade: 'A', minimum: 90 },
        { grade: 'B', minimum: 80 },
        { grade: 'C', minimum: 70 },
        { grade: 'F', minimum: 0 },
      ],
    },
  });
  categories = {
    homework: (
      await db().gradingCategory.create({
        data: { sectionId: section.id, title: 'Homework', weight: 40, dropLowest: 1, defaultMaxPoints: 10 },
      })
    ).id,
    exams: (
      await db().gradingCategory.create({
        data: {
          sectionId: section.id,
          title: 'Exams',
          weight: 60,
          calculation: 'TOTAL_POINTS',
          defaultGradingScaleId: scale.id,
        },
      })
    ).id,
  };
  await clients.restFor(['teacher', 'student', 'parent', 'schoolAdmin', 'otherSchoolStudent', 'outsider'], w);
  const graphql = await clients.graphql(w.teacher);
  const make = async (input: Record<string, unknown>) => {
    const made = await graphql(createAssignment, { input: { sectionId: String(section.id), ...input } });
    expect(made.data.createAssignment.userErrors).toEqual([]);
    return made.data.createAssignment.assignment as { id: string; maxPoints: number; scaleId: string | null };
  };
  const quiz = await make({ title: 'Quiz', categoryId: String(categories.homework), periodId: String(period.id) });
  const essay = await make({ title: 'Essay', categoryId: String(categories.homework), periodId: String(period.id) });
  const test = await make({
    title: 'Test',
    categoryId: String(categories.exams),
    periodId: String(period.id),
    maxPoints: 50,
  });
  const loose = await make({ title: 'Ungraded', type: 'DISCUSSION' });
  // A new item takes its category's default points and scale.
  expect(quiz).toMatchObject({ maxPoints: 10, scaleId: null });
  expect(test).toMatchObject({ maxPoints: 50, scaleId: String(scale.id) });
  items = { quiz: Number(quiz.id), essay: Number(essay.id), test: Number(test.id), loose: Number(loose.id) };
});

const grade = (assignment: number, enrollmentId: number, value: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'assignment',
  assignment_id: assignment,
  enrollment_id: enrollmentId,
  grade: value,
  ...extra,
});

describe('setting and listing grades', () => {
  it('sets grades (a letter read through the scale, an exception clearing the grade), computing period and final grades', async () => {
    const teacher = await as(w.teacher);
    const events = await watchDomainEvents();
    const set = await teacher.put(`/sections/${section.id}/grades`, {
      grades: {
        grade: [
          grade(items.quiz, enrollment.student, 6),
          grade(items.essay, enrollment.student, '9', { comment: 'Well argued' }),
          // B on a 50-point test: 80% of 50 = 40 points.
          grade(items.test, enrollment.student, 'b'),
          grade(items.quiz, enrollment.second, 10, { exception: 1 }),
          grade(items.test, enrollment.second, 45),
        ],
      },
    });
    // 207 with a code per entry, in the order sent, as the platform answers (a client reads it with response.json()).
    expect(set.status).toBe(207);
    expect(set.json).toEqual({
      grade: [
        [items.quiz, enrollment.student],
        [items.essay, enrollment.student],
        [items.test, enrollment.student],
        [items.quiz, enrollment.second],
        [items.test, enrollment.second],
      ].map(([assignment, enrollmentId]) => ({
        enrollment_id: enrollmentId,
        assignment_id: assignment,
        response_code: 204,
      })),
    });
    const stored = await db().grade.findMany({
      where: { sectionId: section.id },
      orderBy: [{ enrollmentId: 'asc' }, { assignmentId: 'asc' }],
    });
    expect(stored.map((row) => [row.assignmentId, row.grade, row.exception])).toEqual([
      [items.quiz, 6, null],
      [items.essay, 9, null],
      [items.test, 40, null],
      [items.quiz, null, 'EXCUSED'],
      [items.test, 45, null],
    ]);
    // One write is one event, with an entry per grade.
    const recorded = await events();
    expect(recorded.map(([type]) => type)).toEqual(['grades.update']);

    const list = await teacher.get(`/sections/${section.id}/grades`);
    expect(list.status).toBe(200);
    expect(list.json.total).toBe(5);
    expect(list.json.links.self).toBe(`${v1}/sections/${section.id}/grades?start=0&limit=20`);
    expect(list.json.period).toEqual([
      { period_id: `p${period.id}`, period_title: 'Fall', weight: '1' },
      { period_id: 'other', period_title: 'Other', weight: '1' },
    ]);
    const testGrade = list.json.grades.grade.find(
      (one: { assignment_id: number; enrollment_id: number }) =>
        one.assignment_id === items.test && one.enrollment_id === enrollment.student,
    );
    expect(testGrade).toMatchObject({
      grade: 40,
      exception: 0,
      max_points: 50,
      calculated_grade: 'B',
      scale_type: 1,
      category_id: categories.exams,
      type: 'assignment',
      location: `${v1}/sections/${section.id}/assignments/${items.test}`,
      comment_status: 0,
      pending: null,
    });
    // Student: homework drops the lowest (6/10) and keeps 9/10 = 90; exams 40/50 = 80; period = 90*.4 + 80*.6 = 84.
    // Second student: the quiz is excused, homework has no score; exams 45/50 = 90; period = 90.
    // Types as the platform's Grade documentation shows them: final grades name their enrollment with a string.
    expect(list.json.final_grade.map((one: { enrollment_id: unknown }) => one.enrollment_id)).toEqual([
      String(enrollment.student),
      String(enrollment.second),
    ]);
    expect(typeof testGrade.enrollment_id).toBe('number');
    const finals = Object.fromEntries(
      list.json.final_grade.map(
        (one: { enrollment_id: number; period: { period_id: string; grade: number | null }[] }) => [
          one.enrollment_id,
          one.period,
        ],
      ),
    );
    expect(
      finals[enrollment.student].map((p: { period_id: string; grade: number | null }) => [p.period_id, p.grade]),
    ).toEqual([
      [`p${period.id}`, 84],
      ['other', null],
      ['final', 84],
    ]);
    expect(
      finals[enrollment.second].map((p: { period_id: string; grade: number | null }) => [p.period_id, p.grade]),
    ).toEqual([
      [`p${period.id}`, 90],
      ['other', null],
      ['final', 90],
    ]);
  });

  it('filters by assignment, enrollment and change time, and pages', async () => {
    const teacher = await as(w.teacher);
    const byItem = await teacher.get(`/sections/${section.id}/grades?assignment_id=${items.test}`);
    expect(byItem.json.grades.grade.map((one: { enrollment_id: number }) => one.enrollment_id)).toEqual([
      enrollment.student,
      enrollment.second,
    ]);
    const byEnrollment = await teacher.get(`/sections/${section.id}/grades?enrollment_id=${enrollment.second}`);
    expect(byEnrollment.json.total).toBe(2);
    expect(byEnrollment.json.final_grade.map((one: { enrollment_id: string }) => one.enrollment_id)).toEqual([
      String(enrollment.second),
    ]);
    const later = Math.floor(Date.now() / 1000) + 60;
    expect((await teacher.get(`/sections/${section.id}/grades?timestamp=${later}`)).json.total).toBe(0);
    const paged = await teacher.get(`/sections/${section.id}/grades?start=1&limit=2`);
    expect(paged.json.grades.grade).toHaveLength(2);
    expect(paged.json.links.next).toBe(`${v1}/sections/${section.id}/grades?start=3&limit=2`);
    expect((await teacher.get(`/sections/${section.id}/grades?timestamp=soon`)).status).toBe(400);
  });

  it('renders in XML with repeated elements', async () => {
    const teacher = await as(w.teacher);
    const xml = await teacher.get(`/sections/${section.id}/grades?enrollment_id=${enrollment.student}`, {
      accept: 'xml',
    });
    expect(xml.status).toBe(200);
    expect(xml.text).toMatch(/<grades><grade><enrollment_id>\d+<\/enrollment_id>/);
    expect(xml.text.match(/<grade><enrollment_id>/g)).toHaveLength(3);
    expect(xml.text).toContain(`<final_grade><enrollment_id>${enrollment.student}</enrollment_id><period>`);
    expect(xml.text).toContain(
      `<period><period_id>p${period.id}</period_id><period_title>Fall</period_title><weight>1</weight></period>`,
    );
  });

  it('sets final comments, hidden from the student until released', async () => {
    const teacher = await as(w.teacher);
    const set = await teacher.put(
      `/sections/${section.id}/grades`,
      `<body><final_comments><final_comment><enrollment_id>${enrollment.student}</enrollment_id><period_id>${period.id}</period_id><comment>Keep it up</comment></final_comment></final_comments></body>`,
      { accept: 'xml' },
    );
    expect(set.status).toBe(207);
    expect(set.text).toContain(
      `<result><final_comment><enrollment_id>${enrollment.student}</enrollment_id><period_id>${period.id}</period_id><response_code>204</response_code></final_comment></result>`,
    );
    const json = await teacher.put(`/sections/${section.id}/grades`, {
      final_comments: {
        final_comment: [
          { enrollment_id: enrollment.student, period_id: 'final', comment: 'A good year', comment_status: 1 },
        ],
      },
    });
    expect([json.status, json.json]).toEqual([
      207,
      { final_comment: [{ enrollment_id: enrollment.student, period_id: 'final', response_code: 204 }] },
    ]);
    // An empty list of grades counts as left out: the comments are written, and answered.
    const beside = await teacher.put(`/sections/${section.id}/grades`, {
      grades: { grade: [] },
      final_comments: {
        final_comment: [
          { enrollment_id: enrollment.student, period_id: 'final', comment: 'A good year', comment_status: 1 },
        ],
      },
    });
    expect([beside.status, beside.json]).toEqual([
      207,
      { final_comment: [{ enrollment_id: enrollment.student, period_id: 'final', response_code: 204 }] },
    ]);
    const commentsOf = async (user: { id: number }) => {
      const answer = await (await as(user)).get(`/users/${w.student.id}/grades?section_id=${section.id}`);
      return answer.json.section[0].final_grade.map((p: { period_id: string; comment: string }) => [
        p.period_id,
        p.comment,
      ]);
    };
    expect(await commentsOf(w.teacher)).toEqual([
      [`p${period.id}`, 'Keep it up'],
      ['other', ''],
      ['final', 'A good year'],
    ]);
    expect(await commentsOf(w.student)).toEqual([
      [`p${period.id}`, ''],
      ['other', ''],
      ['final', 'A good year'],
    ]);
  });

  it("refuses a request with both roots or neither, a letter off the scale, and a stranger's enrollment, writing nothing", async () => {
    const teacher = await as(w.teacher);
    const other = await createSection(w.school.id, [{ userId: secondStudent.id }]);
    const [foreign] = await db().enrollment.findMany({ where: { sectionId: other.id } });
    const cases = [
      {
        grades: { grade: [grade(items.quiz, enrollment.student, 5)] },
        final_comments: { final_comment: [{ enrollment_id: enrollment.student, period_id: 'final', comment: 'x' }] },
      },
      { comment: 'neither' },
      { grades: { grade: [grade(items.test, enrollment.student, 'E')] } },
      { grades: { grade: [grade(items.quiz, enrollment.student, 7), grade(items.quiz, foreign!.id, 7)] } },
      {
        final_comments: { final_comment: [{ enrollment_id: enrollment.student, period_id: 'p999999', comment: 'x' }] },
      },
    ];
    for (const body of cases) {
      const refused = await expectNothingWritten(() => teacher.put(`/sections/${section.id}/grades`, body));
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('who reads and writes grades', () => {
  it("keeps a section's grades for its teachers and administrators: a student or parent is refused (403), as the platform refuses them", async () => {
    for (const reader of [w.student, w.parent]) {
      const client = await as(reader);
      expect((await client.get(`/sections/${section.id}/grades`)).status).toBe(403);
      expect(
        (await client.get(`/sections/${section.id}/grades?enrollment_id=${enrollment.student}`, { accept: 'xml' }))
          .status,
      ).toBe(403);
      const graphql = await clients.graphql(reader);
      const refused = await graphql('query($id: ID!) { sectionGrades(sectionId: $id) { total } }', {
        id: String(section.id),
      });
      expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    expect((await (await as(w.schoolAdmin)).get(`/sections/${section.id}/grades`)).status).toBe(200);
  });

  it("lets a student read only their own grades, and a linked parent their child's, at /users/{id}/grades", async () => {
    for (const reader of [w.student, w.parent]) {
      const answer = await (await as(reader)).get(`/users/${w.student.id}/grades?section_id=${section.id}`);
      expect(answer.status).toBe(200);
      const graded = answer.json.section[0].period.flatMap(
        (period: { assignment: { enrollment_id: number }[] }) => period.assignment,
      );
      expect(new Set(graded.map((one: { enrollment_id: number }) => one.enrollment_id))).toEqual(
        new Set([enrollment.student]),
      );
    }
  });

  it('refuses writes to students and parents (403) and hides the section from strangers (404)', async () => {
    const body = { grades: { grade: [grade(items.quiz, enrollment.student, 10)] } };
    expect((await (await as(w.student)).put(`/sections/${section.id}/grades`, body)).status).toBe(403);
    expect((await (await as(w.parent)).put(`/sections/${section.id}/grades`, body)).status).toBe(403);
    expect((await (await as(w.outsider)).get(`/sections/${section.id}/grades`)).status).toBe(404);
    expect((await (await as(w.schoolAdmin)).put(`/sections/${section.id}/grades`, body)).status).toBe(207);
  });

  it('refuses a schoolmate who is not enrolled (403)', async () => {
    const schoolmate = await createUser(w.school.id, 'STUDENT');
    expect((await (await as(schoolmate)).get(`/sections/${section.id}/grades`)).status).toBe(403);
  });
});

describe("a user's grades", () => {
  it('are 403 without section_id, as the platform answers', async () => {
    expect((await (await as(w.student)).get(`/users/${w.student.id}/grades`)).status).toBe(403);
  });

  it('list one section by period, with final grades per category', async () => {
    const answer = await (await as(w.parent)).get(`/users/${w.student.id}/grades?section_id=${section.id}`);
    expect(answer.status).toBe(200);
    const [one] = answer.json.section;
    // Types as the platform's User Grades documentation shows them: a string section id, integer weights.
    expect(one.section_id).toBe(String(section.id));
    expect(one.period[0]).toMatchObject({ period_id: `p${period.id}`, period_title: 'Fall' });
    expect(one.period[0].assignment.map((item: { assignment_id: number }) => item.assignment_id).sort()).toEqual(
      [items.quiz, items.essay, items.test].sort(),
    );
    expect(one.final_grade[0]).toMatchObject({ period_id: `p${period.id}`, weight: 1 });
    // The course final has no weight of its own.
    expect(one.final_grade.at(-1).period_id).toBe('final');
    expect(one.final_grade.at(-1)).not.toHaveProperty('weight');
    expect(one.final_grade[0].grading_category).toEqual(
      expect.arrayContaining([{ category_id: categories.exams, grade: 80 }]),
    );
    expect(one.grading_category).toEqual([
      { id: categories.homework, title: 'Homework' },
      { id: categories.exams, title: 'Exams' },
    ]);
    expect(answer.json.links.self).toBe(`${v1}/users/${w.student.id}/grades?section_id=${section.id}&start=0&limit=20`);
    const xml = await (await as(w.parent)).get(`/users/${w.student.id}/grades?section_id=${section.id}`, {
      accept: 'xml',
    });
    expect(xml.status).toBe(200);
    expect(xml.text).toMatch(/<result><section><section_id>\d+<\/section_id><period><period_id>p\d+<\/period_id>/);
    expect(xml.text).toMatch(
      new RegExp(`<final_grade><period_id>p${period.id}</period_id>.*?<weight>1</weight></final_grade>`),
    );
    expect(xml.text).toMatch(/<final_grade><period_id>final<\/period_id>(?:(?!<weight>).)*?<\/final_grade>/);
  });

  it('are refused to another student (403) and unknown for a user not enrolled (404)', async () => {
    expect((await (await as(w.student)).get(`/users/${secondStudent.id}/grades?section_id=${section.id}`)).status).toBe(
      403,
    );
    expect((await (await as(w.teacher)).get(`/users/${w.parent.id}/grades?section_id=${section.id}`)).status).toBe(404);
  });
});

describe('grade comments', () => {
  // Spec 2.11: comment_status is "visible to student; default 0". An entry replaces the whole grade record, so one
  // without comment_status hides its comment from the student and their parents.
  const commentsSeenBy = async (reader: { id: number }, userId: number) => {
    const answer = await (await as(reader)).get(`/users/${userId}/grades?section_id=${section.id}`);
    expect(answer.status).toBe(200);
    const graded = answer.json.section[0].period.flatMap((period: { assignment: object[] }) => period.assignment);
    return Object.fromEntries(
      graded.map((one: { assignment_id: number; comment: string }) => [one.assignment_id, one.comment]),
    );
  };
  const stored = async (enrollmentId: number, assignmentId: number) =>
    (await db().grade.findUniqueOrThrow({ where: { enrollmentId_assignmentId: { enrollmentId, assignmentId } } }))
      .commentVisible;

  it('are hidden from the student and their parents unless the entry says comment_status 1 (JSON)', async () => {
    const teacher = await as(w.teacher);
    const set = await teacher.put(`/sections/${section.id}/grades`, {
      grades: {
        grade: [
          grade(items.quiz, enrollment.student, 8, { comment: 'Ask me about this' }),
          grade(items.essay, enrollment.student, 9, { comment: 'Lovely work', comment_status: 1 }),
          grade(items.test, enrollment.student, 41, { comment: 'Not yet', comment_status: '0' }),
        ],
      },
    });
    expect(set.status).toBe(207);
    expect([
      await stored(enrollment.student, items.quiz),
      await stored(enrollment.student, items.essay),
      await stored(enrollment.student, items.test),
    ]).toEqual([false, true, false]);
    for (const reader of [w.student, w.parent]) {
      expect(await commentsSeenBy(reader, w.student.id)).toEqual({
        [items.quiz]: '',
        [items.essay]: 'Lovely work',
        [items.test]: '',
      });
    }
    expect(await commentsSeenBy(w.teacher, w.student.id)).toEqual({
      [items.quiz]: 'Ask me about this',
      [items.essay]: 'Lovely work',
      [items.test]: 'Not yet',
    });
    const statuses = (await teacher.get(`/sections/${section.id}/grades?enrollment_id=${enrollment.student}`)).json
      .grades.grade;
    expect(
      Object.fromEntries(
        statuses.map((one: { assignment_id: number; comment_status: number }) => [
          one.assignment_id,
          one.comment_status,
        ]),
      ),
    ).toMatchObject({ [items.quiz]: 0, [items.essay]: 1, [items.test]: 0 });
  });

  it('are hidden unless an XML entry says comment_status 1, and a later entry without it hides a shown comment again', async () => {
    const teacher = await as(w.teacher);
    const entry = (assignment: number, comment: string, status: string) =>
      `<grade><type>assignment</type><assignment_id>${assignment}</assignment_id><enrollment_id>${enrollment.second}</enrollment_id>` +
      `<grade>7</grade><comment>${comment}</comment>${status}</grade>`;
    const set = await teacher.put(
      `/sections/${section.id}/grades`,
      `<body><grades>${entry(items.quiz, 'Seen', '<comment_status>1</comment_status>')}${entry(items.essay, 'Unseen', '<comment_status />')}</grades></body>`,
      { accept: 'xml' },
    );
    expect(set.status).toBe(207);
    const result = (assignment: number) =>
      `<grade><enrollment_id>${enrollment.second}</enrollment_id><assignment_id>${assignment}</assignment_id><response_code>204</response_code></grade>`;
    expect(set.text).toContain(`<result>${result(items.quiz)}${result(items.essay)}</result>`);
    expect(await commentsSeenBy(secondStudent, secondStudent.id)).toMatchObject({
      [items.quiz]: 'Seen',
      [items.essay]: '',
    });
    await teacher.put(
      `/sections/${section.id}/grades`,
      `<body><grades>${entry(items.quiz, 'Seen', '')}</grades></body>`,
    );
    expect(await commentsSeenBy(secondStudent, secondStudent.id)).toMatchObject({ [items.quiz]: '' });
  });

  it('store the same through GraphQL: a grade without commentVisible hides its comment, as a /v1 entry without comment_status does', async () => {
    const teacher = await clients.graphql(w.teacher);
    const set = await teacher(
      `mutation($input: SetSectionGradesInput!) { setSectionGrades(input: $input) {
        gradesWritten { count } section { id databaseId } userErrors { field code message } } }`,
      {
        input: {
          sectionId: String(section.id),
          grades: [
            {
              assignmentId: String(items.quiz),
              enrollmentId: String(enrollment.second),
              grade: '6',
              comment: 'Private',
            },
            {
              assignmentId: String(items.essay),
              enrollmentId: String(enrollment.second),
              grade: '6',
              comment: 'Public',
              commentVisible: true,
            },
          ],
        },
      },
    );
    // Beside the count, the section whose grades changed, for a client cache to refresh what it holds of it.
    expect(set.data.setSectionGrades).toEqual({
      gradesWritten: { count: 2 },
      section: { id: encodeGlobalId('Section', section.id), databaseId: String(section.id) },
      userErrors: [],
    });
    expect([await stored(enrollment.second, items.quiz), await stored(enrollment.second, items.essay)]).toEqual([
      false,
      true,
    ]);
    expect(await commentsSeenBy(secondStudent, secondStudent.id)).toMatchObject({
      [items.quiz]: '',
      [items.essay]: 'Public',
    });
    const student = await clients.graphql(secondStudent);
    const read = await student(
      `query($userId: ID!, $sectionId: ID!) { userGrades(userId: $userId, sectionId: $sectionId) { grades { assignmentId comment commentVisible } } }`,
      { userId: String(secondStudent.id), sectionId: String(section.id) },
    );
    expect(read.data.userGrades.grades).toEqual(
      expect.arrayContaining([
        { assignmentId: String(items.quiz), comment: null, commentVisible: false },
        { assignmentId: String(items.essay), comment: 'Public', commentVisible: true },
      ]),
    );
  });

  it('answer userErrors naming the input member at fault, writing nothing', async () => {
    const teacher = await clients.graphql(w.teacher);
    const write = (input: object) =>
      teacher(
        `mutation($input: SetSectionGradesInput!) { setSectionGrades(input: $input) {
          gradesWritten { count } section { id } userErrors { field code message } } }`,
        { input: { sectionId: String(section.id), ...input } },
      );
    const stranger = await expectNothingWritten(() =>
      write({ grades: [{ assignmentId: String(items.quiz), enrollmentId: '999999', grade: '5' }] }),
    );
    expect(stranger.data.setSectionGrades).toEqual({
      gradesWritten: null,
      section: null,
      userErrors: [
        {
          field: ['input', 'grades', '0', 'enrollmentId'],
          code: 'INVALID',
          message: 'must be a student enrollment of this section',
        },
      ],
    });
    expect((await write({})).data.setSectionGrades.userErrors).toEqual([
      { field: ['input', 'grades'], code: 'INVALID', message: 'give either grades or finalComments, one of them' },
    ]);
  });
});

describe('grade writes heard live', () => {
  /** Resolves once a subscription of the token listens; call it before subscribing. */
  const listening = (tokenId: number) =>
    new Promise<void>((resolve) => {
      const onListening = (key: string) => {
        if (key !== `bearer:${tokenId}`) return;
        subscriptionActivity.off('listening', onListening);
        resolve();
      };
      subscriptionActivity.on('listening', onListening);
    });

  /** The section's events over server-sent events, as the user hears them, until `count` arrived. */
  async function hear(user: { id: number }, count: number): Promise<{ received: Promise<Record<string, unknown>[]> }> {
    const { token, id } = await issueAccessToken({ userId: user.id });
    const listens = listening(id);
    const response = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        query:
          'subscription($id: ID!) { realmEvents(realm: { type: SECTION, id: $id }) { type objectId object { __typename } } }',
        variables: { id: String(section.id) },
      }),
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const received = (async () => {
      const events: Record<string, unknown>[] = [];
      let buffer = '';
      while (events.length < count) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((line) => line.startsWith('data:'));
          if (data && block.startsWith('event: next')) events.push(JSON.parse(data.slice(5)).data.realmEvents);
        }
      }
      await reader.cancel();
      return events;
    })();
    await listens;
    return { received };
  }

  it("reach the section's teachers only, and carry no grade or comment: a student hears the next post, not the grades", async () => {
    // Earlier writes of this file are readable before anyone subscribes, so only this test's events are heard.
    await streamSettled();
    const teacherHears = await hear(w.teacher, 2);
    const studentHears = await hear(w.student, 1);
    const set = await (await as(w.teacher)).put(`/sections/${section.id}/grades`, {
      grades: { grade: [grade(items.quiz, enrollment.student, 5, { comment: 'Live secret' })] },
    });
    expect(set.status).toBe(207);
    expect(
      (await (await as(w.teacher)).post(`/sections/${section.id}/posts`, { title: 'Homework is up' })).status,
    ).toBe(201);
    const teacherEvents = await teacherHears.received;
    expect(teacherEvents.map((event) => event.type)).toEqual(['GRADES_UPDATE', 'BLOG_POST_CREATE']);
    // The event names the section; its object is the section, never a grade or its comment.
    expect(teacherEvents[0]).toEqual({
      type: 'GRADES_UPDATE',
      objectId: String(section.id),
      object: { __typename: 'Section' },
    });
    expect(JSON.stringify(teacherEvents)).not.toContain('Live secret');
    expect((await studentHears.received).map((event) => event.type)).toEqual(['BLOG_POST_CREATE']);
  });
});

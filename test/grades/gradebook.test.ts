import { beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import { seedDemo } from '../../src/ops/demo';
import { clientsFor } from '../support/client';
import { type World, createSection, createUser, createWorld, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';
import { v1 } from '../support/wire';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);
let w: World;
let section: { id: number };

beforeAll(async () => {
  w = await createWorld();
  section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
  await clients.graphqlFor(['schoolAdmin', 'teacher', 'student', 'districtAdmin'], w);
  await clients.restFor(['teacher', 'student'], w);
});

const userErrors = 'userErrors { field code message }';

describe('grading periods and scales', () => {
  it("are kept by the school's administrators, each change with its event", async () => {
    const admin = await clients.graphql(w.schoolAdmin);
    const events = await watchDomainEvents();
    const made = await admin(
      `mutation($schoolId: ID!) { createGradingPeriod(input: { schoolId: $schoolId, title: "Fall", startsOn: "2026-09-01", endsOn: "2026-12-20", weight: 2 }) {
        ${userErrors} gradingPeriod { id: databaseId title startsOn endsOn weight } } }`,
      { schoolId: String(w.school.id) },
    );
    expect(made.data.createGradingPeriod).toMatchObject({
      userErrors: [],
      gradingPeriod: { title: 'Fall', startsOn: '2026-09-01', endsOn: '2026-12-20', weight: 2 },
    });
    const periodId = made.data.createGradingPeriod.gradingPeriod.id;
    const backwards = await expectNothingWritten(() =>
      admin(
        `mutation($id: ID!) { updateGradingPeriod(input: { id: $id, endsOn: "2026-08-01" }) { ${userErrors} gradingPeriod { id } } }`,
        { id: encodeGlobalId('GradingPeriod', Number(periodId)) },
      ),
    );
    expect(backwards.data.updateGradingPeriod).toEqual({
      gradingPeriod: null,
      userErrors: [{ field: ['input', 'endsOn'], code: 'INVALID', message: 'must not be before startsOn' }],
    });

    const scale = await admin(
      `mutation($schoolId: ID!) { createGradingScale(input: { schoolId: $schoolId, title: "Letters", levels: [{ grade: "A", minimum: 90 }, { grade: "F", minimum: 0 }] }) {
        ${userErrors} gradingScale { id: databaseId levels { grade minimum } } } }`,
      { schoolId: String(w.school.id) },
    );
    const scaleId = scale.data.createGradingScale.gradingScale.id;
    expect(scale.data.createGradingScale.gradingScale.levels).toEqual([
      { grade: 'A', minimum: 90 },
      { grade: 'F', minimum: 0 },
    ]);
    const unordered = await admin(
      `mutation($id: ID!) { updateGradingScale(input: { id: $id, levels: [{ grade: "F", minimum: 0 }, { grade: "A", minimum: 90 }] }) { ${userErrors} } }`,
      { id: scaleId },
    );
    expect(unordered.data.updateGradingScale.userErrors).toEqual([
      {
        field: ['input', 'levels'],
        code: 'INVALID',
        message: 'must list levels highest first, each minimum below the one before',
      },
    ]);

    const listed = await (await clients.graphql(w.student))(
      `query($schoolId: ID!) { gradingPeriods(schoolId: $schoolId) { id: databaseId } gradingScales(schoolId: $schoolId) { id: databaseId } }`,
      {
        schoolId: String(w.school.id),
      },
    );
    expect(listed.data.gradingPeriods.map((one: { id: string }) => one.id)).toContain(periodId);
    // A delete answers the global id of what it removed, whichever form of id the client sent.
    expect(
      (
        await admin(`mutation($id: ID!) { deleteGradingScale(input: { id: $id }) { deletedGradingScaleId } }`, {
          id: scaleId,
        })
      ).data.deleteGradingScale,
    ).toEqual({ deletedGradingScaleId: encodeGlobalId('GradingScale', Number(scaleId)) });
    expect((await events()).map(([type]) => type)).toEqual([
      'grading_period.create',
      'grading_scale.create',
      'grading_scale.delete',
    ]);
  });
});

describe('assignments', () => {
  it("are made by the section's teachers with references of their own section and school only, and viewed on /v1", async () => {
    const teacher = await clients.graphql(w.teacher);
    const foreignCategory = await db().gradingCategory.create({
      data: { sectionId: (await createSection(w.school.id)).id, title: 'Elsewhere' },
    });
    const farPeriod = await db().gradingPeriod.create({
      data: {
        schoolId: w.otherSchool.id,
        title: 'Far',
        startsOn: new Date('2026-01-01'),
        endsOn: new Date('2026-06-01'),
      },
    });
    const refused = await expectNothingWritten(() =>
      teacher(`mutation($input: CreateAssignmentInput!) { createAssignment(input: $input) { ${userErrors} } }`, {
        input: {
          sectionId: String(section.id),
          title: 'Lab',
          categoryId: String(foreignCategory.id),
          periodId: String(farPeriod.id),
        },
      }),
    );
    expect(refused.data.createAssignment.userErrors.map((error: { field: string[] }) => error.field)).toEqual([
      ['input', 'categoryId'],
      ['input', 'periodId'],
    ]);

    const events = await watchDomainEvents();
    const made = await teacher(
      `mutation($sectionId: ID!) { createAssignment(input: { sectionId: $sectionId, title: "Lab", type: DISCUSSION, maxPoints: 25, isFinal: true }) { assignment { id: databaseId } } }`,
      { sectionId: String(section.id) },
    );
    const id = Number(made.data.createAssignment.assignment.id);
    const viewed = await (await clients.rest(w.student)).get(`/sections/${section.id}/assignments/${id}`);
    expect(viewed.json).toEqual({
      id,
      title: 'Lab',
      type: 'discussion',
      max_points: 25,
      grading_category: 0,
      grading_scale: 0,
      grading_period: 'other',
      is_final: 1,
      links: { self: `${v1}/sections/${section.id}/assignments/${id}` },
    });
    const xml = await (await clients.rest(w.student)).get(`/sections/${section.id}/assignments/${id}`, {
      accept: 'xml',
    });
    expect(xml.text).toContain(
      `<result><id>${id}</id><title>Lab</title><type>discussion</type><max_points>25</max_points>`,
    );
    const listed = await (await clients.rest(w.teacher)).get(`/sections/${section.id}/assignments`);
    expect(listed.json.assignment.map((one: { id: number }) => one.id)).toContain(id);
    const listedXml = await (await clients.rest(w.teacher)).get(`/sections/${section.id}/assignments`, {
      accept: 'xml',
    });
    expect(listedXml.text).toContain(`<assignment><id>${id}</id>`);
    expect((await (await clients.rest(w.teacher)).get(`/sections/${section.id}/assignments/999999`)).status).toBe(404);
    const deleted = await teacher(
      `mutation($id: ID!) { deleteAssignment(input: { id: $id }) { deletedAssignmentId } }`,
      {
        id: String(id),
      },
    );
    expect(deleted.data.deleteAssignment.deletedAssignmentId).toBe(encodeGlobalId('Assignment', id));
    expect((await events()).map(([type]) => type)).toEqual(['grade_item.update', 'grade_item.delete']);
  });
});

describe('district settings and parent links', () => {
  it('count an incomplete as zero unless the district says otherwise', async () => {
    const [enrollment] = await db().enrollment.findMany({ where: { sectionId: section.id, admin: false } });
    const category = await db().gradingCategory.create({ data: { sectionId: section.id, title: 'All', weight: 100 } });
    const done = await db().assignment.create({
      data: { sectionId: section.id, title: 'Done', categoryId: category.id, maxPoints: 10 },
    });
    const missing = await db().assignment.create({
      data: { sectionId: section.id, title: 'Missing', categoryId: category.id, maxPoints: 10 },
    });
    const teacher = await clients.rest(w.teacher);
    await teacher.put(`/sections/${section.id}/grades`, {
      grades: {
        grade: [
          { assignment_id: done.id, enrollment_id: enrollment!.id, grade: 8 },
          { assignment_id: missing.id, enrollment_id: enrollment!.id, grade: '', exception: 2 },
        ],
      },
    });
    const otherGrade = async () =>
      (await teacher.get(`/sections/${section.id}/grades`)).json.final_grade[0].period.find(
        (p: { period_id: string }) => p.period_id === 'other',
      ).grade;
    // 8/10 = 80% and an incomplete as 0%: mean 40.
    expect(await otherGrade()).toBe(40);
    const districtAdmin = await clients.graphql(w.districtAdmin);
    await districtAdmin(
      `mutation($id: ID!) { updateDistrict(input: { id: $id, incompleteCountsAsZero: false }) { userErrors { code } } }`,
      { id: String(w.district.id) },
    );
    expect(await otherGrade()).toBe(80);
  });

  it("link a parent to a child by the school's administrators only, and only a user whose role is parent", async () => {
    const admin = await clients.graphql(w.schoolAdmin);
    const child = await createUser(w.school.id, 'STUDENT');
    const link = `mutation($input: LinkParentInput!) { linkParent(input: $input) {
      parentLink { parentId childId linked } parent { id: databaseId } child { id: databaseId }
      userErrors { field code message } } }`;
    // The link answers both users, whose lists of children and parents changed, with their global ids.
    expect(
      (await admin(link, { input: { parentId: String(w.parent.id), childId: String(child.id) } })).data.linkParent,
    ).toEqual({
      parentLink: {
        parentId: encodeGlobalId('User', w.parent.id),
        childId: encodeGlobalId('User', child.id),
        linked: true,
      },
      parent: { id: String(w.parent.id) },
      child: { id: String(child.id) },
      userErrors: [],
    });
    expect(await db().parentLink.count({ where: { parentId: w.parent.id, childId: child.id } })).toBe(1);
    const notParent = await admin(link, { input: { parentId: String(w.teacher.id), childId: String(child.id) } });
    expect(notParent.data.linkParent).toEqual({
      parentLink: null,
      parent: null,
      child: null,
      userErrors: [{ field: ['input', 'parentId'], code: 'INVALID', message: 'must be a user whose role is PARENT' }],
    });
    const byTeacher = await (await clients.graphql(w.teacher))(link, {
      input: { parentId: String(w.parent.id), childId: String(child.id) },
    });
    expect(byTeacher.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const unlinked = await admin(
      `mutation($input: UnlinkParentInput!) { unlinkParent(input: $input) { parentLink { linked } } }`,
      { input: { parentId: String(w.parent.id), childId: String(child.id) } },
    );
    expect(unlinked.data.unlinkParent).toEqual({ parentLink: { linked: false } });
    expect(await db().parentLink.count({ where: { parentId: w.parent.id, childId: child.id } })).toBe(0);
  });
});

describe('the demo district', () => {
  it('has a Biology section with a gradebook its parent reads for their child', async () => {
    const demo = await seedDemo(server.serverKey);
    const section = await db().section.findFirstOrThrow({
      where: { title: 'Biology: Period 1', course: { school: { districtId: demo.districtId } } },
    });
    const link = await db().parentLink.findFirstOrThrow({
      where: { parent: { school: { districtId: demo.districtId } } },
    });
    const parent = await clients.rest({ id: link.parentId });
    const answer = await parent.get(`/users/${link.childId}/grades?section_id=${section.id}`);
    expect(answer.status).toBe(200);
    const [book] = answer.json.section;
    expect(book.period[0].assignment).toHaveLength(5);
    expect(book.final_grade.find((grade: { period_id: string }) => grade.period_id === 'final').grade).toEqual(
      expect.any(Number),
    );
    expect(book.grading_category.map((category: { title: string }) => category.title)).toEqual(['Homework', 'Tests']);
    expect(await db().attendanceRecord.count({ where: { sectionId: section.id } })).toBe(15);
  });
});

describe('the cost of a gradebook', () => {
  /** Statements one GET of a section's grades sends, for a section of `students` students and `items` graded items. */
  async function statementsFor(students: number, items: number) {
    const users = await Promise.all(Array.from({ length: students }, () => createUser(w.school.id, 'STUDENT')));
    const book = await createSection(w.school.id, [
      { userId: w.teacher.id, admin: true },
      ...users.map((user) => ({ userId: user.id })),
    ]);
    const category = await db().gradingCategory.create({ data: { sectionId: book.id, title: 'All', weight: 1 } });
    await db().assignment.createMany({
      data: Array.from({ length: items }, (_, at) => ({
        sectionId: book.id,
        title: `Item ${at}`,
        categoryId: category.id,
      })),
    });
    const assignments = await db().assignment.findMany({ where: { sectionId: book.id } });
    const enrollments = await db().enrollment.findMany({ where: { sectionId: book.id, admin: false } });
    await db().grade.createMany({
      data: enrollments.flatMap((enrollment) =>
        assignments.map((assignment, at) => ({
          enrollmentId: enrollment.id,
          assignmentId: assignment.id,
          sectionId: book.id,
          grade: at % 100,
        })),
      ),
    });
    const teacher = await clients.rest(w.teacher);
    await teacher.get(`/sections/${book.id}/grades`);
    const before = server.database.statementCount;
    const answer = await teacher.get(`/sections/${book.id}/grades`);
    expect(answer.json.total).toBe(students * items);
    expect(answer.json.final_grade).toHaveLength(students);
    return server.database.statementCount - before;
  }

  it('sends as many statements for 30 students and 60 items as for 2 and 3', async () => {
    expect(await statementsFor(30, 60)).toBe(await statementsFor(2, 3));
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { clientsFor } from '../support/client';
import { db } from '../../src/db/database';
import {
  type World,
  createBlogPosts,
  createSection,
  createWorld,
  unique,
  watchDomainEvents,
} from '../support/factories';
import { useTestServer } from '../support/harness';
import { v1, xmlHead } from '../support/wire';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);
let w: World;
let section: { id: number; courseId: number };
let other: { id: number; courseId: number };

beforeAll(async () => {
  w = await createWorld();
  section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
  // A section of the school the student does not take: its school's administrators see it, the student does not.
  other = await createSection(w.school.id);
  await clients.restFor(['student', 'teacher', 'schoolAdmin', 'districtAdmin', 'outsider'], w);
});

const ids = (items: { id: string }[]) => items.map((item) => Number(item.id));

describe('courses and sections (GET /courses, /courses/{id}/sections, /sections)', () => {
  it('shows a course with its school and code, and its sections with their course', async () => {
    const admin = await clients.rest(w.schoolAdmin);
    const course = await admin.get(`/courses/${section.courseId}`);
    expect(course.status).toBe(200);
    expect(course.json).toEqual({
      id: String(section.courseId),
      building_id: String(w.school.id),
      title: expect.stringMatching(/^Course-/),
      course_code: expect.stringMatching(/^C-/),
      department: '',
      description: '',
      credits: null,
      subject_area: null,
      grade_level_range_start: 0,
      grade_level_range_end: 0,
      links: { self: `${v1}/courses/${section.courseId}` },
    });
    const sections = await admin.get(`/courses/${section.courseId}/sections`);
    expect(sections.json).toEqual({
      section: [
        {
          id: String(section.id),
          course_title: course.json.title,
          course_code: course.json.course_code,
          course_id: String(section.courseId),
          school_id: String(w.school.id),
          section_title: expect.stringMatching(/^Section-/),
          section_code: '',
          access_code: expect.stringMatching(/^[A-Z0-9]{5}-[A-Z0-9]{5}$/),
          section_school_code: '',
          description: '',
          location: '',
          meeting_days: [],
          active: 1,
          grading_periods: [],
          links: { self: `${v1}/sections/${section.id}` },
        },
      ],
      total: 1,
      links: { self: `${v1}/courses/${section.courseId}/sections?start=0&limit=20` },
    });
    const xml = await admin.get(`/sections/${section.id}`, { accept: 'xml' });
    expect(xml.text.startsWith(`${xmlHead}<result><id>${section.id}</id><course_title>`)).toBe(true);
    expect(xml.text).toContain('<section_code />');
  });

  it("lists an administrator's school's courses and sections, and a student's own", async () => {
    const admin = await clients.rest(w.schoolAdmin);
    expect(ids((await admin.get(`/courses?building_id=${w.school.id}`)).json.course)).toEqual(
      expect.arrayContaining([section.courseId, other.courseId]),
    );
    expect(ids((await admin.get('/sections?limit=200')).json.section)).toEqual(
      expect.arrayContaining([section.id, other.id]),
    );
    const student = await clients.rest(w.student);
    expect(ids((await student.get('/sections')).json.section)).toEqual([section.id]);
    expect(ids((await student.get('/courses')).json.course)).toEqual([section.courseId]);
    expect((await student.get(`/courses/${other.courseId}`)).status).toBe(404);
    expect((await student.get(`/courses/${other.courseId}/sections`)).json.section).toEqual([]);
    expect((await student.get(`/sections/${other.id}`)).status).toBe(404);
    const outsider = await clients.rest(w.outsider);
    expect((await outsider.get(`/courses/${section.courseId}`)).status).toBe(404);
    expect((await outsider.get(`/courses?building_id=${w.school.id}`)).json.total).toBe(0);
  });
});

const course = (fields: Record<string, unknown> = {}): Record<string, any> => ({
  title: 'English 101',
  course_code: unique('ENG'),
  ...fields,
});
const byCode = (courseCode: string) => db().course.findFirst({ where: { courseCode } });

describe('POST /v1/courses', () => {
  it('creates one course (201) as GET answers it, recording course.create; unknown platform members are ignored', async () => {
    const admin = await clients.rest(w.schoolAdmin);
    const events = await watchDomainEvents();
    const sent = course({
      department: 'English',
      description: 'Reading & writing',
      credits: '1.5',
      subject_area: 2,
      grade_level_range_start: '10',
      grade_level_range_end: 13,
      synced: 0,
      district_course_name: 'ENGLISH-1',
    });
    const response = await admin.post('/courses', sent);
    expect(response.status).toBe(201);
    const created = (await byCode(sent.course_code))!;
    expect(response.json).toEqual({
      id: String(created.id),
      building_id: String(w.school.id),
      title: 'English 101',
      course_code: sent.course_code,
      department: 'English',
      description: 'Reading & writing',
      credits: 1.5,
      subject_area: 2,
      grade_level_range_start: 10,
      grade_level_range_end: 13,
      links: { self: `${v1}/courses/${created.id}` },
    });
    expect([created.subjectArea, created.gradeLevelRangeStart, created.gradeLevelRangeEnd]).toEqual([
      'LANGUAGE_ARTS',
      'GRADE_8',
      'GRADE_11',
    ]);
    expect((await admin.get(`/courses/${created.id}`)).json).toEqual(response.json);
    expect(await events()).toEqual([
      ['course.create', 'SCHOOL', w.school.id, created.id, w.schoolAdmin.id, w.district.id, w.school.id],
    ]);
  });

  it('reads XML, and names the wire member of an invalid or missing value', async () => {
    const admin = await clients.rest(w.schoolAdmin);
    const code = unique('ENG');
    const xml = await admin.post('/courses', `<body><title>Poetry</title><course_code>${code}</course_code></body>`, {
      accept: 'xml',
    });
    const created = (await byCode(code))!;
    expect(xml.status).toBe(201);
    expect(xml.text).toBe(
      `${xmlHead}<result><id>${created.id}</id><building_id>${w.school.id}</building_id><title>Poetry</title>` +
        `<course_code>${code}</course_code><department /><description /><credits /><subject_area />` +
        '<grade_level_range_start>0</grade_level_range_start><grade_level_range_end>0</grade_level_range_end>' +
        `<links><self>${v1}/courses/${created.id}</self></links></result>`,
    );
    const missing = await expectNothingWritten(() => admin.post('/courses', { title: 'No code' }));
    expect([missing.status, missing.json.error]).toEqual([400, expect.stringContaining('course_code')]);
    const taken = await expectNothingWritten(() => admin.post('/courses', course({ course_code: code })));
    expect([taken.status, taken.json.error]).toEqual([409, 'Course code is already used in this school']);
    const building = await expectNothingWritten(() => admin.post('/courses', course({ building_id: w.building.id })));
    expect([building.status, building.json.error]).toEqual([400, expect.stringContaining('building_id')]);
    const levels = await expectNothingWritten(() =>
      admin.post('/courses', course({ grade_level_range_start: 5, grade_level_range_end: 4 })),
    );
    expect([levels.status, levels.json.error]).toEqual([400, expect.stringContaining('grade_level_range_end')]);
    const area = await expectNothingWritten(() => admin.post('/courses', course({ subject_area: 10 })));
    expect([area.status, area.json.error]).toEqual([400, expect.stringContaining('subject_area')]);
  });

  it("refuses teachers and students (403) and hides other districts' schools (404)", async () => {
    for (const user of [w.teacher, w.student]) {
      const response = await expectNothingWritten(async () => (await clients.rest(user)).post('/courses', course()));
      expect(response.status).toBe(403);
    }
    const outsider = await expectNothingWritten(async () =>
      (await clients.rest(w.outsider)).post('/courses', course({ building_id: w.school.id })),
    );
    expect(outsider.status).toBe(404);
  });

  it('answers each item of a bulk in order, 207 when their codes differ, and commits the good ones alone', async () => {
    const admin = await clients.rest(w.schoolAdmin);
    const taken = course();
    await admin.post('/courses', taken);
    const [good, alsoGood] = [course(), course({ building_id: w.school.id })];
    const events = await watchDomainEvents();
    const response = await admin.post('/courses', {
      courses: { course: [good, course({ title: '' }), { ...taken }, 'not a course', alsoGood] },
    });
    expect(response.status).toBe(207);
    const [first, second] = [(await byCode(good.course_code))!, (await byCode(alsoGood.course_code))!];
    expect(response.json).toEqual({
      course: [
        {
          response_code: 200,
          id: String(first.id),
          course_code: good.course_code,
          location: `${v1}/courses/${first.id}`,
        },
        { response_code: 400, course_code: expect.any(String), message: 'title: is required' },
        { response_code: 409, course_code: taken.course_code, message: 'Course code is already used in this school' },
        { response_code: 400, message: 'course: must be an object' },
        {
          response_code: 200,
          id: String(second.id),
          course_code: alsoGood.course_code,
          location: `${v1}/courses/${second.id}`,
        },
      ],
    });
    expect((await events()).map(([type, , , objectId]) => [type, objectId])).toEqual([
      ['course.create', first.id],
      ['course.create', second.id],
    ]);
  });

  it('with update_existing=1 changes courses by course_code, and a second identical run writes nothing', async () => {
    const admin = await clients.rest(w.districtAdmin);
    const catalogue = [course(), course({ building_id: w.otherSchool.id })];
    const first = await admin.post('/courses?update_existing=1', { courses: { course: catalogue } });
    expect([first.status, first.json.course.map((item: any) => item.response_code)]).toEqual([200, [200, 200]]);
    const again = await expectNothingWritten(() =>
      admin.post('/courses?update_existing=1', { courses: { course: catalogue } }),
    );
    expect(again.json).toEqual(first.json);
    const without = await expectNothingWritten(() => admin.post('/courses', { courses: { course: [catalogue[0]] } }));
    expect(without.json.course[0].response_code).toBe(409);

    const events = await watchDomainEvents();
    const renamed: Record<string, any> = { ...catalogue[1], title: 'Renamed', department: 'Arts', credits: 2 };
    const changed = await admin.post('/courses?update_existing=1', { courses: { course: [renamed] } });
    expect(changed.json.course[0]).toMatchObject({ response_code: 200, course_code: renamed.course_code });
    const row = (await byCode(renamed.course_code))!;
    expect([row.title, row.department, row.credits, row.schoolId]).toEqual(['Renamed', 'Arts', 2, w.otherSchool.id]);
    expect(await events()).toEqual([
      ['course.update', 'SCHOOL', w.otherSchool.id, row.id, w.districtAdmin.id, w.district.id, w.otherSchool.id],
    ]);
  });

  it('reads an XML bulk, one <course> being a list of one, and refuses more than 50 whole', async () => {
    const admin = await clients.rest(w.schoolAdmin);
    const code = unique('ENG');
    const response = await admin.post(
      '/courses',
      `<body><courses><course><title>Art</title><course_code>${code}</course_code></course></courses></body>`,
      { accept: 'xml' },
    );
    const created = (await byCode(code))!;
    expect([response.status, response.text]).toEqual([
      200,
      `${xmlHead}<result><course><response_code>200</response_code><id>${created.id}</id>` +
        `<course_code>${code}</course_code><location>${v1}/courses/${created.id}</location></course></result>`,
    ]);
    const many = Array.from({ length: 51 }, () => course());
    const tooMany = await expectNothingWritten(() => admin.post('/courses', { courses: { course: many } }));
    expect([tooMany.status, tooMany.json.error]).toEqual([400, 'courses/course: must list at most 50 courses']);
    const teacher = await expectNothingWritten(async () =>
      (await clients.rest(w.teacher)).post('/courses', { courses: { course: [course()] } }),
    );
    expect(teacher.status).toBe(403);
  });
});

describe('PUT and DELETE /v1/courses/{id}', () => {
  it('changes a course (204, course.update); an unchanged course writes nothing; a taken code is 409', async () => {
    const admin = await clients.rest(w.schoolAdmin);
    const sent = course();
    const id = (await admin.post('/courses', sent)).json.id;
    const events = await watchDomainEvents();
    const put = await admin.put(`/courses/${id}`, { title: 'Changed' });
    expect(put.status).toBe(204);
    expect((await admin.get(`/courses/${id}`)).json.title).toBe('Changed');
    expect(await events()).toEqual([
      ['course.update', 'SCHOOL', w.school.id, Number(id), w.schoolAdmin.id, w.district.id, w.school.id],
    ]);
    const same = await expectNothingWritten(() => admin.put(`/courses/${id}`, { title: 'Changed' }));
    expect(same.status).toBe(204);
    expect((await admin.put(`/courses/${id}`, { subject_area: 0, grade_level_range_start: 15 })).status).toBe(204);
    const changed = (await admin.get(`/courses/${id}`)).json;
    expect([changed.subject_area, changed.grade_level_range_start]).toEqual([0, 15]);
    expect((await admin.put(`/courses/${id}`, { subject_area: null, grade_level_range_start: 0 })).status).toBe(204);
    const cleared = (await admin.get(`/courses/${id}`)).json;
    expect([cleared.subject_area, cleared.grade_level_range_start]).toEqual([null, 0]);
    const { courseCode } = await db().course.findUniqueOrThrow({ where: { id: section.courseId } });
    const taken = await expectNothingWritten(() => admin.put(`/courses/${id}`, { course_code: courseCode }));
    expect(taken.status).toBe(409);
    const blank = await expectNothingWritten(() => admin.put(`/courses/${id}`, { title: '' }));
    expect([blank.status, blank.json.error]).toEqual([400, expect.stringContaining('title')]);
  });

  it('refuses a teacher of the course (403), hides it from others (404)', async () => {
    const teacher = await expectNothingWritten(async () =>
      (await clients.rest(w.teacher)).put(`/courses/${section.courseId}`, { title: 'Mine' }),
    );
    expect(teacher.status).toBe(403);
    const student = await expectNothingWritten(async () =>
      (await clients.rest(w.student)).delete(`/courses/${other.courseId}`),
    );
    expect(student.status).toBe(404);
    const outsider = await expectNothingWritten(async () =>
      (await clients.rest(w.outsider)).delete(`/courses/${section.courseId}`),
    );
    expect(outsider.status).toBe(404);
  });

  it('deletes a course with its sections, their enrollments and content (204, course.delete)', async () => {
    const doomed = await createSection(w.school.id, [{ userId: w.student.id }]);
    await createBlogPosts({ type: 'SECTION', id: doomed.id }, 1);
    const admin = await clients.rest(w.districtAdmin);
    const events = await watchDomainEvents();
    const response = await admin.delete(`/courses/${doomed.courseId}`);
    expect(response.status).toBe(204);
    expect(await db().section.count({ where: { id: doomed.id } })).toBe(0);
    expect(await db().enrollment.count({ where: { sectionId: doomed.id } })).toBe(0);
    expect(await db().blogPost.count({ where: { realmType: 'SECTION', realmId: doomed.id } })).toBe(0);
    expect(await events()).toEqual([
      ['course.delete', 'SCHOOL', w.school.id, doomed.courseId, w.districtAdmin.id, w.district.id, w.school.id],
    ]);
    expect((await admin.delete(`/courses/${doomed.courseId}`)).status).toBe(404);
  });
});

describe('PUT and DELETE /v1/sections/{id}', () => {
  it('changes a section (204, section.update), refusing its teacher (403) and hiding it from others (404)', async () => {
    const mine = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
    const admin = await clients.rest(w.schoolAdmin);
    const events = await watchDomainEvents();
    const put = await admin.put(`/sections/${mine.id}`, { title: 'Period 2', section_code: '2B' });
    expect(put.status).toBe(204);
    expect((await admin.get(`/sections/${mine.id}`, { accept: 'xml' })).text).toContain(
      '<section_title>Period 2</section_title><section_code>2B</section_code>',
    );
    expect(await events()).toEqual([
      ['section.update', 'SECTION', mine.id, mine.id, w.schoolAdmin.id, w.district.id, w.school.id],
    ]);
    await expectNothingWritten(() => admin.put(`/sections/${mine.id}`, { title: 'Period 2' }));
    const blank = await expectNothingWritten(() => admin.put(`/sections/${mine.id}`, { title: '' }));
    expect([blank.status, blank.json.error]).toEqual([400, expect.stringContaining('title')]);
    const teacher = await expectNothingWritten(async () =>
      (await clients.rest(w.teacher)).put(`/sections/${mine.id}`, { title: 'Mine' }),
    );
    expect(teacher.status).toBe(403);
    const outsider = await expectNothingWritten(async () =>
      (await clients.rest(w.outsider)).delete(`/sections/${mine.id}`),
    );
    expect(outsider.status).toBe(404);
  });

  it('deletes a section with its enrollments and content (204, section.delete in the school)', async () => {
    const doomed = await createSection(w.school.id, [{ userId: w.student.id }]);
    await createBlogPosts({ type: 'SECTION', id: doomed.id }, 1);
    const admin = await clients.rest(w.districtAdmin);
    const events = await watchDomainEvents();
    expect((await admin.delete(`/sections/${doomed.id}`)).status).toBe(204);
    expect(await db().enrollment.count({ where: { sectionId: doomed.id } })).toBe(0);
    expect(await db().blogPost.count({ where: { realmType: 'SECTION', realmId: doomed.id } })).toBe(0);
    expect(await db().course.count({ where: { id: doomed.courseId } })).toBe(1);
    expect(await events()).toEqual([
      ['section.delete', 'SCHOOL', w.school.id, doomed.id, w.districtAdmin.id, w.district.id, w.school.id],
    ]);
    expect((await admin.delete(`/sections/${doomed.id}`)).status).toBe(404);
  });
});

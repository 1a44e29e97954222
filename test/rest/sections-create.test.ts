import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { clientsFor } from '../support/client';
import { type World, createSection, createWorld, unique, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';
import { v1, xmlHead } from '../support/wire';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);
let w: World;
let course: { id: number; title: string; courseCode: string };
let periods: number[];

beforeAll(async () => {
  w = await createWorld();
  const taught = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
  course = await db().course.findUniqueOrThrow({ where: { id: taught.courseId } });
  const period = (title: string, month: number) =>
    db().gradingPeriod.create({
      data: { schoolId: w.school.id, title, startsOn: new Date(2026, month, 1), endsOn: new Date(2026, month + 3, 1) },
    });
  periods = [(await period('Fall', 8)).id, (await period('Spring', 0)).id];
  await clients.restFor(['student', 'teacher', 'schoolAdmin', 'districtAdmin', 'outsider'], w);
});

const section = (fields: Record<string, unknown> = {}): Record<string, any> => ({
  title: 'Period 1',
  section_school_code: unique('SSC'),
  ...fields,
});
const bySchoolCode = (sectionSchoolCode: string) =>
  db().section.findFirstOrThrow({ where: { sectionSchoolCode }, include: { gradingPeriods: true } });

describe('POST /v1/courses/{id}/sections', () => {
  it('creates one section (201) as GET answers it, with its members, recording section.create', async () => {
    const admin = await clients.rest(w.schoolAdmin);
    const events = await watchDomainEvents();
    const sent = section({
      section_code: 'P1',
      description: 'First period',
      location: 'Room 12',
      meeting_days: [1, '3', 5],
      active: 0,
      grading_periods: [periods[0], String(periods[1])],
      synced: 1,
    });
    const response = await admin.post(`/courses/${course.id}/sections`, sent);
    expect(response.status).toBe(201);
    const created = await bySchoolCode(sent.section_school_code);
    expect(response.json).toEqual({
      id: String(created.id),
      course_title: course.title,
      course_code: course.courseCode,
      course_id: String(course.id),
      school_id: String(w.school.id),
      section_title: 'Period 1',
      section_code: 'P1',
      access_code: created.accessCode,
      section_school_code: sent.section_school_code,
      description: 'First period',
      location: 'Room 12',
      meeting_days: [1, 3, 5],
      active: 0,
      grading_periods: [...periods].sort((a, b) => a - b),
      links: { self: `${v1}/sections/${created.id}` },
    });
    expect((await admin.get(`/sections/${created.id}`)).json).toEqual(response.json);
    expect(await events()).toEqual([
      ['section.create', 'SECTION', created.id, created.id, w.schoolAdmin.id, w.district.id, w.school.id],
    ]);
  });

  it('reads XML (section_title, repeated meeting_days) and answers XML', async () => {
    const admin = await clients.rest(w.districtAdmin);
    const code = unique('SSC');
    const response = await admin.post(
      `/courses/${course.id}/sections`,
      `<body><section_title>Lab</section_title><section_school_code>${code}</section_school_code>` +
        '<meeting_days>2</meeting_days><meeting_days>4</meeting_days><grading_periods /></body>',
      { accept: 'xml' },
    );
    const created = await bySchoolCode(code);
    expect(response.status).toBe(201);
    expect(response.text).toBe(
      `${xmlHead}<result><id>${created.id}</id><course_title>${course.title}</course_title>` +
        `<course_code>${course.courseCode}</course_code><course_id>${course.id}</course_id>` +
        `<school_id>${w.school.id}</school_id><section_title>Lab</section_title><section_code />` +
        `<access_code>${created.accessCode}</access_code><section_school_code>${code}</section_school_code><description /><location />` +
        '<meeting_days>2</meeting_days><meeting_days>4</meeting_days><active>1</active><grading_periods />' +
        `<links><self>${v1}/sections/${created.id}</self></links></result>`,
    );
  });

  it('refuses a section without either code, bad members, and a school code taken in the school (409)', async () => {
    const admin = await clients.rest(w.schoolAdmin);
    const noCode = await expectNothingWritten(() => admin.post(`/courses/${course.id}/sections`, { title: 'X' }));
    expect([noCode.status, noCode.json.error]).toEqual([400, expect.stringContaining('section_school_code')]);
    const days = await expectNothingWritten(() =>
      admin.post(`/courses/${course.id}/sections`, section({ meeting_days: [8] })),
    );
    expect([days.status, days.json.error]).toEqual([400, expect.stringContaining('meeting_days')]);
    const other = await db().gradingPeriod.create({
      data: {
        schoolId: w.otherSchool.id,
        title: 'Elsewhere',
        startsOn: new Date(2026, 0, 1),
        endsOn: new Date(2026, 5, 1),
      },
    });
    const foreign = await expectNothingWritten(() =>
      admin.post(`/courses/${course.id}/sections`, section({ grading_periods: [other.id] })),
    );
    expect([foreign.status, foreign.json.error]).toEqual([400, expect.stringContaining('grading_periods')]);
    const taken = section();
    expect((await admin.post(`/courses/${course.id}/sections`, taken)).status).toBe(201);
    // Another course of the same school: the code is unique in the school, not in the course.
    const elsewhere = await createSection(w.school.id);
    const conflict = await expectNothingWritten(() => admin.post(`/courses/${elsewhere.courseId}/sections`, taken));
    expect([conflict.status, conflict.json.error]).toEqual([409, 'Section school code is already used in this school']);
  });

  it('refuses the teacher and student of the course (403) and hides it from others (404)', async () => {
    for (const user of [w.teacher, w.student]) {
      const response = await expectNothingWritten(async () =>
        (await clients.rest(user)).post(`/courses/${course.id}/sections`, { sections: { section: [section()] } }),
      );
      expect(response.status).toBe(403);
    }
    const outsider = await expectNothingWritten(async () =>
      (await clients.rest(w.outsider)).post(`/courses/${course.id}/sections`, section()),
    );
    expect(outsider.status).toBe(404);
    const unknown = await expectNothingWritten(async () =>
      (await clients.rest(w.schoolAdmin)).post('/courses/999999999/sections', section()),
    );
    expect(unknown.status).toBe(404);
  });

  it('answers each item of a bulk in order, 207 when their codes differ, committing the good ones alone', async () => {
    const admin = await clients.rest(w.schoolAdmin);
    const taken = section();
    await admin.post(`/courses/${course.id}/sections`, taken);
    const [good, alsoGood] = [section(), section({ section_code: 'B' })];
    const events = await watchDomainEvents();
    const response = await admin.post(`/courses/${course.id}/sections`, {
      sections: { section: [good, section({ title: '' }), { ...taken }, 'not a section', alsoGood] },
    });
    expect(response.status).toBe(207);
    const [first, second] = [
      await bySchoolCode(good.section_school_code),
      await bySchoolCode(alsoGood.section_school_code),
    ];
    expect(response.json).toEqual({
      section: [
        {
          response_code: 200,
          id: String(first.id),
          section_school_code: good.section_school_code,
          location: `${v1}/sections/${first.id}`,
        },
        { response_code: 400, section_school_code: expect.any(String), message: 'title: is required' },
        {
          response_code: 409,
          section_school_code: taken.section_school_code,
          message: 'Section school code is already used in this school',
        },
        { response_code: 400, message: 'section: must be an object' },
        {
          response_code: 200,
          id: String(second.id),
          section_school_code: alsoGood.section_school_code,
          location: `${v1}/sections/${second.id}`,
        },
      ],
    });
    expect((await events()).map(([type, , , objectId]) => [type, objectId])).toEqual([
      ['section.create', first.id],
      ['section.create', second.id],
    ]);
  });

  it('with update_existing=1 changes sections by section_school_code, and a second identical run writes nothing', async () => {
    const admin = await clients.rest(w.districtAdmin);
    const sync = [
      section({ meeting_days: [1, 2], grading_periods: [periods[0]] }),
      section({ title: 'Period 2', active: 1 }),
    ];
    const first = await admin.post(`/courses/${course.id}/sections?update_existing=1`, { sections: { section: sync } });
    expect([first.status, first.json.section.map((item: any) => item.response_code)]).toEqual([200, [200, 200]]);
    const again = await expectNothingWritten(() =>
      admin.post(`/courses/${course.id}/sections?update_existing=1`, { sections: { section: sync } }),
    );
    expect(again.json).toEqual(first.json);
    const without = await expectNothingWritten(() =>
      admin.post(`/courses/${course.id}/sections`, { sections: { section: [sync[0]] } }),
    );
    expect(without.json.section[0].response_code).toBe(409);

    const events = await watchDomainEvents();
    const changed: Record<string, any> = {
      ...sync[0],
      title: 'Renamed',
      meeting_days: [2, 1],
      grading_periods: periods,
      active: 0,
    };
    const response = await admin.post(`/courses/${course.id}/sections?update_existing=1`, {
      sections: { section: [changed] },
    });
    expect(response.json.section[0]).toMatchObject({ response_code: 200, id: first.json.section[0].id });
    const row = await bySchoolCode(changed.section_school_code);
    expect([row.title, row.active, row.meetingDays, row.gradingPeriods.map((period) => period.id).sort()]).toEqual([
      'Renamed',
      false,
      ['MONDAY', 'TUESDAY'],
      [...periods].sort((a, b) => a - b),
    ]);
    expect(await events()).toEqual([
      ['section.update', 'SECTION', row.id, row.id, w.districtAdmin.id, w.district.id, w.school.id],
    ]);
    // The code held by a section of another course of the school: that item's conflict, not a move.
    const elsewhere = await createSection(w.school.id);
    const moved = await expectNothingWritten(() =>
      admin.post(`/courses/${elsewhere.courseId}/sections?update_existing=1`, { sections: { section: [changed] } }),
    );
    expect([moved.status, moved.json.section[0].response_code]).toEqual([200, 409]);
  });

  it('reads an XML bulk, one <section> being a list of one, and refuses more than 50 whole', async () => {
    const admin = await clients.rest(w.schoolAdmin);
    const code = unique('SSC');
    const response = await admin.post(
      `/courses/${course.id}/sections`,
      `<body><sections><section><title>Art</title><section_school_code>${code}</section_school_code>` +
        '<meeting_days>3</meeting_days></section></sections></body>',
      { accept: 'xml' },
    );
    const created = await bySchoolCode(code);
    expect([response.status, response.text]).toEqual([
      200,
      `${xmlHead}<result><section><response_code>200</response_code><id>${created.id}</id>` +
        `<section_school_code>${code}</section_school_code><location>${v1}/sections/${created.id}</location>` +
        '</section></result>',
    ]);
    expect(created.meetingDays).toEqual(['WEDNESDAY']);
    const many = Array.from({ length: 51 }, () => section());
    const tooMany = await expectNothingWritten(() =>
      admin.post(`/courses/${course.id}/sections`, { sections: { section: many } }),
    );
    expect([tooMany.status, tooMany.json.error]).toEqual([400, 'sections/section: must list at most 50 sections']);
  });
});

describe('PUT /v1/sections/{id} and GET /v1/sections/ext/{section_school_code}', () => {
  it('changes the new members (204); an unchanged section writes nothing; null clears the school code', async () => {
    const admin = await clients.rest(w.schoolAdmin);
    const sent = section();
    const id = (await admin.post(`/courses/${course.id}/sections`, sent)).json.id;
    const put = await admin.put(`/sections/${id}`, {
      location: 'Gym',
      meeting_days: [0, 6],
      grading_periods: [periods[1]],
    });
    expect(put.status).toBe(204);
    const changed = (await admin.get(`/sections/${id}`)).json;
    expect([changed.location, changed.meeting_days, changed.grading_periods]).toEqual(['Gym', [0, 6], [periods[1]]]);
    await expectNothingWritten(() => admin.put(`/sections/${id}`, { location: 'Gym', meeting_days: [6, 0] }));
    expect((await admin.put(`/sections/${id}`, { section_school_code: null })).status).toBe(204);
    expect((await admin.get(`/sections/${id}`)).json.section_school_code).toBe('');
    // The code is free again: another section may take it.
    expect((await admin.post(`/courses/${course.id}/sections`, sent)).status).toBe(201);
  });

  it('redirects (303) to the section the caller reads with the code, and answers 404 to others', async () => {
    const admin = await clients.rest(w.schoolAdmin);
    const sent = section();
    const id = (await admin.post(`/courses/${course.id}/sections`, sent)).json.id;
    const found = await admin.get(`/sections/ext/${sent.section_school_code}`);
    expect([found.status, found.headers.get('location')]).toEqual([303, `${v1}/sections/${id}`]);
    expect((await admin.get(`/sections/ext/${unique('none')}`)).status).toBe(404);
    // The school's student does not take the section: it is not theirs to find.
    expect((await (await clients.rest(w.student)).get(`/sections/ext/${sent.section_school_code}`)).status).toBe(404);
    expect((await (await clients.rest(w.outsider)).get(`/sections/ext/${sent.section_school_code}`)).status).toBe(404);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import { clientsFor } from '../support/client';
import { type World, createSection, createUser, createWorld, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';
import { el, v1, xmlHead } from '../support/wire';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);
const as = clients.rest;

let w: World;
let classmate: { id: number };
let parentOfClassmate: { id: number };

beforeAll(async () => {
  w = await createWorld();
  classmate = await createUser(w.school.id, 'STUDENT');
  parentOfClassmate = await createUser(w.school.id, 'PARENT');
  // The parent's link is made as the school's administrators make it: through linkParent.
  const admin = await clients.graphql(w.schoolAdmin);
  const linked = await admin(
    `mutation($input: LinkParentInput!) { linkParent(input: $input) { parentLink { linked } } }`,
    {
      input: { parentId: String(parentOfClassmate.id), childId: String(classmate.id) },
    },
  );
  expect(linked.data.linkParent).toEqual({ parentLink: { linked: true } });
  await clients.restFor(
    ['teacher', 'student', 'parent', 'schoolAdmin', 'districtAdmin', 'otherSchoolStudent', 'outsider'],
    w,
  );
  await clients.rest(classmate);
  await clients.rest(parentOfClassmate);
});

/** A section taught by the teacher with the student, the classmate and a third student; their enrollment ids. */
async function classroom() {
  const third = await createUser(w.school.id, 'STUDENT');
  const section = await createSection(w.school.id, [
    { userId: w.teacher.id, admin: true },
    { userId: w.student.id },
    { userId: classmate.id },
    { userId: third.id },
  ]);
  const rows = await db().enrollment.findMany({ where: { sectionId: section.id }, orderBy: { id: 'asc' } });
  const of = (userId: number) => rows.find((row) => row.userId === userId)!.id;
  return {
    id: section.id,
    teacher: of(w.teacher.id),
    student: of(w.student.id),
    classmate: of(classmate.id),
    third: of(third.id),
  };
}

type Room = Awaited<ReturnType<typeof classroom>>;

const item = (enrollment_id: number, date: string, status: number, comment?: string) => ({
  enrollment_id,
  date,
  status,
  ...(comment !== undefined ? { comment } : {}),
});
const take = async (room: Room, items: ReturnType<typeof item>[]) => {
  const answer = await (await as(w.teacher)).put(`/sections/${room.id}/attendance`, {
    attendances: { attendance: items },
  });
  expect(answer.status, answer.text).toBe(200);
  return answer;
};
/** Two days: on the 5th the student is absent and the classmate late; on the 6th the classmate is excused, the student present. */
async function twoDays(room: Room) {
  await take(room, [
    item(room.student, '2026-01-05', 2, 'No note'),
    item(room.classmate, '2026-01-05', 3),
    item(room.third, '2026-01-05', 1),
    item(room.classmate, '2026-01-06', 4, 'Doctor'),
    item(room.student, '2026-01-06', 1),
  ]);
}
const record = (enrollment_id: number, date: string, status: number, comment = '') => ({
  enrollment_id,
  date,
  status,
  comment,
});
const group = (status_code: number, ...attendance: ReturnType<typeof record>[]) => ({
  status_code,
  attendances: { attendance },
});
const day = (date: string, ...status: ReturnType<typeof group>[]) => ({ date, statuses: { status } });
const totals = (counts: Record<number, number>) => ({
  total: Object.entries(counts).map(([status, count]) => ({ status: Number(status), count })),
});

describe('GET /sections/{id}/attendance', () => {
  it('lists the days attendance was taken, statuses grouped, present records left out, with totals that count the rest as present', async () => {
    const room = await classroom();
    await twoDays(room);
    const answer = await (await as(w.teacher)).get(`/sections/${room.id}/attendance`);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      date: [
        day(
          '2026-01-05',
          group(2, record(room.student, '2026-01-05', 2, 'No note')),
          group(3, record(room.classmate, '2026-01-05', 3)),
        ),
        day('2026-01-06', group(4, record(room.classmate, '2026-01-06', 4, 'Doctor'))),
      ],
      // Three students on two days: six enrollment-days; the teacher's enrollment does not count.
      totals: totals({ 1: 3, 2: 1, 3: 1, 4: 1 }),
      total: 2,
      links: { self: `${v1}/sections/${room.id}/attendance?start=0&limit=20` },
    });
  });

  it('counts only active student enrollments in the totals, while still listing the records of one that has left', async () => {
    const room = await classroom();
    await twoDays(room);
    await db().enrollment.update({ where: { id: room.classmate }, data: { status: 'EXPIRED' } });
    const answer = await (await as(w.teacher)).get(`/sections/${room.id}/attendance`);
    expect(answer.json.date[1]).toEqual(day('2026-01-06', group(4, record(room.classmate, '2026-01-06', 4, 'Doctor'))));
    // Two active students on two days: the student absent once and present once, the third student present twice.
    expect(answer.json.totals).toEqual(totals({ 1: 3, 2: 1 }));
  });

  it('answers in XML, lists repeated and the empty statuses of an all-present day self-closing', async () => {
    const room = await classroom();
    await take(room, [item(room.student, '2026-02-02', 2), item(room.classmate, '2026-02-03', 1)]);
    const answer = await (await as(w.teacher)).get(`/sections/${room.id}/attendance`, { accept: 'xml' });
    expect(answer.status).toBe(200);
    const attendance = `<attendance>${el('enrollment_id', room.student)}${el('date', '2026-02-02')}${el('status', 2)}${el('comment', '')}</attendance>`;
    expect(answer.text).toBe(
      `${xmlHead}<result>` +
        `<date>${el('date', '2026-02-02')}<statuses><status>${el('status_code', 2)}<attendances>${attendance}</attendances></status></statuses></date>` +
        `<date>${el('date', '2026-02-03')}<statuses><status /></statuses></date>` +
        `<totals><total>${el('status', 1)}${el('count', 5)}</total><total>${el('status', 2)}${el('count', 1)}</total></totals>` +
        `${el('total', 2)}<links>${el('self', `${v1}/sections/${room.id}/attendance?start=0&limit=20`)}</links>` +
        '</result>',
    );
  });

  it('filters by inclusive day range and by enrollment, totals following the filter', async () => {
    const room = await classroom();
    await twoDays(room);
    await take(room, [item(room.third, '2026-01-07', 2)]);
    const teacher = await as(w.teacher);
    const range = await teacher.get(`/sections/${room.id}/attendance?start=2026-01-06&end=2026-01-07`);
    expect(range.json.date.map((d: { date: string }) => d.date)).toEqual(['2026-01-06', '2026-01-07']);
    expect(range.json.totals).toEqual(totals({ 1: 4, 2: 1, 4: 1 }));
    expect(range.json.links.self).toBe(`${v1}/sections/${room.id}/attendance?start=2026-01-06&end=2026-01-07&limit=20`);
    const until = await teacher.get(`/sections/${room.id}/attendance?end=2026-01-05`);
    expect(until.json.date.map((d: { date: string }) => d.date)).toEqual(['2026-01-05']);

    const one = await teacher.get(`/sections/${room.id}/attendance?enrollment_id=${room.classmate}`);
    expect(one.json).toMatchObject({
      date: [
        day('2026-01-05', group(3, record(room.classmate, '2026-01-05', 3))),
        day('2026-01-06', group(4, record(room.classmate, '2026-01-06', 4, 'Doctor'))),
        day('2026-01-07'),
      ],
      totals: totals({ 1: 1, 3: 1, 4: 1 }),
      total: 3,
    });
  });

  it('refuses a day that is not YYYY-MM-DD with 400 naming the parameter, and an end before the start', async () => {
    const room = await classroom();
    const teacher = await as(w.teacher);
    for (const [query, field] of [
      ['start=2026-02-30', 'start'],
      ['end=tomorrow', 'end'],
      ['start=2026-01-05&end=2026-01-04', 'end'],
      ['enrollment_id=x', 'enrollment_id'],
    ]) {
      const answer = await teacher.get(`/sections/${room.id}/attendance?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.json.issues[0].field, query).toBe(field);
    }
    const xml = await teacher.get(`/sections/${room.id}/attendance?start=20260105x`, { accept: 'xml' });
    expect(xml.status).toBe(400);
    expect(xml.text).toContain('<field>start</field>');
  });

  it("pages over days: an integer start is the offset; with a first day, next moves past the page's last day", async () => {
    const room = await classroom();
    await twoDays(room);
    await take(room, [item(room.third, '2026-01-08', 2)]);
    const teacher = await as(w.teacher);
    const first = await teacher.get(`/sections/${room.id}/attendance?limit=2`);
    expect(first.json.date.map((d: { date: string }) => d.date)).toEqual(['2026-01-05', '2026-01-06']);
    expect(first.json.total).toBe(3);
    expect(first.json.totals).toEqual(totals({ 1: 5, 2: 2, 3: 1, 4: 1 }));
    expect(first.json.links).toEqual({
      self: `${v1}/sections/${room.id}/attendance?limit=2&start=0`,
      next: `${v1}/sections/${room.id}/attendance?limit=2&start=2`,
    });
    const second = await teacher.get(first.json.links.next.slice(v1.length));
    expect(second.json.date.map((d: { date: string }) => d.date)).toEqual(['2026-01-08']);
    expect(second.json.links.next).toBeUndefined();

    const dated = await teacher.get(`/sections/${room.id}/attendance?start=2026-01-01&limit=1`);
    expect(dated.json.date.map((d: { date: string }) => d.date)).toEqual(['2026-01-05']);
    expect(dated.json.links.next).toBe(`${v1}/sections/${room.id}/attendance?start=2026-01-06&limit=1`);
    const following = await teacher.get(dated.json.links.next.slice(v1.length));
    expect(following.json.date.map((d: { date: string }) => d.date)).toEqual(['2026-01-06']);
    expect(following.json.links.next).toBe(`${v1}/sections/${room.id}/attendance?start=2026-01-07&limit=1`);
  });

  it("shows a student only their own records and totals, and a parent (linked with linkParent) only their child's", async () => {
    const room = await classroom();
    await twoDays(room);
    const student = await (await as(w.student)).get(`/sections/${room.id}/attendance`);
    expect(student.status).toBe(200);
    expect(student.json).toMatchObject({
      date: [day('2026-01-05', group(2, record(room.student, '2026-01-05', 2, 'No note'))), day('2026-01-06')],
      totals: totals({ 1: 1, 2: 1 }),
      total: 2,
    });
    // Asking for a classmate's records gives nothing, rather than a refusal: lists are filtered.
    const peek = await (await as(w.student)).get(`/sections/${room.id}/attendance?enrollment_id=${room.classmate}`);
    expect(peek.json).toMatchObject({ date: [day('2026-01-05'), day('2026-01-06')], totals: { total: [] } });

    const parent = await (await as(parentOfClassmate)).get(`/sections/${room.id}/attendance`);
    expect(parent.status).toBe(200);
    expect(parent.json).toMatchObject({
      date: [
        day('2026-01-05', group(3, record(room.classmate, '2026-01-05', 3))),
        day('2026-01-06', group(4, record(room.classmate, '2026-01-06', 4, 'Doctor'))),
      ],
      totals: totals({ 3: 1, 4: 1 }),
    });
  });

  it('is 403 for a student of the school outside the section and a parent of no one in it, 404 for another district, 404 for no section', async () => {
    const room = await classroom();
    const path = `/sections/${room.id}/attendance`;
    expect((await (await as(w.otherSchoolStudent)).get(path)).status).toBe(404);
    expect((await (await as(w.outsider)).get(path)).status).toBe(404);
    expect((await (await as(w.teacher)).get('/sections/2147483000/attendance')).status).toBe(404);
    const stranger = await createUser(w.school.id, 'STUDENT');
    const refused = await (await as(stranger)).get(path);
    expect([refused.status, refused.json.error]).toEqual([
      403,
      "Only the section's teachers, its students and their parents read its gradebook",
    ]);
    expect((await (await as(w.parent)).get(path)).status).toBe(403);
    expect((await (await as(w.schoolAdmin)).get(path)).status).toBe(200);
    expect((await (await as(w.districtAdmin)).get(path)).status).toBe(200);
  });
});

describe('PUT /sections/{id}/attendance', () => {
  it("answers each item with its record's id (a string) and 200, replaces the record of the enrollment and day, and records one event", async () => {
    const room = await classroom();
    const teacher = await as(w.teacher);
    const events = await watchDomainEvents();
    const first = await teacher.put(`/sections/${room.id}/attendance`, {
      attendances: { attendance: [item(room.student, '2026-03-02', 2, 'Sick'), item(room.classmate, '2026-03-02', 3)] },
    });
    const rows = await db().attendanceRecord.findMany({
      where: { sectionId: room.id },
      orderBy: { enrollmentId: 'asc' },
    });
    const [studentRecord, classmateRecord] = rows.map((row) => row.id);
    // The platform's example answers `"id": "564027"`: the attendance record's own id, as a string.
    expect([first.status, first.json]).toEqual([
      200,
      {
        attendance: [
          { id: String(studentRecord), response_code: 200 },
          { id: String(classmateRecord), response_code: 200 },
        ],
      },
    ]);
    const again = await teacher.put(`/sections/${room.id}/attendance`, {
      attendances: { attendance: [item(room.student, '2026-03-02', 4), item(room.student, '2026-03-09', 2)] },
    });
    const added = (
      await db().attendanceRecord.findFirstOrThrow({
        where: { enrollmentId: room.student, date: new Date('2026-03-09') },
      })
    ).id;
    expect(again.json).toEqual({
      attendance: [
        { id: String(studentRecord), response_code: 200 },
        { id: String(added), response_code: 200 },
      ],
    });
    const replaced = await db().attendanceRecord.findMany({
      where: { sectionId: room.id, date: new Date('2026-03-02') },
      orderBy: { enrollmentId: 'asc' },
    });
    expect(
      replaced.map((row) => [row.id, row.enrollmentId, row.date.toISOString().slice(0, 10), row.status, row.comment]),
    ).toEqual([
      [studentRecord, room.student, '2026-03-02', 'EXCUSED', ''],
      [classmateRecord, room.classmate, '2026-03-02', 'LATE', ''],
    ]);
    const scope = [w.district.id, w.school.id];
    expect(await events()).toEqual([
      ['attendance.update', 'SECTION', room.id, room.id, w.teacher.id, ...scope],
      ['attendance.update', 'SECTION', room.id, room.id, w.teacher.id, ...scope],
    ]);
    const data = await db().domainEvent.findMany({
      where: { type: 'attendance.update', realmId: room.id },
      orderBy: { id: 'asc' },
      select: { data: true },
    });
    expect(data.map((event) => event.data)).toEqual([
      {
        items: [
          { enrollmentId: room.student, date: '2026-03-02', id: studentRecord },
          { enrollmentId: room.classmate, date: '2026-03-02', id: classmateRecord },
        ],
      },
      {
        items: [
          { enrollmentId: room.student, date: '2026-03-02', id: studentRecord },
          { enrollmentId: room.student, date: '2026-03-09', id: added },
        ],
      },
    ]);
  });

  it('takes an XML body (one item read as a list) and answers in XML', async () => {
    const room = await classroom();
    const body =
      `<body><attendances><attendance><enrollment_id>${room.student}</enrollment_id><date>2026-03-03</date><status>3</status>` +
      '<comment>Bus &amp; traffic</comment></attendance></attendances></body>';
    const answer = await (await as(w.teacher)).put(`/sections/${room.id}/attendance`, body, { accept: 'xml' });
    expect(answer.status).toBe(200);
    const row = await db().attendanceRecord.findFirstOrThrow({ where: { enrollmentId: room.student } });
    expect(answer.text).toBe(
      `${xmlHead}<result><attendance>${el('id', row.id)}${el('response_code', 200)}</attendance></result>`,
    );
    expect([row.status, row.comment]).toEqual(['LATE', 'Bus & traffic']);
  });

  it("fails a bad item alone with its code (207): another section's enrollment 404, a bad date, status or a teacher's enrollment 400", async () => {
    const room = await classroom();
    const elsewhere = await createSection(w.school.id, [{ userId: w.student.id }]);
    const foreign = (await db().enrollment.findFirstOrThrow({ where: { sectionId: elsewhere.id } })).id;
    const answer = await (await as(w.teacher)).put(`/sections/${room.id}/attendance`, {
      attendances: {
        attendance: [
          item(room.student, '2026-03-04', 2),
          item(foreign, '2026-03-04', 2),
          item(room.classmate, '2026-02-30', 2),
          item(room.classmate, '2026-03-04', 5),
          { enrollment_id: room.third, date: '2026-03-04' },
          item(room.teacher, '2026-03-04', 2),
          item(room.third, '2026-03-04', 1),
        ],
      },
    });
    expect(answer.status).toBe(207);
    const rows = await db().attendanceRecord.findMany({
      where: { date: new Date('2026-03-04') },
      orderBy: { enrollmentId: 'asc' },
    });
    expect(rows.map((row) => [row.enrollmentId, row.status])).toEqual([
      [room.student, 'ABSENT'],
      [room.third, 'PRESENT'],
    ]);
    // An item that wrote no record has no id: its place in the answer is that of the item sent.
    expect(answer.json.attendance).toEqual([
      { id: String(rows[0]!.id), response_code: 200 },
      { response_code: 404, message: `enrollment_id: ${foreign} is not an enrollment of this section` },
      { response_code: 400, message: 'date: must be a date, YYYY-MM-DD' },
      { response_code: 400, message: 'status: must be 1 (present), 2 (absent), 3 (late) or 4 (excused)' },
      { response_code: 400, message: 'status: must be 1 (present), 2 (absent), 3 (late) or 4 (excused)' },
      {
        response_code: 400,
        message: `enrollment_id: ${room.teacher} is a teacher's enrollment; attendance is taken for students`,
      },
      { id: String(rows[1]!.id), response_code: 200 },
    ]);
  });

  it('writes nothing when every item fails, and refuses a malformed body with 400', async () => {
    const room = await classroom();
    const teacher = await as(w.teacher);
    const failed = await expectNothingWritten(() =>
      teacher.put(`/sections/${room.id}/attendance`, {
        attendances: { attendance: [item(room.student, 'monday', 2)] },
      }),
    );
    expect([failed.status, failed.json]).toEqual([
      200,
      { attendance: [{ response_code: 400, message: 'date: must be a date, YYYY-MM-DD' }] },
    ]);
    const malformed = await expectNothingWritten(() =>
      teacher.put(`/sections/${room.id}/attendance`, { attendances: { attendance: [{ date: '2026-03-05' }] } }),
    );
    expect(malformed.status).toBe(400);
    const missing = await expectNothingWritten(() =>
      teacher.put(`/sections/${room.id}/attendance`, { attendance: [] }),
    );
    expect([missing.status, missing.json.issues]).toEqual([
      400,
      [{ field: 'attendances/attendance', message: 'is required' }],
    ]);
  });

  it("is for the section's teachers and administrators: a student or parent 403, another district 404, writing nothing", async () => {
    const room = await classroom();
    const body = { attendances: { attendance: [item(room.student, '2026-03-06', 2)] } };
    const path = `/sections/${room.id}/attendance`;
    await expectNothingWritten(async () => {
      expect((await (await as(w.student)).put(path, body)).status).toBe(403);
      expect((await (await as(parentOfClassmate)).put(path, body)).status).toBe(403);
      expect((await (await as(w.outsider)).put(path, body)).status).toBe(404);
    });
    expect((await (await as(w.schoolAdmin)).put(path, body)).json).toEqual({
      attendance: [{ id: expect.stringMatching(/^\d+$/), response_code: 200 }],
    });
  });
});

describe('a district that keeps attendance in a third-party app', () => {
  it('answers 410 Gone to list and update, and writes nothing; clearing the setting brings attendance back', async () => {
    const district = await db().district.create({ data: { title: 'Gone District' } });
    const school = await db().school.create({ data: { districtId: district.id, title: 'Gone School' } });
    const [admin, teacher, student] = await Promise.all(
      (['DISTRICT_ADMIN', 'TEACHER', 'STUDENT'] as const).map((role) => createUser(school.id, role)),
    );
    const section = await createSection(school.id, [{ userId: teacher.id, admin: true }, { userId: student.id }]);
    const enrollment = (
      await db().enrollment.findFirstOrThrow({ where: { sectionId: section.id, userId: student.id } })
    ).id;
    const setApp = async (attendanceApp: string | null) => {
      const answer = await (await clients.graphql(admin))(
        `mutation($input: UpdateDistrictInput!) { updateDistrict(input: $input) { district { attendanceApp } } }`,
        { input: { id: String(district.id), attendanceApp } },
      );
      expect(answer.data.updateDistrict).toEqual({ district: { attendanceApp } });
    };
    await setApp('PowerSchool');
    const [rest, studentRest, outsider, graphql] = [
      await as(teacher),
      await as(student),
      await as(w.outsider),
      await clients.graphql(teacher),
    ];
    const path = `/sections/${section.id}/attendance`;
    const body = { attendances: { attendance: [item(enrollment, '2026-03-09', 2)] } };
    await expectNothingWritten(async () => {
      for (const accept of ['json', 'xml'] as const) {
        expect((await rest.get(path, { accept })).status).toBe(410);
        expect((await rest.put(path, body, { accept })).status).toBe(410);
      }
      expect((await studentRest.get(path)).status).toBe(410);
      const gone = await graphql(`query($id: ID!) { attendance(sectionId: $id) { total } }`, {
        id: String(section.id),
      });
      expect(gone.errors?.[0]).toMatchObject({
        message: 'Attendance of this district is kept in its attendance app (PowerSchool)',
        extensions: { code: 'GONE' },
      });
      // Who may not see the section learns nothing about the district's setting.
      expect((await outsider.get(path)).status).toBe(404);
    });
    await setApp(null);
    expect((await rest.put(path, body)).json).toEqual({
      attendance: [{ id: expect.stringMatching(/^\d+$/), response_code: 200 }],
    });
  });
});

describe('GraphQL attendance', () => {
  const query = `query($sectionId: ID!, $startDate: String, $enrollmentId: ID) {
    attendance(sectionId: $sectionId, startDate: $startDate, enrollmentId: $enrollmentId) {
      total start limit totals { status count } items { date statuses { status records { enrollmentId sectionId date status comment } } }
    }
  }`;
  const mutation = `mutation($sectionId: ID!, $records: [AttendanceInput!]!) {
    setAttendance(input: { sectionId: $sectionId, records: $records }) {
      results { enrollmentId date code message recordId record { id status comment enrollment { databaseId } } }
      userErrors { field code message }
    }
  }`;

  it('takes attendance item by item and reads it back by day', async () => {
    const room = await classroom();
    const teacher = await clients.graphql(w.teacher);
    const set = await teacher(mutation, {
      sectionId: String(room.id),
      records: [
        { enrollmentId: String(room.student), date: '2026-04-01', status: 'ABSENT', comment: 'Trip' },
        { enrollmentId: '2147483647', date: '2026-04-01', status: 'LATE' },
        { enrollmentId: String(room.classmate), date: '2026-04-01' },
      ],
    });
    const written = await db().attendanceRecord.findFirstOrThrow({
      where: { enrollmentId: room.student, date: new Date('2026-04-01') },
    });
    expect(set.data.setAttendance).toEqual({
      userErrors: [],
      results: [
        {
          enrollmentId: String(room.student),
          date: '2026-04-01',
          code: 'WRITTEN',
          message: null,
          recordId: String(written.id),
          // The record as written, by its global id, for a client cache to update.
          record: {
            id: encodeGlobalId('AttendanceRecord', written.id),
            status: 'ABSENT',
            comment: 'Trip',
            enrollment: { databaseId: String(room.student) },
          },
        },
        {
          enrollmentId: '2147483647',
          date: '2026-04-01',
          code: 'NOT_FOUND',
          message: 'enrollmentId: 2147483647 is not an enrollment of this section',
          recordId: null,
          record: null,
        },
        {
          enrollmentId: String(room.classmate),
          date: '2026-04-01',
          code: 'INVALID',
          message: 'status: must be 1 (present), 2 (absent), 3 (late) or 4 (excused)',
          recordId: null,
          record: null,
        },
      ],
    });
    const read = await teacher(query, { sectionId: String(room.id), startDate: '2026-04-01' });
    expect(read.data.attendance).toEqual({
      total: 1,
      start: 0,
      limit: 20,
      totals: [
        { status: 'PRESENT', count: 2 },
        { status: 'ABSENT', count: 1 },
      ],
      items: [
        {
          date: '2026-04-01',
          statuses: [
            {
              status: 'ABSENT',
              records: [
                {
                  enrollmentId: String(room.student),
                  sectionId: String(room.id),
                  date: '2026-04-01',
                  status: 'ABSENT',
                  comment: 'Trip',
                },
              ],
            },
          ],
        },
      ],
    });
  });

  it('is null for a hidden section, 403 for a student writing, BAD_USER_INPUT naming a bad day', async () => {
    const room = await classroom();
    expect(
      (await (await clients.graphql(w.outsider))(query, { sectionId: String(room.id) })).data.attendance,
    ).toBeNull();
    const student = await clients.graphql(w.student);
    const refused = await expectNothingWritten(() =>
      student(mutation, {
        sectionId: String(room.id),
        records: [{ enrollmentId: String(room.student), date: '2026-04-02', status: 'PRESENT' }],
      }),
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const teacher = await clients.graphql(w.teacher);
    const unknown = await teacher(mutation, { sectionId: '999999999', records: [] });
    expect(unknown.data.setAttendance).toEqual({
      results: null,
      userErrors: [{ field: ['input', 'sectionId'], code: 'NOT_FOUND', message: 'Section 999999999 was not found' }],
    });
    const bad = await student(query, { sectionId: String(room.id), startDate: '04/02/2026' });
    expect(bad.errors?.[0]).toMatchObject({
      message: "startDate: '04/02/2026' is not a date as YYYY-MM-DD",
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });
});

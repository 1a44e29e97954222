import { beforeAll, describe, expect, it } from 'vitest';
import { clientsFor } from '../support/client';
import { type World, createSection, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';
import { v1, xmlHead } from '../support/wire';

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
  await clients.restFor(['student', 'schoolAdmin', 'outsider'], w);
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

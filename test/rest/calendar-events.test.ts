import { beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import type { RealmType } from '../../src/generated/prisma/enums';
import { clientsFor } from '../support/client';
import {
  type World,
  createCalendarEvent,
  createGroup,
  createSection,
  createWorld,
  watchDomainEvents,
} from '../support/factories';
import { useTestServer } from '../support/harness';
import { md5, uploadFile } from '../support/uploads';
import { v1, xmlHead } from '../support/wire';
import { expectNothingWritten } from '../support/writes';

const server = useTestServer();
const clients = clientsFor(server);
const as = clients.rest;
type Person = keyof Omit<World, 'district' | 'school' | 'building' | 'otherSchool' | 'otherDistrict' | 'farSchool'>;
let w: World;
let section: { id: number };
let group: { id: number };

beforeAll(async () => {
  w = await createWorld();
  section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
  group = await createGroup(w.school.id, { admins: [w.teacher.id], members: [w.student.id], memberPost: false });
  await clients.restFor(['districtAdmin', 'schoolAdmin', 'teacher', 'student', 'parent', 'outsider'], w);
});

interface RealmCase {
  name: string;
  type: RealmType;
  prefix: string;
  member: string;
  id(): number;
  admin: Person;
  reader: Person;
  schoolId(): number | null;
}

const realms: RealmCase[] = [
  {
    name: 'district',
    type: 'DISTRICT',
    prefix: 'districts',
    member: 'district_id',
    id: () => w.district.id,
    admin: 'districtAdmin',
    reader: 'student',
    schoolId: () => null,
  },
  {
    name: 'school',
    type: 'SCHOOL',
    prefix: 'schools',
    member: 'school_id',
    id: () => w.school.id,
    admin: 'schoolAdmin',
    reader: 'teacher',
    schoolId: () => w.school.id,
  },
  {
    name: 'user',
    type: 'USER',
    prefix: 'users',
    member: 'user_id',
    id: () => w.teacher.id,
    admin: 'teacher',
    reader: 'student',
    schoolId: () => w.school.id,
  },
  {
    name: 'section',
    type: 'SECTION',
    prefix: 'sections',
    member: 'section_id',
    id: () => section.id,
    admin: 'teacher',
    reader: 'student',
    schoolId: () => w.school.id,
  },
  {
    name: 'group',
    type: 'GROUP',
    prefix: 'groups',
    member: 'group_id',
    id: () => group.id,
    admin: 'teacher',
    reader: 'student',
    schoolId: () => w.school.id,
  },
];

const url = (path: string) => `${v1}${path}`;
const ids = (response: { json: { event: { id: number }[] } }) => response.json.event.map((event) => event.id);

describe.each(realms)('calendar events in the $name realm', (realm) => {
  const base = () => `/${realm.prefix}/${realm.id()}/events`;

  it("creates in JSON (201, the documented example), views in JSON and XML with the platform's wire types, records calendar_event.create", async () => {
    const admin = await as(w[realm.admin]);
    const events = await watchDomainEvents();
    const created = await admin.post(base(), {
      title: 'My new event',
      description: 'My event description',
      start: '2026-05-14 16:30:00',
      has_end: '1',
      end: '2026-05-14 18:30:00',
      type: 'event',
    });
    expect(created.status).toBe(201);
    const id = created.json.id;
    const event = {
      id,
      title: 'My new event',
      description: 'My event description',
      start: '2026-05-14 16:30:00',
      has_end: 1,
      end: '2026-05-14 18:30:00',
      all_day: 0,
      editable: 1,
      rsvp: 0,
      comments_enabled: 1,
      type: 'event',
      realm: realm.name,
      [realm.member]: realm.id(),
      links: { self: url(`${base()}/${id}`) },
    };
    expect(created.json).toEqual(event);
    // An integer, as in every example of the platform's documentation.
    expect(Number.isInteger(id)).toBe(true);
    expect(await db().calendarEvent.findUniqueOrThrow({ where: { id: Number(id) } })).toMatchObject({
      realmType: realm.type,
      realmId: realm.id(),
      authorId: w[realm.admin].id,
      start: new Date('2026-05-14T16:30:00Z'),
      end: new Date('2026-05-14T18:30:00Z'),
    });
    expect(await events()).toEqual([
      ['calendar_event.create', realm.type, realm.id(), Number(id), w[realm.admin].id, w.district.id, realm.schoolId()],
    ]);

    expect((await admin.get(`${base()}/${id}`)).json).toEqual(event);
    const xml = await (await as(w[realm.reader])).get(`${base()}/${id}`, { accept: 'xml' });
    expect(xml.text).toBe(
      `${xmlHead}<result><id>${id}</id><title>My new event</title><description>My event description</description>` +
        '<start>2026-05-14 16:30:00</start><has_end>1</has_end><end>2026-05-14 18:30:00</end><all_day>0</all_day>' +
        `<editable>0</editable><rsvp>0</rsvp><comments_enabled>1</comments_enabled><type>event</type><realm>${realm.name}</realm>` +
        `<${realm.member}>${realm.id()}</${realm.member}><links><self>${event.links.self}</self></links></result>`,
    );
  });

  it('creates from XML; without has_end the end is empty (as the platform shows it), and flags and rsvp come back as given', async () => {
    const admin = await as(w[realm.admin]);
    const body =
      '<body><title>Field trip</title><start>2026-06-01 00:00:00</start><has_end>0</has_end><end></end>' +
      '<all_day>1</all_day><rsvp>2</rsvp><comments_enabled>0</comments_enabled></body>';
    const created = await admin.post(base(), body, { accept: 'xml' });
    expect(created.status).toBe(201);
    expect(created.text).toContain(
      '<description /><start>2026-06-01 00:00:00</start><has_end>0</has_end><end /><all_day>1</all_day>',
    );
    expect(created.text).toContain('<rsvp>2</rsvp><comments_enabled>0</comments_enabled><type>event</type>');
    const id = /<id>(\d+)<\/id>/.exec(created.text)![1];
    expect((await admin.get(`${base()}/${id}`)).json).toMatchObject({ id: Number(id), has_end: 0, end: '' });
  });

  it('updates (204; members left out keep their values; has_end 0 empties the end) and deletes (204, then 404)', async () => {
    const admin = await as(w[realm.admin]);
    const created = await admin.post(base(), {
      title: 'Draft',
      start: '2026-09-01 08:00:00',
      has_end: 1,
      end: '2026-09-01 09:00:00',
    });
    const path = `${base()}/${created.json.id}`;
    expect((await admin.put(path, { title: 'Final', end: '2026-09-01 10:00:00' })).status).toBe(204);
    expect((await admin.get(path)).json).toMatchObject({
      title: 'Final',
      start: '2026-09-01 08:00:00',
      has_end: 1,
      end: '2026-09-01 10:00:00',
    });
    expect((await admin.put(path, '<body><has_end>0</has_end></body>')).status).toBe(204);
    expect((await admin.get(path)).json).toMatchObject({ title: 'Final', has_end: 0, end: '' });
    expect((await db().calendarEvent.findUniqueOrThrow({ where: { id: created.json.id } })).end).toBeNull();

    expect((await admin.delete(path)).status).toBe(204);
    expect((await admin.get(path)).status).toBe(404);
    await expectNothingWritten(async () => {
      expect((await admin.delete(path)).status).toBe(404);
      expect((await admin.put(path, { title: 'Back' })).status).toBe(404);
    });
  });

  it('lets readers read (editable 0), refuses their writes with 403, hides everything from outsiders with 404', async () => {
    const event = await createCalendarEvent(
      { type: realm.type, id: realm.id() },
      { start: new Date('2026-10-01T12:00:00Z'), title: 'Keep me' },
    );
    const [reader, outsider] = await Promise.all([as(w[realm.reader]), as(w.outsider)]);
    const one = `${base()}/${event.id}`;
    expect((await reader.get(one)).json).toMatchObject({ title: 'Keep me', editable: 0 });
    await expectNothingWritten(async () => {
      expect((await reader.post(base(), { title: 'Nope', start: '2026-10-01 12:00:00' })).status).toBe(403);
      expect((await reader.put(one, { title: 'Nope' })).status).toBe(403);
      expect((await reader.delete(one)).status).toBe(403);
      const answers = [
        await outsider.get(base()),
        await outsider.get(one),
        await outsider.post(base(), { title: 'x', start: '2026-10-01 12:00:00' }),
      ];
      answers.push(await outsider.put(one, { title: 'x' }), await outsider.delete(one));
      expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404]);
    });
  });
});

describe('GET /[realm]/events: order, paging and days', () => {
  let groupOfDays: { id: number };
  const base = () => `/groups/${groupOfDays.id}/events`;

  beforeAll(async () => {
    groupOfDays = await createGroup(w.school.id, { admins: [w.teacher.id], members: [w.student.id] });
    // Made out of order: the list follows the start.
    for (const start of [
      '2026-03-03T10:00:00Z',
      '2026-03-01T23:59:59Z',
      '2026-03-02T00:00:00Z',
      '2026-02-28T12:00:00Z',
      '2026-03-04T00:00:00Z',
    ]) {
      await createCalendarEvent({ type: 'GROUP', id: groupOfDays.id }, { start: new Date(start), title: start });
    }
  });

  const titles = (response: { json: { event: { title: string }[] } }) =>
    response.json.event.map((event) => event.title);

  it('lists in the order events start, with total, links.self showing start and limit, and links.next only when more', async () => {
    const reader = await as(w.student);
    const first = await reader.get(`${base()}?limit=2`);
    expect(titles(first)).toEqual(['2026-02-28T12:00:00Z', '2026-03-01T23:59:59Z']);
    expect(first.json.total).toBe(5);
    expect(first.json.links).toEqual({
      self: url(`${base()}?limit=2&start=0`),
      next: url(`${base()}?limit=2&start=2`),
    });
    const last = await reader.get(`${base()}?start=4&limit=2`);
    expect(titles(last)).toEqual(['2026-03-04T00:00:00Z']);
    expect(last.json.links).toEqual({ self: url(`${base()}?start=4&limit=2`) });
  });

  it.each([
    ['2026-03-01', '2026-03-02', ['2026-03-01T23:59:59Z', '2026-03-02T00:00:00Z']],
    ['20260302', '20260303', ['2026-03-02T00:00:00Z', '2026-03-03T10:00:00Z']],
    ['2026-03-03', '2026-03-03', ['2026-03-03T10:00:00Z']],
  ])(
    'start_date %s and end_date %s list the events that start on those days and between',
    async (startDate, endDate, expected) => {
      const listed = await (await as(w.student)).get(`${base()}?start_date=${startDate}&end_date=${endDate}`);
      expect([listed.status, titles(listed), listed.json.total]).toEqual([200, expected, expected.length]);
    },
  );

  it('ignores one day given without the other, as the platform does', async () => {
    const reader = await as(w.student);
    expect((await reader.get(`${base()}?start_date=2026-03-03`)).json.total).toBe(5);
    expect((await reader.get(`${base()}?end_date=2026-03-01`)).json.total).toBe(5);
  });

  it('answers 400 naming the parameter for a day it cannot read or an end before the start, in JSON and XML', async () => {
    const reader = await as(w.student);
    const cases: [string, string, string][] = [
      ['start_date=2026-3-1&end_date=2026-03-02', 'start_date', "'2026-3-1' is not a day as YYYY-MM-DD or YYYYMMDD"],
      ['start_date=2026-03-01&end_date=2026-02-30', 'end_date', "'2026-02-30' is not a day as YYYY-MM-DD or YYYYMMDD"],
      ['start_date=2026-03-01&end_date=tomorrow', 'end_date', "'tomorrow' is not a day as YYYY-MM-DD or YYYYMMDD"],
      ['start_date=2026-03-02&end_date=2026-03-01', 'end_date', 'must not be before startDate'],
    ];
    for (const [query, field, reason] of cases) {
      const refused = await reader.get(`${base()}?${query}`);
      expect([refused.status, refused.json]).toEqual([
        400,
        { error: `${field}: ${reason}`, issues: [{ field, message: reason }] },
      ]);
    }
    const xml = await reader.get(`${base()}?start_date=x&end_date=2026-03-01`, { accept: 'xml' });
    expect(xml.status).toBe(400);
    expect(xml.text).toContain('<issues><field>start_date</field>');
  });
});

describe("times in the district's time zone", () => {
  let chicago: World;

  beforeAll(async () => {
    chicago = await createWorld();
    await db().district.update({ where: { id: chicago.district.id }, data: { timeZone: 'America/Chicago' } });
  });

  it("reads and writes YYYY-MM-DD HH:MM:SS on the district's wall clock, summer and winter; GraphQL has the instants", async () => {
    const admin = await as(chicago.districtAdmin);
    const base = `/districts/${chicago.district.id}/events`;
    const summer = await admin.post(base, {
      title: 'Graduation',
      start: '2026-06-05 18:00:00',
      has_end: 1,
      end: '2026-06-05 20:30:00',
    });
    const winter = await admin.post(base, { title: 'Winter concert', start: '2026-12-10 19:00:00' });
    expect([summer.json.start, summer.json.end, winter.json.start]).toEqual([
      '2026-06-05 18:00:00',
      '2026-06-05 20:30:00',
      '2026-12-10 19:00:00',
    ]);
    expect(await db().calendarEvent.findUniqueOrThrow({ where: { id: Number(summer.json.id) } })).toMatchObject({
      start: new Date('2026-06-05T23:00:00Z'),
      end: new Date('2026-06-06T01:30:00Z'),
    });
    expect((await db().calendarEvent.findUniqueOrThrow({ where: { id: Number(winter.json.id) } })).start).toEqual(
      new Date('2026-12-11T01:00:00Z'),
    );
    const graphql = await clients.graphql(chicago.student);
    const read = await graphql(
      `query($realm: RealmInput!, $id: ID!) { calendarEvent(realm: $realm, id: $id) { start end localStart localEnd hasEnd } }`,
      { realm: { type: 'DISTRICT', id: String(chicago.district.id) }, id: String(summer.json.id) },
    );
    expect(read.data.calendarEvent).toEqual({
      start: '2026-06-05T23:00:00.000Z',
      end: '2026-06-06T01:30:00.000Z',
      localStart: '2026-06-05 18:00:00',
      localEnd: '2026-06-05 20:30:00',
      hasEnd: true,
    });
  });

  it("reads start_date and end_date as the district's days", async () => {
    const group = await createGroup(chicago.school.id, { admins: [chicago.teacher.id] });
    // 03:00 UTC on 2 March is still 1 March in Chicago.
    const late = await createCalendarEvent(
      { type: 'GROUP', id: group.id },
      { start: new Date('2026-03-02T03:00:00Z') },
    );
    await createCalendarEvent({ type: 'GROUP', id: group.id }, { start: new Date('2026-03-02T07:00:00Z') });
    const listed = await (await as(chicago.teacher)).get(
      `/groups/${group.id}/events?start_date=2026-03-01&end_date=2026-03-01`,
    );
    expect([ids(listed), listed.json.event[0].start]).toEqual([[late.id], '2026-03-01 21:00:00']);
  });
});

describe('validation', () => {
  const base = () => `/sections/${section.id}/events`;

  it.each<[string, Record<string, unknown>, { field: string; message: string }[]]>([
    ['no title', { start: '2026-05-01 10:00:00' }, [{ field: 'title', message: 'is required' }]],
    ['no start', { title: 'x' }, [{ field: 'start', message: 'is required' }]],
    [
      'a start that is not a datetime',
      { title: 'x', start: '2026-05-01' },
      [{ field: 'start', message: 'must be a date and time as YYYY-MM-DD HH:MM:SS' }],
    ],
    [
      'a day that does not exist',
      { title: 'x', start: '2026-02-30 10:00:00' },
      [{ field: 'start', message: "'2026-02-30 10:00:00' is not a date and time that exists" }],
    ],
    [
      'has_end 1 without an end',
      { title: 'x', start: '2026-05-01 10:00:00', has_end: 1 },
      [{ field: 'end', message: 'is required when hasEnd is true' }],
    ],
    [
      'an end before the start',
      { title: 'x', start: '2026-05-01 10:00:00', has_end: 1, end: '2026-05-01 09:59:59' },
      [{ field: 'end', message: 'must be after start' }],
    ],
    [
      'an end equal to the start',
      { title: 'x', start: '2026-05-01 10:00:00', has_end: 1, end: '2026-05-01 10:00:00' },
      [{ field: 'end', message: 'must be after start' }],
    ],
    [
      'rsvp 3',
      { title: 'x', start: '2026-05-01 10:00:00', rsvp: 3 },
      [{ field: 'rsvp', message: 'must be one of 0, 1, 2' }],
    ],
    [
      'all_day 2',
      { title: 'x', start: '2026-05-01 10:00:00', all_day: 2 },
      [{ field: 'all_day', message: 'must be 0 or 1' }],
    ],
    [
      'type assignment',
      { title: 'x', start: '2026-05-01 10:00:00', type: 'assignment' },
      [
        {
          field: 'type',
          message: 'must be event: assignment and discussion due events come with their assignment or discussion',
        },
      ],
    ],
    [
      'type quiz',
      { title: 'x', start: '2026-05-01 10:00:00', type: 'quiz' },
      [{ field: 'type', message: 'must be one of event, assignment, discussion' }],
    ],
  ])('refuses %s with 400 naming the member, writing nothing', async (_name, body, issues) => {
    const teacher = await as(w.teacher);
    const refused = await expectNothingWritten(() => teacher.post(base(), body));
    expect([refused.status, refused.json.issues]).toEqual([400, issues]);
  });

  it('checks an update against the event as it stands: an end before the kept start is refused', async () => {
    const teacher = await as(w.teacher);
    const created = await teacher.post(base(), { title: 'Lab', start: '2026-05-01 10:00:00' });
    const path = `${base()}/${created.json.id}`;
    await expectNothingWritten(async () => {
      const refused = await teacher.put(path, { has_end: 1, end: '2026-05-01 09:00:00' });
      expect([refused.status, refused.json.issues]).toEqual([400, [{ field: 'end', message: 'must be after start' }]]);
      const cleared = await teacher.put(path, { title: null });
      expect([cleared.status, cleared.json.issues]).toEqual([400, [{ field: 'title', message: 'is required' }]]);
    });
  });
});

describe('due events of assignments and discussions', () => {
  it('are listed with the others, not editable, and refuse update and delete with 403 even for administrators', async () => {
    // One after the other: events that start together are listed in the order they were made.
    const due = (type: 'ASSIGNMENT' | 'DISCUSSION') =>
      createCalendarEvent(
        { type: 'SECTION', id: section.id },
        { start: new Date('2026-04-20T15:00:00Z'), type, authorId: w.teacher.id },
      );
    const assignment = await due('ASSIGNMENT');
    const discussion = await due('DISCUSSION');
    const teacher = await as(w.teacher);
    const listed = await teacher.get(`/sections/${section.id}/events?start_date=2026-04-20&end_date=2026-04-20`);
    expect(
      listed.json.event.map((event: { id: number; type: string; editable: number }) => [
        event.id,
        event.type,
        event.editable,
      ]),
    ).toEqual([
      [assignment.id, 'assignment', 0],
      [discussion.id, 'discussion', 0],
    ]);
    await expectNothingWritten(async () => {
      for (const event of [assignment, discussion]) {
        const path = `/sections/${section.id}/events/${event.id}`;
        const refused = await teacher.put(path, { title: 'Moved' });
        expect([refused.status, refused.json]).toEqual([
          403,
          { error: 'The due date of an assignment or discussion changes only with the assignment or discussion' },
        ]);
        expect((await (await as(w.districtAdmin)).delete(path)).status).toBe(403);
      }
    });
  });
});

describe('GraphQL', () => {
  it('has twins of the REST operations that return the same data, in payloads', async () => {
    const realm = { type: 'SECTION', id: String(section.id) };
    const graphql = await clients.graphql(w.teacher);
    const created = await graphql(
      `mutation($input: CreateCalendarEventInput!) {
        createCalendarEvent(input: $input) {
          calendarEvent {
            id: databaseId title localStart hasEnd localEnd allDay rsvp commentsEnabled type realmType realmId editable
          }
          userErrors { field code message }
        }
      }`,
      {
        input: {
          realm,
          title: 'Quiz review',
          start: '2026-05-20 14:00:00',
          hasEnd: true,
          end: '2026-05-20 15:00:00',
          rsvp: 'INVITED',
        },
      },
    );
    const event = created.data.createCalendarEvent.calendarEvent;
    expect(created.data.createCalendarEvent).toEqual({
      calendarEvent: {
        id: event.id,
        title: 'Quiz review',
        localStart: '2026-05-20 14:00:00',
        hasEnd: true,
        localEnd: '2026-05-20 15:00:00',
        allDay: false,
        rsvp: 'INVITED',
        commentsEnabled: true,
        type: 'EVENT',
        realmType: 'SECTION',
        realmId: String(section.id),
        editable: true,
      },
      userErrors: [],
    });
    const rest = await (await as(w.teacher)).get(`/sections/${section.id}/events/${event.id}`);
    expect(rest.json).toMatchObject({
      id: Number(event.id),
      title: 'Quiz review',
      start: '2026-05-20 14:00:00',
      end: '2026-05-20 15:00:00',
      rsvp: 1,
    });

    const updated = await graphql(
      `mutation($input: UpdateCalendarEventInput!) { updateCalendarEvent(input: $input) {
        calendarEvent { hasEnd localEnd end } userErrors { code } } }`,
      { input: { realm, id: event.id, hasEnd: false } },
    );
    expect(updated.data.updateCalendarEvent).toEqual({
      calendarEvent: { hasEnd: false, localEnd: null, end: null },
      userErrors: [],
    });
    const refused = await expectNothingWritten(() =>
      graphql(
        `mutation($realm: RealmInput!) { createCalendarEvent(input: { realm: $realm, title: "x", start: "soon" }) {
          calendarEvent { id } userErrors { field code message } } }`,
        { realm },
      ),
    );
    expect(refused.data.createCalendarEvent).toEqual({
      calendarEvent: null,
      userErrors: [
        {
          field: ['input', 'start'],
          code: 'INVALID_FORMAT',
          message: 'must be a date and time as YYYY-MM-DD HH:MM:SS',
        },
      ],
    });
    const remove = `mutation($input: DeleteCalendarEventInput!) { deleteCalendarEvent(input: $input) {
      deletedCalendarEventId userErrors { field code message } } }`;
    const deleted = await graphql(remove, { input: { realm, id: event.id } });
    expect(deleted.data.deleteCalendarEvent).toEqual({
      deletedCalendarEventId: encodeGlobalId('CalendarEvent', Number(event.id)),
      userErrors: [],
    });
    const again = await graphql(remove, { input: { realm, id: encodeGlobalId('CalendarEvent', Number(event.id)) } });
    expect(again.data.deleteCalendarEvent).toEqual({
      deletedCalendarEventId: null,
      userErrors: [{ field: ['input', 'id'], code: 'NOT_FOUND', message: `CalendarEvent ${event.id} was not found` }],
    });
  });

  describe("calendar: the viewer's events between two instants, across realms", () => {
    let cast: World;
    const calendarQuery = `query($from: DateTime!, $to: DateTime!, $limit: Int) {
      calendar(from: $from, to: $to, limit: $limit) { total items { id: databaseId title realmType } }
    }`;

    beforeAll(async () => {
      cast = await createWorld();
      const enrolled = await createSection(cast.school.id, [{ userId: cast.student.id }]);
      const joined = await createGroup(cast.school.id, { members: [cast.student.id] });
      const notEnrolled = await createSection(cast.school.id, [{ userId: cast.teacher.id, admin: true }]);
      const notJoined = await createGroup(cast.school.id, { privacyLevel: 'EVERYONE' });
      const at = (iso: string) => ({ start: new Date(iso) });
      const realmsOfStudent: [string, RealmType, number, string][] = [
        ['district', 'DISTRICT', cast.district.id, '2026-09-01T08:00:00Z'],
        ['school', 'SCHOOL', cast.school.id, '2026-09-02T08:00:00Z'],
        ['building', 'SCHOOL', cast.building.id, '2026-09-03T08:00:00Z'],
        ['own', 'USER', cast.student.id, '2026-09-04T08:00:00Z'],
        ['section', 'SECTION', enrolled.id, '2026-09-05T08:00:00Z'],
        ['group', 'GROUP', joined.id, '2026-09-06T08:00:00Z'],
      ];
      for (const [title, type, id, start] of realmsOfStudent)
        await createCalendarEvent({ type, id }, { ...at(start), title });
      // Started before the span and still under way in it.
      await createCalendarEvent(
        { type: 'SECTION', id: enrolled.id },
        { start: new Date('2026-08-20T00:00:00Z'), end: new Date('2026-09-02T00:00:00Z'), title: 'longRunning' },
      );
      // Not the student's: another section and group, a teacher's own, another school's, and before and after the span.
      const others: [RealmType, number, string][] = [
        ['SECTION', notEnrolled.id, '2026-09-05T09:00:00Z'],
        ['GROUP', notJoined.id, '2026-09-05T09:00:00Z'],
        ['USER', cast.teacher.id, '2026-09-05T09:00:00Z'],
        ['SCHOOL', cast.otherSchool.id, '2026-09-05T09:00:00Z'],
        ['SCHOOL', cast.school.id, '2026-08-31T23:59:59Z'],
        ['SCHOOL', cast.school.id, '2026-10-01T00:00:00Z'],
      ];
      for (const [type, id, start] of others) await createCalendarEvent({ type, id }, at(start));
    });

    it("shows the events of the viewer's district, school, building, own, sections and groups under way in [from, to)", async () => {
      const graphql = await clients.graphql(cast.student);
      const answer = await graphql(calendarQuery, {
        from: '2026-09-01T00:00:00Z',
        to: '2026-10-01T00:00:00Z',
        limit: 200,
      });
      const expected = ['longRunning', 'district', 'school', 'building', 'own', 'section', 'group'];
      expect(answer.data.calendar.items.map((item: { title: string }) => item.title)).toEqual(expected);
      expect(answer.data.calendar.total).toBe(7);
    });

    it('refuses a span that ends before it starts or is longer than 400 days', async () => {
      const graphql = await clients.graphql(cast.student);
      const backwards = await graphql(calendarQuery, { from: '2026-09-02T00:00:00Z', to: '2026-09-01T00:00:00Z' });
      expect([backwards.status, backwards.errors?.[0]?.message]).toEqual([400, 'to must be after from']);
      const long = await graphql(calendarQuery, { from: '2026-01-01T00:00:00Z', to: '2027-02-06T00:00:00Z' });
      expect([long.status, long.errors?.[0]?.message]).toEqual([400, 'A calendar spans at most 400 days']);
    });
  });
});

describe('deleting a realm', () => {
  it('deletes its calendar events with it', async () => {
    const doomed = await createGroup(w.school.id, { admins: [w.teacher.id] });
    const event = await createCalendarEvent(
      { type: 'GROUP', id: doomed.id },
      { start: new Date('2026-05-01T10:00:00Z') },
    );
    expect((await (await as(w.teacher)).delete(`/groups/${doomed.id}`)).status).toBe(204);
    expect(await db().calendarEvent.findUnique({ where: { id: event.id } })).toBeNull();
  });
});

describe('attachments', () => {
  const base = () => `/sections/${section.id}/events`;

  it("attaches uploaded files (file-attachment), lists them with with_attachments=1 and serves them to the realm's readers", async () => {
    const teacher = await as(w.teacher);
    const bytes = Buffer.from('Permission slip, sign and return.');
    const fileId = await uploadFile(teacher, bytes, 'slip.txt');
    const created = await teacher.post(base(), {
      title: 'Field trip',
      start: '2026-05-14 08:00:00',
      'file-attachment': { id: [fileId] },
    });
    expect(created.status).toBe(201);
    const path = `${base()}/${created.json.id}`;
    expect(created.json).not.toHaveProperty('attachments');
    const download = url(`${path}/attachments/${fileId}`);
    const file = {
      id: fileId,
      type: 'file',
      title: 'slip.txt',
      filename: 'slip.txt',
      filesize: bytes.length,
      md5_checksum: md5(bytes),
      download_path: download,
    };

    const student = await as(w.student);
    expect((await student.get(`${path}?with_attachments=1`)).json.attachments).toEqual({ files: { file: [file] } });
    expect((await student.get(path)).json).not.toHaveProperty('attachments');
    const listed = await student.get(`${base()}?with_attachments=1&limit=200`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.event.find((event: { id: number }) => event.id === created.json.id).attachments).toEqual({
      files: { file: [file] },
    });
    const xml = await student.get(`${path}?with_attachments=1`, { accept: 'xml' });
    expect(xml.text).toContain(`<attachments><files><file><id>${fileId}</id><type>file</type><title>slip.txt</title>`);

    const served = await student.get(`${path}/attachments/${fileId}`);
    expect([served.status, served.text, served.headers.get('content-length')]).toEqual([
      200,
      bytes.toString(),
      String(bytes.length),
    ]);
    expect((await (await as(w.parent)).get(`${path}/attachments/${fileId}`)).status).toBe(403);
    expect((await (await as(w.outsider)).get(`${path}/attachments/${fileId}`)).status).toBe(404);
    expect((await student.get(`${path}/attachments/999999`)).status).toBe(404);
  });

  it("replaces the files on update, discarding those left out, and refuses a file that is not the caller's to attach", async () => {
    const teacher = await as(w.teacher);
    const [first, second] = [
      await uploadFile(teacher, Buffer.from('one'), 'one.txt'),
      await uploadFile(teacher, Buffer.from('two'), 'two.txt'),
    ];
    const created = await teacher.post(base(), {
      title: 'Lab',
      start: '2026-05-15 08:00:00',
      'file-attachment': { id: [first] },
    });
    const path = `${base()}/${created.json.id}`;
    expect((await teacher.put(path, `<body><file-attachment><id>${second}</id></file-attachment></body>`)).status).toBe(
      204,
    );
    expect(
      (await teacher.get(`${path}?with_attachments=1`)).json.attachments.files.file.map(
        (file: { id: number }) => file.id,
      ),
    ).toEqual([second]);
    // The file left out is gone, its bytes removed once the update committed.
    expect(await db().upload.findUnique({ where: { id: first } })).toBeNull();

    const studentsFile = await uploadFile(await as(w.student), Buffer.from('mine'), 'mine.txt');
    await expectNothingWritten(async () => {
      const refused = await teacher.post(base(), {
        title: 'x',
        start: '2026-05-15 08:00:00',
        'file-attachment': { id: [studentsFile] },
      });
      expect([refused.status, refused.json.issues]).toEqual([
        400,
        [{ field: 'file-attachment/id.0', message: `file ${studentsFile} was not found among your uploads` }],
      ]);
      const again = await teacher.post(base(), {
        title: 'x',
        start: '2026-05-15 08:00:00',
        'file-attachment': { id: [second] },
      });
      expect(again.json.issues).toEqual([
        { field: 'file-attachment/id.0', message: `file ${second} is attached already` },
      ]);
    });

    // Deleting the event discards its files.
    expect((await teacher.delete(path)).status).toBe(204);
    expect(await db().upload.findUnique({ where: { id: second } })).toBeNull();
  });
});

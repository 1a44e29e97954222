import { db } from '../../../src/db/database';
import { createCalendarEvent, createSection, createStoredUpload, unique } from '../../support/factories';
import { type Fixture, outcome, permissionCases } from '../../support/permissions';

const id = (object: { id: number }) => String(object.id);
type Tables = { section: { id: number }; event: { id: number }; dueEvent: { id: number }; file: { id: number } };
const sectionRealm = (f: Fixture<Tables>) => ({ type: 'SECTION' as const, id: f.section.id });
const graphqlRealm = (f: Fixture<Tables>) => ({ realm: { type: 'SECTION', id: id(f.section) } });
const freshEvent = (f: Fixture<Tables>) =>
  createCalendarEvent(sectionRealm(f), { start: new Date('2026-05-01T10:00:00Z') });
const newEvent = { title: 'Lab day', start: '2026-05-01 10:00:00' };
const hasId = (items: { id: string }[], object: { id: number }) => items.some((item) => item.id === id(object));

// A section's events: its readers read them (a same-school user who is not enrolled is refused, as for posts), its
// administrators write them, and due events change with their assignment only. Feeds are their owner's alone.
// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
export default permissionCases<Tables>(
  'calendar',
  async (world) => {
    const section = await createSection(world.school.id, [
      { userId: world.teacher.id, admin: true },
      { userId: world.student.id },
    ]);
    const realm = { type: 'SECTION' as const, id: section.id };
    const event = await createCalendarEvent(realm, { start: new Date('2026-09-01T15:00:00Z') });
    const file = await createStoredUpload(world.teacher.id, { attached: true });
    await db().calendarEventAttachment.create({ data: { eventId: event.id, uploadId: file.id } });
    return {
      section,
      event,
      file,
      dueEvent: await createCalendarEvent(realm, { start: new Date('2026-09-02T15:00:00Z'), type: 'ASSIGNMENT' }),
    };
  },
  [
    {
      route: 'GET /[realm]/events',
      name: "a section's",
      expect: 'h h o o f o o',
      request: (f) => ({ realm: sectionRealm(f) }),
    },
    {
      route: 'GET /[realm]/events',
      name: "the district's",
      expect: 'h o o o o o o',
      request: (f) => ({ realm: { type: 'DISTRICT', id: f.district.id } }),
    },
    {
      route: 'GET /[realm]/events/{id}',
      name: "a section's",
      expect: 'h h o o f o o',
      request: (f) => ({ realm: sectionRealm(f), params: { id: f.event.id } }),
    },
    {
      route: 'GET /[realm]/events/{id}/attachments/{fileId}',
      name: "a file of a section's event",
      expect: 'h h o o f o o',
      request: (f) => ({ realm: sectionRealm(f), params: { id: f.event.id, fileId: f.file.id } }),
    },
    {
      route: 'POST /[realm]/events',
      name: 'in a section',
      expect: 'h h f o f o o',
      request: (f) => ({ realm: sectionRealm(f), body: newEvent }),
    },
    {
      route: 'POST /[realm]/events',
      name: 'in the district',
      expect: 'h f f f f f o',
      request: (f) => ({ realm: { type: 'DISTRICT', id: f.district.id }, body: newEvent }),
    },
    {
      route: 'PUT /[realm]/events/{id}',
      name: "a section's",
      expect: 'h h f o f o o',
      request: (f, caller) => ({
        realm: sectionRealm(f),
        params: { id: f.event.id },
        body: { title: `by ${caller.person}` },
      }),
    },
    {
      route: 'PUT /[realm]/events/{id}',
      name: "an assignment's due event",
      expect: 'h h f f f f f',
      request: (f) => ({ realm: sectionRealm(f), params: { id: f.dueEvent.id }, body: { title: 'Moved' } }),
    },
    {
      route: 'DELETE /[realm]/events/{id}',
      name: "a section's",
      expect: 'h h f o f o o',
      request: async (f) => ({ realm: sectionRealm(f), params: { id: (await freshEvent(f)).id } }),
    },

    {
      graphql: 'query($realm: RealmInput!, $id: ID!) { calendarEvent(realm: $realm, id: $id) { id: databaseId } }',
      name: "a section's",
      expect: 'h h o o f o o',
      variables: (f) => ({ ...graphqlRealm(f), id: id(f.event) }),
    },
    {
      graphql: 'query($realm: RealmInput!) { calendarEvents(realm: $realm) { total } }',
      name: "a section's",
      expect: 'h h o o f o o',
      variables: graphqlRealm,
    },
    {
      graphql: 'query($realm: RealmInput!) { calendarEventsConnection(realm: $realm) { totalCount } }',
      name: "a section's",
      expect: 'h h o o f o o',
      variables: graphqlRealm,
    },
    {
      graphql: '{ calendar(from: "2026-08-01T00:00:00Z", to: "2026-10-01T00:00:00Z") { items { id: databaseId } } }',
      name: "a section's event, in its users' calendars",
      expect: 'h h o o h h h',
      finds: (answer, f) => hasId(answer.items, f.event),
    },
    {
      graphql:
        '{ calendarConnection(from: "2026-08-01T00:00:00Z", to: "2026-10-01T00:00:00Z", first: 200) { edges { node { id: databaseId } } } }',
      name: "a section's event, in its users' calendars",
      expect: 'h h o o h h h',
      finds: (answer, f) =>
        hasId(
          answer.edges.map((edge: { node: { id: string } }) => edge.node),
          f.event,
        ),
    },
    {
      graphql: `mutation($input: CreateCalendarEventInput!) { createCalendarEvent(input: $input) { ${outcome} } }`,
      name: 'in a section',
      expect: 'h h f o f o o',
      variables: (f) => ({ input: { ...graphqlRealm(f), ...newEvent } }),
    },
    {
      graphql: `mutation($input: UpdateCalendarEventInput!) { updateCalendarEvent(input: $input) { ${outcome} } }`,
      name: "a section's",
      expect: 'h h f o f o o',
      variables: (f) => ({ input: { ...graphqlRealm(f), id: id(f.event), allDay: true } }),
    },
    {
      graphql: `mutation($input: DeleteCalendarEventInput!) { deleteCalendarEvent(input: $input) { ${outcome} } }`,
      name: "a section's",
      expect: 'h h f o f o o',
      variables: async (f) => ({ input: { ...graphqlRealm(f), id: id(await freshEvent(f)) } }),
    },

    { graphql: '{ calendarFeeds { id: databaseId } }', name: "the viewer's own", expect: 'o o o o o o o' },
    { graphql: '{ calendarFeedsConnection { totalCount } }', name: "the viewer's own", expect: 'o o o o o o o' },
    {
      graphql: `mutation { createCalendarFeed { ${outcome} } }`,
      name: "of the viewer's calendar",
      expect: 'o o o o o o o',
    },
    {
      graphql: `mutation($input: DeleteCalendarFeedInput!) { deleteCalendarFeed(input: $input) { ${outcome} } }`,
      name: "a student's",
      expect: 'h h o h h h h',
      variables: async (f) => ({
        input: {
          id: id(await db().calendarFeed.create({ data: { userId: f.student.id, tokenHash: unique('feed') } })),
        },
      }),
    },
  ],
);

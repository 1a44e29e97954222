import ical, { type VEvent } from 'node-ical';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/core/global-id';
import { db } from '../../src/db/database';
import { type GraphQLResponse, clientsFor } from '../support/client';
import { type World, createCalendarEvent, createSection, createWorld, watchDomainEvents } from '../support/factories';
import { useTestServer } from '../support/harness';
import { testOrigin } from '../support/wire';

const server = useTestServer();
const clients = clientsFor(server);
let w: World;
let section: { id: number };

const createFeed = `mutation { createCalendarFeed {
  calendarFeed { id databaseId createdAt } url userErrors { code } } }`;
const deleteFeed = `mutation($input: DeleteCalendarFeedInput!) { deleteCalendarFeed(input: $input) {
  deletedCalendarFeedId userErrors { field code message } } }`;

/** The new feed a createCalendarFeed answered: its ids, when it was made, and its URL. */
const issued = (answer: GraphQLResponse) => {
  const { calendarFeed, url } = answer.data.createCalendarFeed;
  return {
    id: calendarFeed.databaseId as string,
    globalId: calendarFeed.id as string,
    createdAt: calendarFeed.createdAt as string,
    url: url as string,
  };
};
const day = 86_400_000;
const soon = (days: number, hour = 15) => new Date(Math.floor(Date.now() / day) * day + days * day + hour * 3_600_000);

/** The feed as a calendar app reads it: no credentials, only the URL. */
async function subscribe(feedUrl: string) {
  const response = await server.fetch(new URL(feedUrl).pathname);
  const text = await response.text();
  const events =
    response.status === 200
      ? Object.values(ical.sync.parseICS(text)).filter((item): item is VEvent => item?.type === 'VEVENT')
      : [];
  return { response, text, events, titles: events.map((event) => String(event.summary)).sort() };
}

beforeAll(async () => {
  w = await createWorld();
  await db().district.update({ where: { id: w.district.id }, data: { timeZone: 'America/Chicago' } });
  section = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
  await createCalendarEvent(
    { type: 'DISTRICT', id: w.district.id },
    { start: soon(3), end: soon(3, 17), title: 'District meeting' },
  );
  await createCalendarEvent({ type: 'SECTION', id: section.id }, { start: soon(5), title: 'Section quiz' });
  await createCalendarEvent({ type: 'USER', id: w.student.id }, { start: soon(6), title: 'Dentist' });
  await createCalendarEvent({ type: 'USER', id: w.teacher.id }, { start: soon(6), title: 'Teacher only' });
  await createCalendarEvent({ type: 'SCHOOL', id: w.otherSchool.id }, { start: soon(6), title: 'Other school' });
  // Midnight to midnight on the district's clock: 05:00 UTC in Chicago's summer, 06:00 in its winter.
  await createCalendarEvent(
    { type: 'SCHOOL', id: w.school.id },
    { start: new Date('2026-12-24T06:00:00Z'), allDay: true, title: 'Winter break' },
  );
  await createCalendarEvent({ type: 'SCHOOL', id: w.school.id }, { start: soon(-400), title: 'Long ago' });
});

describe('private iCalendar feeds', () => {
  it("serves the user's calendar as text/calendar (RFC 5545) at a URL that needs no other credential", async () => {
    const graphql = await clients.graphql(w.student);
    const events = await watchDomainEvents();
    const created = await graphql(createFeed);
    const feed = issued(created);
    expect(created.data.createCalendarFeed).toEqual({
      calendarFeed: {
        id: encodeGlobalId('CalendarFeed', Number(feed.id)),
        databaseId: feed.id,
        createdAt: feed.createdAt,
      },
      url: expect.stringMatching(/^http:\/\/lectern\.test\/calendar\/[\w-]{43}\.ics$/),
      userErrors: [],
    });
    expect(feed.url.startsWith(testOrigin)).toBe(true);
    expect(await events()).toEqual([
      ['calendar_feed.create', 'USER', w.student.id, Number(feed.id), w.student.id, w.district.id, w.school.id],
    ]);

    const { response, text, events: items, titles } = await subscribe(feed.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('private, max-age=300');
    expect(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(titles).toEqual(['Dentist', 'District meeting', 'Section quiz', 'Winter break']);
    const meeting = items.find((item) => item.summary === 'District meeting')!;
    expect([meeting.start.toISOString(), meeting.end!.toISOString()]).toEqual([
      soon(3).toISOString(),
      soon(3, 17).toISOString(),
    ]);
    // An all-day event is a date: 24 December on the district's calendar, ending (exclusively) on the 25th.
    expect(text).toMatch(/DTSTART;VALUE=DATE:20261224\r\n/);
    expect(text).toMatch(/DTEND;VALUE=DATE:20261225\r\n/);
    const uids = items.map((item) => item.uid);
    expect(new Set(uids).size).toBe(uids.length);
  });

  it("follows the user's calendar as it is now: leaving a section takes its events out of the feed", async () => {
    const trip = await createSection(w.school.id, [{ userId: w.student.id }]);
    await createCalendarEvent({ type: 'SECTION', id: trip.id }, { start: soon(8), title: 'Field trip' });
    const feed = issued(await (await clients.graphql(w.student))(createFeed));
    expect((await subscribe(feed.url)).titles).toContain('Field trip');
    await db().enrollment.deleteMany({ where: { sectionId: trip.id } });
    expect((await subscribe(feed.url)).titles).not.toContain('Field trip');
  });

  it("lists the viewer's feeds without their URLs, and revokes one: its URL answers 404 from then on", async () => {
    const graphql = await clients.graphql(w.teacher);
    const feed = issued(await graphql(createFeed));
    expect((await subscribe(feed.url)).titles).toEqual([
      'District meeting',
      'Section quiz',
      'Teacher only',
      'Winter break',
    ]);
    const listed = await graphql('{ calendarFeeds { id: databaseId createdAt } }');
    expect(listed.data.calendarFeeds).toEqual([{ id: feed.id, createdAt: feed.createdAt }]);

    // Only its owner revokes a feed; to anyone else it does not exist.
    const elsewhere = await (await clients.graphql(w.districtAdmin))(deleteFeed, { input: { id: feed.globalId } });
    expect(elsewhere.data.deleteCalendarFeed).toEqual({
      deletedCalendarFeedId: null,
      userErrors: [{ field: ['input', 'id'], code: 'NOT_FOUND', message: `CalendarFeed ${feed.id} was not found` }],
    });
    expect((await subscribe(feed.url)).response.status).toBe(200);

    const events = await watchDomainEvents();
    expect((await graphql(deleteFeed, { input: { id: feed.globalId } })).data.deleteCalendarFeed).toEqual({
      deletedCalendarFeedId: feed.globalId,
      userErrors: [],
    });
    expect(await events()).toEqual([
      ['calendar_feed.delete', 'USER', w.teacher.id, Number(feed.id), w.teacher.id, w.district.id, w.school.id],
    ]);
    const revoked = await subscribe(feed.url);
    expect([revoked.response.status, revoked.text]).toEqual([404, 'Not Found']);
    expect((await graphql('{ calendarFeeds { id: databaseId } }')).data.calendarFeeds).toEqual([]);
  });

  it("writes an event's description, HTML, as plain text: blocks on lines of their own, entities decoded, links with their URL", async () => {
    // A section of its own, so that the other tests' feeds keep their events.
    const trip = await createSection(w.school.id, [{ userId: w.teacher.id, admin: true }, { userId: w.student.id }]);
    const description =
      '<p>Bring <b>lunch</b> &amp; a coat</p><ul><li>Boots</li><li>Water</li></ul>' +
      '<p>See <a href="https://example.org/trip">the plan</a><img src=x onerror=alert(1)></p><script>alert(2)</script>';
    const created = await (await clients.rest(w.teacher)).post(`/sections/${trip.id}/events`, {
      title: 'Museum trip',
      start: `${soon(5).toISOString().slice(0, 10)} 08:00:00`,
      description,
    });
    expect(created.status).toBe(201);
    const feed = issued(await (await clients.graphql(w.student))(createFeed));
    const { events } = await subscribe(feed.url);
    const event = events.find((item) => item.summary === 'Museum trip')!;
    expect(event.description).toBe(
      'Bring lunch & a coat\n\n * Boots\n * Water\n\nSee the plan [https://example.org/trip]',
    );
  });

  it('answers 404 for a token that opens no feed and for paths that are not feeds, and 405 for other methods', async () => {
    const graphql = await clients.graphql(w.parent);
    const feed = issued(await graphql(createFeed));
    const path = new URL(feed.url).pathname;
    for (const other of [
      '/calendar/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics',
      '/calendar/',
      '/calendar/../graphql.ics',
      `${path}x`,
    ]) {
      expect((await server.fetch(other)).status).toBe(404);
    }
    const posted = await server.fetch(path, { method: 'POST' });
    expect([posted.status, posted.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    const head = await server.fetch(path, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([
      200,
      'text/calendar; charset=utf-8',
      '',
    ]);
  });
});

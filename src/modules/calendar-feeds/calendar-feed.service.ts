import ical, { type ICalEventData } from 'ical-generator';
import { TZDate } from '@date-fns/tz';
import { findByStorableId } from '../../auth/realms';
import { hashToken, randomToken } from '../../auth/secrets';
import { type Viewer, toViewerUser, viewerUserSelection } from '../../auth/viewer';
import { NotFoundError } from '../../core/errors';
import { htmlToPlainText } from '../../core/html';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import { calendarOrder, calendarRealmsWhere, calendarWhere } from '../calendar-events/calendar-event.service';
import type { Prisma } from '../../generated/prisma/client';
import { ownFeedsWhere } from './calendar-feed.policy';

// In the realm of the feed's user, heard only by those who administer it: a feed's existence is the user's business.
const feedEvent = (type: `calendar_feed.${string}`, description: string) =>
  defineEvent(type, { object: 'CalendarFeed', realms: ['USER'], description, audience: 'administrators' });
export const calendarFeedEvents = {
  create: feedEvent('calendar_feed.create', "A private iCalendar feed of a user's calendar was made."),
  delete: feedEvent('calendar_feed.delete', 'A private iCalendar feed was revoked: its URL no longer answers.'),
};

/** The path of a feed's URL; the token in it is the only credential calendar apps send. */
export const feedPath = (token: string) => `/calendar/${token}.ics`;

type FeedQuery = { select?: Prisma.CalendarFeedSelect };

const scope = (viewer: Viewer) => ({ districtId: viewer.user.districtId, schoolId: viewer.user.schoolId });

/** A new feed of the viewer's own calendar; its token is shown once, only its hash is kept. */
export async function createCalendarFeed(viewer: Viewer, query: FeedQuery) {
  const token = randomToken();
  return writeTransaction(async (tx) => {
    const feed = await tx.calendarFeed.create({ ...query, data: { userId: viewer.id, tokenHash: hashToken(token) } });
    const realm = { type: 'USER' as const, id: viewer.id };
    await recordEvent(tx, calendarFeedEvents.create, {
      realm,
      objectId: feed.id,
      actorId: viewer.id,
      scope: scope(viewer),
    });
    return { feed, token };
  });
}

/** Revokes one of the viewer's feeds; another user's is not found. */
export async function deleteCalendarFeed(viewer: Viewer, id: number) {
  await writeTransaction(async (tx) => {
    const deleted = await findByStorableId(id, (id) =>
      tx.calendarFeed.deleteMany({ where: { id, ...ownFeedsWhere(viewer) } }),
    );
    if (!deleted?.count) throw new NotFoundError('CalendarFeed', id);
    const realm = { type: 'USER' as const, id: viewer.id };
    await recordEvent(tx, calendarFeedEvents.delete, { realm, objectId: id, actorId: viewer.id, scope: scope(viewer) });
  });
  return { id };
}

/** How far back and ahead a feed reaches, and how many events it carries at most. */
const feedWindow = { daysBack: 180, daysAhead: 400, events: 2_000 };

const day = 86_400_000;

/** An all-day event's day as iCalendar writes it: a date, here the UTC date of the district's wall-clock day. */
function wallClockDay(instant: Date, timeZone: string, daysLater = 0): Date {
  const local = new TZDate(instant, timeZone);
  return new Date(Date.UTC(local.getFullYear(), local.getMonth(), local.getDate() + daysLater));
}

/**
 * The iCalendar document (RFC 5545) of the calendar a feed token opens, or null for a token that opens none. The
 * calendar is the user's as it is now: a section they left no longer shows.
 */
export async function renderCalendarFeed(token: string, now = new Date()): Promise<string | null> {
  const feed = await db().calendarFeed.findUnique({
    where: { tokenHash: hashToken(token) },
    select: {
      user: {
        select: {
          ...viewerUserSelection,
          nameFirst: true,
          nameLast: true,
          school: { select: { districtId: true, district: { select: { timeZone: true } } } },
        },
      },
    },
  });
  if (!feed) return null;
  const user = toViewerUser(feed.user);
  const [sections, groups] = await Promise.all([
    db().enrollment.findMany({ where: { userId: user.id, status: 'ACTIVE' }, select: { sectionId: true } }),
    db().groupMembership.findMany({ where: { userId: user.id }, select: { groupId: true } }),
  ]);
  const realms = calendarRealmsWhere(
    user,
    sections.map((row) => row.sectionId),
    groups.map((row) => row.groupId),
  );
  const from = new Date(now.getTime() - feedWindow.daysBack * day);
  const to = new Date(now.getTime() + feedWindow.daysAhead * day);
  const events = await db().calendarEvent.findMany({
    where: calendarWhere(realms, from, to),
    orderBy: calendarOrder,
    take: feedWindow.events,
  });

  const { timeZone } = feed.user.school.district;
  const calendar = ical({
    name: `${feed.user.nameFirst} ${feed.user.nameLast}`.trim(),
    prodId: { company: 'Lectern', product: 'Calendar', language: 'EN' },
  });
  for (const event of events) {
    // All-day events are whole days of the district's calendar; iCalendar's end day is the day after the last.
    const times: Pick<ICalEventData, 'start' | 'end' | 'allDay'> = event.allDay
      ? {
          allDay: true,
          start: wallClockDay(event.start, timeZone),
          end: wallClockDay(event.end ?? event.start, timeZone, 1),
        }
      : { start: event.start, end: event.end ?? event.start };
    calendar.createEvent({
      id: `calendar-event-${event.id}@lectern`,
      ...times,
      summary: event.title,
      // The description is HTML (src/core/html.ts); DESCRIPTION is plain text.
      description: htmlToPlainText(event.description) || null,
      created: event.createdAt,
      lastModified: event.updatedAt,
      stamp: event.updatedAt,
    });
  }
  return calendar.toString();
}

import { httpError } from '../../core/errors';
import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { pageArgs, pageOf, paged, offsetListBeside } from '../../graphql/paging';
import { realmObjectQuery } from '../../graphql/operations';
import { RealmInput, realmRef } from '../../graphql/realm';
import {
  type RealmArgument,
  connectionOf,
  connectionOptions,
  hiddenUnless,
  orderedWindow,
} from '../../graphql/connections';
import type { Viewer } from '../../auth/viewer';
import type { Prisma } from '../../generated/prisma/client';
import {
  assertReadable,
  calendarOrder,
  calendarRealmsWhere,
  calendarWhere,
  dayRange,
  districtTimeZone,
} from './calendar-event.service';

const CalendarEventPage = pageOf('CalendarEvent', 'A page of calendar events.');

/** The longest span one calendar query covers: a school year and then some. */
const longestSpanDays = 400;

const realmEventsArgs = builder.args((t) => ({
  realm: t.field({
    type: RealmInput,
    required: true,
    description: 'The realm (district, school, user, section or group) whose calendar events to list.',
  }),
  startDate: t.string({ description: "First day, `YYYY-MM-DD` or `YYYYMMDD`, in the district's time zone." }),
  endDate: t.string({ description: "Last day, `YYYY-MM-DD` or `YYYYMMDD`, in the district's time zone." }),
}));

const calendarSpanArgs = builder.args((t) => ({
  from: t.field({ type: 'DateTime', required: true, description: 'Start of the span.' }),
  to: t.field({ type: 'DateTime', required: true, description: 'End of the span (not included).' }),
}));

type RealmEventsArguments = { realm: RealmArgument; startDate?: string | null; endDate?: string | null };
type CalendarArguments = { from: Date; to: Date };

/** The events `calendarEvents` and its connection list: those of a realm, of some days; null when the realm is hidden. */
async function realmEventsWhere(
  viewer: Viewer,
  args: RealmEventsArguments,
): Promise<Prisma.CalendarEventWhereInput | null> {
  const realm = realmRef(args.realm);
  if (!(await assertReadable(viewer, realm))) return null;
  const days = dayRange(args.startDate, args.endDate, await districtTimeZone(viewer, viewer.user.districtId));
  return { realmType: realm.type, realmId: realm.id, ...(days ? { start: days } : {}) };
}

/** The events `calendar` and its connection list: the viewer's realms', under way in [from, to). */
async function viewerCalendarWhere(viewer: Viewer, args: CalendarArguments): Promise<Prisma.CalendarEventWhereInput> {
  const span = args.to.getTime() - args.from.getTime();
  if (span <= 0) throw httpError(400, 'BAD_USER_INPUT', 'to must be after from');
  if (span > longestSpanDays * 86_400_000)
    throw httpError(400, 'BAD_USER_INPUT', `A calendar spans at most ${longestSpanDays} days`);
  const [sections, groups] = await Promise.all([viewer.sectionEnrollments(), viewer.groupMemberships()]);
  return calendarWhere(calendarRealmsWhere(viewer.user, [...sections.keys()], [...groups.keys()]), args.from, args.to);
}

type EventsQuery = Pick<Prisma.CalendarEventFindManyArgs, 'select' | 'include' | 'cursor' | 'take' | 'skip'>;

/** A page of a calendar connection, in the order events start. */
async function eventsPage(query: EventsQuery, where: Prisma.CalendarEventWhereInput) {
  return db().calendarEvent.findMany(orderedWindow('CalendarEvent', query, where, calendarOrder));
}

realmObjectQuery('calendarEvent', 'CalendarEvent', {
  description: 'A calendar event of a realm; null when it or its realm does not exist or is hidden from the viewer.',
  readable: assertReadable,
});

builder.queryFields((t) => ({
  calendarEvents: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('calendarEventsConnection'),
    type: CalendarEventPage,
    nullable: true,
    description:
      'The calendar events of a realm in the order they start; null when the realm does not exist or is hidden. Given ' +
      'both `startDate` and `endDate`, only the events that start on those days or between them.',
    args: { ...realmEventsArgs, ...pageArgs },
    resolve: async (_root, args, { viewer }) => {
      const where = await realmEventsWhere(viewer, args);
      if (!where) return null;
      return paged(args, {
        findMany: (query) => db().calendarEvent.findMany({ ...query, where, orderBy: calendarOrder }),
        count: () => db().calendarEvent.count({ where }),
      });
    },
  }),
  calendarEventsConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'CalendarEvent',
      ...connectionOptions,
      cursor: 'start_id',
      ...hiddenUnless((args: RealmEventsArguments, { viewer }) => assertReadable(viewer, realmRef(args.realm))),
      description:
        'The events `calendarEvents` lists, as a Relay connection in the same order (by start, then id); null when the ' +
        'realm does not exist or is hidden.',
      args: realmEventsArgs,
      resolve: async (query, _root, args, { viewer }) => eventsPage(query, (await realmEventsWhere(viewer, args))!),
      totalCount: async (_root, args, { viewer }) =>
        db().calendarEvent.count({ where: (await realmEventsWhere(viewer, args))! }),
    },
    connectionOf('CalendarEvent'),
  ),
  calendar: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('calendarConnection'),
    type: CalendarEventPage,
    description:
      "The viewer's calendar between two instants, in the order events start: the events of their district, school " +
      'and building, their own, and those of the sections they are enrolled in and the groups they belong to, that ' +
      `are under way at some time in [from, to). At most ${longestSpanDays} days at once.`,
    args: { ...calendarSpanArgs, ...pageArgs },
    resolve: async (_root, args, { viewer }) => {
      const where = await viewerCalendarWhere(viewer, args);
      return paged(args, {
        findMany: (query) => db().calendarEvent.findMany({ ...query, where, orderBy: calendarOrder }),
        count: () => db().calendarEvent.count({ where }),
      });
    },
  }),
  calendarConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'CalendarEvent',
      ...connectionOptions,
      cursor: 'start_id',
      description: 'The events `calendar` lists, as a Relay connection in the same order (by start, then id).',
      args: calendarSpanArgs,
      resolve: async (query, _root, args, { viewer }) => eventsPage(query, await viewerCalendarWhere(viewer, args)),
      totalCount: async (_root, args, { viewer }) =>
        db().calendarEvent.count({ where: await viewerCalendarWhere(viewer, args) }),
    },
    connectionOf('CalendarEvent'),
  ),
}));

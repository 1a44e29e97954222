import { httpError } from '../../core/errors';
import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { pageArgs, pageOf, paged } from '../../graphql/paging';
import { realmObjectQuery } from '../../graphql/operations';
import { RealmInput, realmRef } from '../../graphql/realm';
import { assertReadable, calendarOrder, calendarRealmsWhere, calendarWhere, dayRange, districtTimeZone } from './calendar-event.service';

const CalendarEventPage = pageOf('CalendarEvent', 'A page of calendar events.');

/** The longest span one calendar query covers: a school year and then some. */
const longestSpanDays = 400;

realmObjectQuery('calendarEvent', 'CalendarEvent', {
  description: 'A calendar event of a realm; null when it or its realm does not exist or is hidden from the viewer.',
  readable: assertReadable,
});

builder.queryFields((t) => ({
  calendarEvents: t.withAuth({ authenticated: true }).field({
    type: CalendarEventPage,
    nullable: true,
    description:
      'The calendar events of a realm in the order they start; null when the realm does not exist or is hidden. Given ' +
      'both `startDate` and `endDate`, only the events that start on those days or between them.',
    args: {
      realm: t.arg({ type: RealmInput, required: true, description: 'The realm (district, school, user, section or group) whose calendar events to list.' }),
      startDate: t.arg.string({ description: 'First day, `YYYY-MM-DD` or `YYYYMMDD`, in the district\'s time zone.' }),
      endDate: t.arg.string({ description: 'Last day, `YYYY-MM-DD` or `YYYYMMDD`, in the district\'s time zone.' }),
      ...pageArgs,
    },
    resolve: async (_root, args, { viewer }) => {
      const realm = realmRef(args.realm);
      if (!(await assertReadable(viewer, realm))) return null;
      const days = dayRange(args.startDate, args.endDate, await districtTimeZone(viewer, viewer.user.districtId));
      const where = { realmType: realm.type, realmId: realm.id, ...(days ? { start: days } : {}) };
      return paged(args, {
        findMany: (query) => db().calendarEvent.findMany({ ...query, where, orderBy: calendarOrder }),
        count: () => db().calendarEvent.count({ where }),
      });
    },
  }),
  calendar: t.withAuth({ authenticated: true }).field({
    type: CalendarEventPage,
    description:
      'The viewer\'s calendar between two instants, in the order events start: the events of their district, school ' +
      'and building, their own, and those of the sections they are enrolled in and the groups they belong to, that ' +
      `are under way at some time in [from, to). At most ${longestSpanDays} days at once.`,
    args: {
      from: t.arg({ type: 'DateTime', required: true, description: 'Start of the span.' }),
      to: t.arg({ type: 'DateTime', required: true, description: 'End of the span (not included).' }),
      ...pageArgs,
    },
    resolve: async (_root, args, { viewer }) => {
      const span = args.to.getTime() - args.from.getTime();
      if (span <= 0) throw httpError(400, 'BAD_USER_INPUT', 'to must be after from');
      if (span > longestSpanDays * 86_400_000) throw httpError(400, 'BAD_USER_INPUT', `A calendar spans at most ${longestSpanDays} days`);
      const [sections, groups] = await Promise.all([viewer.sectionEnrollments(), viewer.groupMemberships()]);
      const where = calendarWhere(calendarRealmsWhere(viewer.user, [...sections.keys()], [...groups.keys()]), args.from, args.to);
      return paged(args, {
        findMany: (query) => db().calendarEvent.findMany({ ...query, where, orderBy: calendarOrder }),
        count: () => db().calendarEvent.count({ where }),
      });
    },
  }),
}));

import { can } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';
import { formatWallClock } from '../../core/date-text';
import { builder } from '../../graphql/builder';
import { exposeColumns } from '../../graphql/columns';
import { RealmTypeEnum } from '../../graphql/realm';
import { CalendarEventType, RsvpPolicy } from '../../generated/prisma/enums';
import { calendarEventPolicy } from './calendar-event.policy';
import { districtTimeZone } from './calendar-event.service';

export const CalendarEventTypeEnum = builder.enumType(CalendarEventType, { name: 'CalendarEventType', description: 'What a calendar event is.' });
export const RsvpPolicyEnum = builder.enumType(RsvpPolicy, { name: 'RsvpPolicy', description: 'Who may RSVP to a calendar event.' });

/**
 * An instant as the district's wall clock shows it. A viewer sees only their own district's realms, so every event
 * they see is shown in their district's time zone.
 */
const wallClock = async (instant: Date, viewer: Viewer) => formatWallClock(instant, await districtTimeZone(viewer, viewer.user.districtId));

export const CalendarEventObject = builder.prismaObject('CalendarEvent', {
  fields: (t) => ({
    ...exposeColumns(t, 'CalendarEvent', [
      'id', 'title', 'description', 'start', 'end', 'allDay', 'commentsEnabled', 'realmId', 'authorId', 'createdAt', 'updatedAt',
    ]),
    realmType: t.expose('realmType', { type: RealmTypeEnum }),
    type: t.expose('type', { type: CalendarEventTypeEnum }),
    rsvp: t.expose('rsvp', { type: RsvpPolicyEnum }),
    hasEnd: t.boolean({ description: 'Whether the event has an end.', select: { end: true }, resolve: (event) => event.end !== null }),
    localStart: t.string({
      description: 'The start as `YYYY-MM-DD HH:MM:SS` on the wall clock of the district\'s time zone.',
      select: { start: true },
      resolve: (event, _args, { viewer }) => wallClock(event.start, viewer!),
    }),
    localEnd: t.string({
      nullable: true,
      description: 'The end as `YYYY-MM-DD HH:MM:SS` on the wall clock of the district\'s time zone; null without an end.',
      select: { end: true },
      resolve: (event, _args, { viewer }) => event.end && wallClock(event.end, viewer!),
    }),
    editable: t.boolean({
      description: 'Whether the viewer may change and delete the event.',
      select: { realmType: true, realmId: true, authorId: true, type: true },
      resolve: (event, _args, { viewer }) =>
        can(viewer!, calendarEventPolicy, 'update', { realm: { type: event.realmType, id: event.realmId }, authorId: event.authorId, type: event.type }),
    }),
  }),
});

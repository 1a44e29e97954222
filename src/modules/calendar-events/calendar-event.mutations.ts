import { builder } from '../../graphql/builder';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { deleteMutation, objectMutation, required } from '../../graphql/operations';
import { RealmInput, parseId, realmRef } from '../../graphql/realm';
import { createCalendarEvent, deleteCalendarEvent, updateCalendarEvent } from './calendar-event.service';
import { CalendarEventTypeEnum, RsvpPolicyEnum } from './calendar-event.type';

const wallClock = 'as `YYYY-MM-DD HH:MM:SS` on the wall clock of the district\'s time zone';

/** The members of a create, all optional for an update (members left out keep their values). */
const eventInput = (name: string, description: string, create: boolean) =>
  builder.inputType(name, {
    description,
    fields: (t) => ({
      title: t.string({ required: create, description: 'Title.' }),
      description: t.string({ description: 'Description, as HTML, sanitized on write (scripts, event handlers and javascript: links are removed).' }),
      start: t.string({ required: create, description: `The start, ${wallClock}.` }),
      hasEnd: t.boolean({ description: 'Whether the event has an end (default false); `end` counts only while it does.' }),
      end: t.string({ description: `The end, ${wallClock}; required while \`hasEnd\` is true, and after the start.` }),
      allDay: t.boolean({ description: 'Whether the event takes whole days (default false).' }),
      rsvp: t.field({ type: RsvpPolicyEnum, description: 'Who may RSVP (default NOBODY).' }),
      commentsEnabled: t.boolean({ description: 'Whether users may discuss the event (default true).' }),
      fileIds: t.idList({ description: 'Uploaded files (the viewer\'s, not attached elsewhere) to attach; on an update the list replaces the event\'s files.' }),
      type: t.field({
        type: CalendarEventTypeEnum,
        description: 'Only EVENT: assignment and discussion due events come with their assignment or discussion.',
      }),
    }),
  });

const CreateCalendarEventInput = eventInput('CreateCalendarEventInput', 'A new calendar event.', true);
const UpdateCalendarEventInput = eventInput('UpdateCalendarEventInput', 'Changes to a calendar event; members left out keep their values.', false);

objectMutation('createCalendarEvent', {
  type: 'CalendarEvent',
  description: 'Creates a calendar event in a realm the viewer may post in.',
  errors: [ValidationError, NotFoundError, ConflictError],
  args: (arg) => ({ realm: arg(required(RealmInput, 'The realm (district, school, user, section or group) the calendar event belongs to.')), input: arg(required(CreateCalendarEventInput, 'The new calendar event.')) }),
  resolve: (viewer, args, query) => createCalendarEvent(viewer, realmRef(args.realm), args.input, query),
});
objectMutation('updateCalendarEvent', {
  type: 'CalendarEvent',
  description: 'Changes a calendar event (not a due event, which changes with its assignment or discussion).',
  errors: [ValidationError, NotFoundError, ConflictError],
  args: (arg) => ({ realm: arg(required(RealmInput, 'The realm (district, school, user, section or group) the calendar event belongs to.')), id: arg.id({ required: true, description: 'The calendar event to change.' }), input: arg(required(UpdateCalendarEventInput, 'What to change; members left out keep their values.')) }),
  resolve: (viewer, args, query) => updateCalendarEvent(viewer, realmRef(args.realm), parseId(args.id, 'CalendarEvent'), args.input, query),
});
deleteMutation('deleteCalendarEvent', {
  description: 'Deletes a calendar event (not a due event, which goes with its assignment or discussion).',
  errors: [NotFoundError],
  args: (arg) => ({ realm: arg(required(RealmInput, 'The realm (district, school, user, section or group) the calendar event belongs to.')), id: arg.id({ required: true, description: 'The calendar event to delete.' }) }),
  resolve: (viewer, args) => deleteCalendarEvent(viewer, realmRef(args.realm), parseId(args.id, 'CalendarEvent')),
});

import { objectIdInput, objectIdMember, withMembers } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import { RealmInput, parseId, realmInputSchema, realmRef } from '../../graphql/realm';
import { createCalendarEvent, deleteCalendarEvent, updateCalendarEvent } from './calendar-event.service';
import { CalendarEventTypeEnum, RsvpPolicyEnum } from './calendar-event.type';
import { createCalendarEventSchema, updateCalendarEventSchema } from './calendar-event.validation';

const realm = realmInputSchema.describe(
  'The realm (district, school, user, section or group) the calendar event belongs to.',
);
const types = { rsvp: RsvpPolicyEnum, type: CalendarEventTypeEnum, realm: RealmInput };

payloadMutation('createCalendarEvent', {
  description: 'Creates a calendar event in a realm the viewer may post in.',
  input: withMembers(createCalendarEventSchema, { realm }),
  inputDescription: 'A new calendar event, and the realm it belongs to.',
  types,
  payload: { calendarEvent: { model: 'CalendarEvent', description: 'The new event.' } },
  resolve: async (viewer, { realm, ...event }, select) => ({
    calendarEvent: await createCalendarEvent(viewer, realmRef(realm), event, select('calendarEvent')),
  }),
});
payloadMutation('updateCalendarEvent', {
  description: 'Changes a calendar event (not a due event, which changes with its assignment or discussion).',
  input: withMembers(updateCalendarEventSchema, { id: objectIdMember('The calendar event to change.'), realm }),
  inputDescription: 'The calendar event, its realm, and changes to it; members left out keep their values.',
  types,
  payload: { calendarEvent: { model: 'CalendarEvent', description: 'The event as changed.' } },
  resolve: async (viewer, { id, realm, ...changes }, select) => ({
    calendarEvent: await updateCalendarEvent(
      viewer,
      realmRef(realm),
      parseId(id, 'CalendarEvent'),
      changes,
      select('calendarEvent'),
    ),
  }),
});
payloadMutation('deleteCalendarEvent', {
  description: 'Deletes a calendar event (not a due event, which goes with its assignment or discussion).',
  input: withMembers(objectIdInput('The calendar event to delete.'), { realm }),
  inputDescription: 'The calendar event to delete, and its realm.',
  types,
  payload: { deletedCalendarEventId: { deleted: 'CalendarEvent', description: 'Global id of the deleted event.' } },
  resolve: async (viewer, { id, realm }) => ({
    deletedCalendarEventId: (await deleteCalendarEvent(viewer, realmRef(realm), parseId(id, 'CalendarEvent'))).id,
  }),
});

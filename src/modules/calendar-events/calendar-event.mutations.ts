import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { deleteMutation, objectMutation, ownerRealm, required } from '../../graphql/operations';
import { changesInput, inputFromSchema } from '../../graphql/inputs';
import { parseId, realmRef } from '../../graphql/realm';
import { createCalendarEvent, deleteCalendarEvent, updateCalendarEvent } from './calendar-event.service';
import { CalendarEventTypeEnum, RsvpPolicyEnum } from './calendar-event.type';
import { createCalendarEventSchema, updateCalendarEventSchema } from './calendar-event.validation';

const types = { rsvp: RsvpPolicyEnum, type: CalendarEventTypeEnum };
const CreateCalendarEventInput = inputFromSchema(
  'CreateCalendarEventInput',
  createCalendarEventSchema,
  'A new calendar event.',
  types,
);
const UpdateCalendarEventInput = changesInput(
  'UpdateCalendarEventInput',
  updateCalendarEventSchema,
  'a calendar event',
  types,
);

objectMutation('createCalendarEvent', {
  type: 'CalendarEvent',
  description: 'Creates a calendar event in a realm the viewer may post in.',
  errors: [ValidationError, NotFoundError, ConflictError],
  args: (arg) => ({
    realm: arg(ownerRealm('calendar event')),
    input: arg(required(CreateCalendarEventInput, 'The new calendar event.')),
  }),
  resolve: (viewer, args, query) => createCalendarEvent(viewer, realmRef(args.realm), args.input, query),
});
objectMutation('updateCalendarEvent', {
  type: 'CalendarEvent',
  description: 'Changes a calendar event (not a due event, which changes with its assignment or discussion).',
  errors: [ValidationError, NotFoundError, ConflictError],
  args: (arg) => ({
    realm: arg(ownerRealm('calendar event')),
    id: arg.id({ required: true, description: 'The calendar event to change.' }),
    input: arg(required(UpdateCalendarEventInput, 'What to change; members left out keep their values.')),
  }),
  resolve: (viewer, args, query) =>
    updateCalendarEvent(viewer, realmRef(args.realm), parseId(args.id, 'CalendarEvent'), args.input, query),
});
deleteMutation('deleteCalendarEvent', {
  description: 'Deletes a calendar event (not a due event, which goes with its assignment or discussion).',
  errors: [NotFoundError],
  args: (arg) => ({
    realm: arg(ownerRealm('calendar event')),
    id: arg.id({ required: true, description: 'The calendar event to delete.' }),
  }),
  resolve: (viewer, args) => deleteCalendarEvent(viewer, realmRef(args.realm), parseId(args.id, 'CalendarEvent')),
});

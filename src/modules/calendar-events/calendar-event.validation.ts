import { z } from 'zod';
import { clearable, createInput, htmlText, nodeId, requiredText, updateInput } from '../../core/validation';

/** `YYYY-MM-DD HH:MM:SS`, the platform's datetime; read in the district's time zone by the service. */
const wallClock = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}$/, 'must be a date and time as YYYY-MM-DD HH:MM:SS');

const eventFields = {
  title: requiredText(255),
  description: clearable(htmlText('CalendarEvent.description'), ''),
  start: wallClock,
  // Clients that send every member send an empty `end` with has_end 0.
  end: clearable(z.union([z.literal('').transform(() => null), wallClock]), null),
  hasEnd: z.boolean(),
  allDay: z.boolean(),
  rsvp: z.enum(['NOBODY', 'INVITED', 'ANYONE']),
  commentsEnabled: z.boolean(),
  // Due events come with their assignment or discussion; through this API only events of their own are written.
  type: z.literal('EVENT', 'must be event: assignment and discussion due events come with their assignment or discussion'),
  // Uploaded files; on an update, the list replaces the event's files.
  fileIds: z.array(nodeId('Upload').transform(Number)).max(20, 'must list at most 20 files'),
};

export const createCalendarEventSchema = createInput(eventFields, ['title', 'start']);
export const updateCalendarEventSchema = updateInput(eventFields);

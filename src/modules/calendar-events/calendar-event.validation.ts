import { z } from 'zod';
import { clearable, createInput, htmlText, nodeId, requiredText, updateInput } from '../../core/validation';

/**
 * `YYYY-MM-DD HH:MM:SS`, the platform's datetime, read in the district's time zone by the service; or an ISO 8601
 * instant with `Z` or an offset, as `start` and `end` read, so that what was read can be sent back. The message names
 * the wall-clock form, which /v1 clients send and its contract tests hold it to.
 */
const eventTime = z
  .string()
  .trim()
  .regex(
    /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2}))?$/,
    'must be a date and time as YYYY-MM-DD HH:MM:SS',
  );
const onTheWallClock =
  "either as `YYYY-MM-DD HH:MM:SS` on the wall clock of the district's time zone (what `localStart` and `localEnd` " +
  'read), or as an ISO 8601 instant with `Z` or a UTC offset, such as `2026-06-05T23:00:00.000Z` (what `start` and ' +
  '`end` read), which names the moment whatever the time zone';

const eventFields = {
  title: requiredText(255).describe('Title.'),
  description: clearable(htmlText('CalendarEvent.description'), '').describe(
    'Description, as HTML, sanitized on write (scripts, event handlers and javascript: links are removed).',
  ),
  start: eventTime.describe(`The start, ${onTheWallClock}.`),
  // Clients that send every member send an empty `end` with has_end 0.
  end: clearable(z.union([z.literal('').transform(() => null), eventTime]), null).describe(
    `The end, ${onTheWallClock}; required while \`hasEnd\` is true, and after the start.`,
  ),
  hasEnd: z.boolean().describe('Whether the event has an end (default false); `end` counts only while it does.'),
  allDay: z.boolean().describe('Whether the event takes whole days (default false).'),
  rsvp: z.enum(['NOBODY', 'INVITED', 'ANYONE']).describe('Who may RSVP (default NOBODY).'),
  commentsEnabled: z.boolean().describe('Whether users may discuss the event (default true).'),
  // Due events come with their assignment or discussion; through this API only events of their own are written.
  type: z
    .literal('EVENT', 'must be event: assignment and discussion due events come with their assignment or discussion')
    .describe('Only EVENT: assignment and discussion due events come with their assignment or discussion.'),
  fileIds: z
    .array(nodeId('Upload').transform(Number))
    .max(20, 'must list at most 20 files')
    .describe(
      "Uploaded files (the viewer's, not attached elsewhere) to attach; on an update the list replaces the event's files.",
    ),
};

export const createCalendarEventSchema = createInput(eventFields, ['title', 'start']);
export const updateCalendarEventSchema = updateInput(eventFields);

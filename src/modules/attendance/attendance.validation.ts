import { z } from 'zod';
import { readDay } from '../../core/date-text';
import { invalidArgument } from '../../core/errors';
import { idOfNamedType, nodeId, requiredInItem, storableText } from '../../core/validation';

/** A calendar day as `YYYY-MM-DD` (the platform's only form for attendance), as a UTC midnight for a `@db.Date` column. */
export function dayOf(text: string): Date | null {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text) ? readDay(text) : null;
  return day && new Date(Date.UTC(day.year, day.month - 1, day.day));
}

/** `YYYY-MM-DD` of a `@db.Date` value. */
export const dayText = (date: Date) => date.toISOString().slice(0, 10);

const day = z.string().transform((text, context) => {
  const date = dayOf(text);
  if (!date) context.addIssue({ code: 'custom', message: 'must be a date, YYYY-MM-DD' });
  return date ?? z.NEVER;
});

/**
 * One item of a bulk attendance write. Each item is validated on its own, so that one bad item (a bad date, a missing
 * status) fails alone with its own message while the others are written.
 */
const statusMessage = 'must be 1 (present), 2 (absent), 3 (late) or 4 (excused)';
export const attendanceItemSchema = z.strictObject({
  enrollmentId: nodeId('Enrollment').transform(Number).describe('A student enrollment of the section.'),
  date: day.describe('The day, YYYY-MM-DD.'),
  status: requiredInItem(
    z.enum(['PRESENT', 'ABSENT', 'LATE', 'EXCUSED'], { error: statusMessage }),
    statusMessage,
  ).describe('The status; an item without one fails alone (400).'),
  comment: storableText(1_000)
    .nullish()
    .transform((comment) => comment ?? '')
    .describe('A comment; none empties it.'),
});

/** What setAttendance takes: the section, and its records, each checked on its own by the service. */
export const attendanceWriteSchema = z.strictObject({
  sectionId: idOfNamedType.describe('The course section.'),
  records: z.array(attendanceItemSchema).describe('One record per enrollment and day; each succeeds or fails alone.'),
});

/** The most items one write takes: a section's roster for a school week, with room to spare. */
export const maxAttendanceItems = 1_000;

/**
 * The inclusive day range of a list: either end may be left out. A day nobody can read is a 400 naming the argument
 * (the REST facade names the query parameter the client sent).
 */
export function dayRange(startDate: string | null | undefined, endDate: string | null | undefined) {
  const read = (argument: 'startDate' | 'endDate', text: string | null | undefined) => {
    if (text === null || text === undefined || text === '') return undefined;
    const date = dayOf(text);
    if (!date) throw invalidArgument(argument, `'${text}' is not a date as YYYY-MM-DD`);
    return date;
  };
  const range = { gte: read('startDate', startDate), lte: read('endDate', endDate) };
  if (range.gte && range.lte && range.lte < range.gte) throw invalidArgument('endDate', 'must not be before startDate');
  return range;
}

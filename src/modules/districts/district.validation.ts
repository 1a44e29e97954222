import { z } from 'zod';
import { isTimeZone } from '../../core/date-text';
import { clearable, requiredText, text, updateInput } from '../../core/validation';

export const updateDistrictSchema = updateInput({
  title: requiredText(255).describe('Name of the district.'),
  timeZone: z
    .string()
    .refine(isTimeZone, 'must be an IANA time zone, such as America/Chicago')
    .describe('IANA time zone, such as America/Chicago: dates written as text are read in it.'),
  attendanceApp: clearable(
    text(255).transform((name) => name || null),
    null,
  ).describe(
    'Name of the third-party attendance app the district\'s courses use (attendance on /v1 is then 410 Gone); null or "" for none.',
  ),
  incompleteCountsAsZero: z
    .boolean()
    .describe('Whether an incomplete grade counts as zero (true) or is left out of period and final grades.'),
});

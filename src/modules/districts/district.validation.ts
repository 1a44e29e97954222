import { z } from 'zod';
import { isTimeZone } from '../../core/date-text';
import { clearable, requiredText, text, updateInput } from '../../core/validation';

export const updateDistrictSchema = updateInput({
  title: requiredText(255),
  timeZone: z.string().refine(isTimeZone, 'must be an IANA time zone, such as America/Chicago'),
  attendanceApp: clearable(text(255).transform((name) => name || null), null),
  incompleteCountsAsZero: z.boolean(),
});

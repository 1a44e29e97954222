import { z } from 'zod';
import { isTimeZone } from '../../core/date-text';
import { requiredText, updateInput } from '../../core/validation';

export const updateDistrictSchema = updateInput({
  title: requiredText(255),
  timeZone: z.string().refine(isTimeZone, 'must be an IANA time zone, such as America/Chicago'),
});

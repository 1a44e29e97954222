import { z } from 'zod';

const text = z.string().trim().max(255, 'must be at most 255 characters');

const schoolFields = z.object({
  title: text.min(1, 'is required'),
  address1: text,
  address2: text,
  city: text,
  state: text,
  postalCode: text,
  country: text,
  website: text,
  phone: text,
  fax: text,
  pictureUrl: z.string().trim().max(2048, 'must be at most 2048 characters'),
  buildingCode: text,
});

/** Schools and buildings take the same fields; `title` is required on create. */
export const createSchoolSchema = schoolFields.partial().required({ title: true });
export const updateSchoolSchema = schoolFields.partial();

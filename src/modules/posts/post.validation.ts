import { z } from 'zod';

const postFields = z.object({
  title: z.string().trim().min(1, 'is required').max(255, 'must be at most 255 characters'),
  // HTML; line breaks need a <br>, as on the platform.
  body: z.string().max(1_000_000, 'must be at most 1,000,000 characters'),
});

export const createPostSchema = postFields.partial().required({ title: true });
export const updatePostSchema = postFields.partial();

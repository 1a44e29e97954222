import { z } from 'zod';

/** A friend request: from the viewer to someone else. */
export const friendRequestSchema = z
  .object({ requesterId: z.int(), userId: z.int() })
  .refine((request) => request.userId !== request.requesterId, { path: ['userId'], message: 'is yourself' });

import { z } from 'zod';
import { idOfNamedType } from '../../core/validation';

/** A friend request: from the viewer to someone else. */
export const friendRequestSchema = z
  .object({ requesterId: z.int(), userId: z.int() })
  .refine((request) => request.userId !== request.requesterId, { path: ['userId'], message: 'is yourself' });

/** The input of sendFriendRequest: the user asked. */
export const sendFriendRequestSchema = z.strictObject({ userId: idOfNamedType.describe('The user to ask.') });

/** The input of answerFriendRequest: the request, the user asked (only they answer) and the answer. */
export const answerFriendRequestSchema = z.strictObject({
  userId: idOfNamedType.describe('The user asked: only they answer.'),
  id: idOfNamedType.describe('The friend request.'),
  action: z.enum(['ACCEPT', 'DENY']).describe('Accept or decline the request.'),
});

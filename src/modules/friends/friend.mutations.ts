import { payloadMutation } from '../../graphql/payloads';
import { parseId } from '../../graphql/realm';
import { readById } from '../../graphql/reads-by-id';
import type { User } from '../../generated/prisma/client';
import { RequestActionEnum } from '../invites/invite.type';
import { answerFriendRequest, sendFriendRequest } from './friend.service';
import { AnsweredFriendRequestType } from './friend.type';
import { answerFriendRequestSchema, sendFriendRequestSchema } from './friend.validation';

payloadMutation('sendFriendRequest', {
  description: 'Asks a user the viewer can see to be friends.',
  input: sendFriendRequestSchema,
  inputDescription: 'The user to ask.',
  payload: { friendRequest: { model: 'FriendRequest', description: 'The new friend request.' } },
  resolve: async (viewer, { userId }, select) => ({
    friendRequest: await sendFriendRequest(viewer, parseId(userId, 'User', 'userId'), select('friendRequest')),
  }),
});
payloadMutation('answerFriendRequest', {
  description: "Accepts (the two become friends) or denies one of the viewer's own pending friend requests.",
  input: answerFriendRequestSchema,
  inputDescription: 'The request, the user asked, and the answer.',
  types: { action: RequestActionEnum },
  payload: {
    answeredFriendRequest: { type: AnsweredFriendRequestType, description: 'The request and its answer.' },
    deletedFriendRequestId: {
      deleted: 'FriendRequest',
      description: 'Global id of the request, which answering removes from the pending ones.',
    },
    requester: { model: 'User', description: 'The user who asked; a friend now if the request was accepted.' },
  },
  resolve: async (viewer, input, select) => {
    const userId = parseId(input.userId, 'User', 'userId');
    const answered = await answerFriendRequest(viewer, userId, parseId(input.id, 'FriendRequest'), input.action);
    return {
      answeredFriendRequest: answered,
      deletedFriendRequestId: answered.id,
      requester: await readById<User>('User', select('requester'), answered.requesterId),
    };
  },
});

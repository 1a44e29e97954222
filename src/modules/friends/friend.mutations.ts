import { objectMutation, resultMutation } from '../../graphql/operations';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { parseId } from '../../graphql/realm';
import { RequestActionEnum } from '../invites/invite.type';
import { answerFriendRequest, sendFriendRequest } from './friend.service';
import { AnsweredFriendRequestType } from './friend.type';

objectMutation('sendFriendRequest', {
  type: 'FriendRequest',
  description: 'Asks a user the viewer can see to be friends.',
  errors: [ValidationError, NotFoundError, ConflictError],
  args: (arg) => ({ userId: arg.id({ required: true, description: 'The user to ask.' }) }),
  resolve: (viewer, args, query) => sendFriendRequest(viewer, parseId(args.userId, 'User', 'userId'), query),
});
resultMutation('answerFriendRequest', {
  type: AnsweredFriendRequestType,
  description: "Accepts (the two become friends) or denies one of the viewer's own pending friend requests.",
  errors: [NotFoundError],
  args: (arg) => ({
    userId: arg.id({ required: true, description: 'The user asked: only they answer.' }),
    id: arg.id({ required: true, description: 'Friend request id.' }),
    action: arg({ type: RequestActionEnum, required: true, description: 'Accept or decline the request.' }),
  }),
  resolve: (viewer, args) =>
    answerFriendRequest(viewer, parseId(args.userId, 'User', 'userId'), parseId(args.id, 'FriendRequest'), args.action),
});

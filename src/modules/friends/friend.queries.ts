import { builder } from '../../graphql/builder';
import { pageArgs } from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { createdAfterArgument } from '../districts/district.type';
import { pendingFriendRequests } from './friend.service';
import { FriendRequestPage } from './friend.type';

builder.queryFields((t) => ({
  friendRequests: t.withAuth({ authenticated: true }).field({
    type: FriendRequestPage,
    nullable: true,
    description:
      'Pending friend requests to a user, oldest first: the user\'s own, also readable by their district\'s ' +
      'administrators. Null when the user is hidden from the viewer.',
    args: {
      userId: t.arg.id({ required: true, description: 'The user asked.' }),
      createdAfter: t.arg.string(createdAfterArgument),
      ...pageArgs,
    },
    resolve: (_root, args, { viewer }) => pendingFriendRequests(viewer, parseId(args.userId, 'userId'), args.createdAfter, args),
  }),
}));

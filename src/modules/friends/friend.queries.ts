import { builder } from '../../graphql/builder';
import { pageArgs } from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { createdAfterArgument } from '../districts/district.type';
import { pendingFriendRequests } from './friend.service';
import { FriendRequestPage } from './friend.type';
import { registerNodeVisibility, visibleThrough } from '../../graphql/nodes';
import { friendRequestPolicy } from './friend.policy';
import { can } from '../../auth/policy';

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
    resolve: (_root, args, { viewer }) => pendingFriendRequests(viewer, parseId(args.userId, 'User', 'userId'), args.createdAfter, args),
  }),
}));

// As the list of what is addressed to a user: whoever may read that user's list.
registerNodeVisibility('FriendRequest', visibleThrough('FriendRequest', { select: { userId: true }, of: (row: { id: number; userId: number }) => row.userId }, (viewer, userId) => can(viewer, friendRequestPolicy, 'read', userId)));

import { builder } from '../../graphql/builder';
import { pageArgs } from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { db } from '../../db/database';
import { checkedTotalCount, connectionOptions, keysetWindow } from '../../graphql/connections';
import { createdAfterArgument } from '../districts/district.type';
import { pendingFriendRequests, pendingFriendRequestsWhere } from './friend.service';
import { FriendRequestPage } from './friend.type';
import { registerNodeVisibility, visibleThrough } from '../../graphql/nodes';
import { friendRequestPolicy } from './friend.policy';
import { can } from '../../auth/policy';

/** What selects the requests `friendRequests` and `friendRequestsConnection` list. */
const friendRequestListArgs = builder.args((t) => ({
  userId: t.id({ required: true, description: 'The user asked.' }),
  createdAfter: t.string(createdAfterArgument),
}));

type FriendRequestListArguments = { userId: string | number; createdAfter?: string | null };

builder.queryFields((t) => ({
  friendRequests: t.withAuth({ authenticated: true }).field({
    type: FriendRequestPage,
    nullable: true,
    description:
      "Pending friend requests to a user, oldest first: the user's own, also readable by their district's " +
      'administrators. Null when the user is hidden from the viewer.',
    args: { ...friendRequestListArgs, ...pageArgs },
    resolve: (_root, args, { viewer }) =>
      pendingFriendRequests(viewer, parseId(args.userId, 'User', 'userId'), args.createdAfter, args),
  }),
  friendRequestsConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'FriendRequest',
      ...connectionOptions,
      nullable: true,
      description:
        'The requests `friendRequests` lists, as a Relay connection in the same order; null when the user is hidden from the viewer.',
      args: friendRequestListArgs,
      resolve: async (query, _root, args, { viewer }) => {
        const selection = { ...query }; // consumed on the null path too (see findIfVisible)
        const where = await pendingFriendRequestsWhere(
          viewer,
          parseId(args.userId, 'User', 'userId'),
          args.createdAfter,
        );
        return where && db().friendRequest.findMany(keysetWindow(selection, where));
      },
    },
    checkedTotalCount(async (args: FriendRequestListArguments, { viewer }) =>
      db().friendRequest.count({
        where: (await pendingFriendRequestsWhere(viewer!, parseId(args.userId, 'User', 'userId'), args.createdAfter))!,
      }),
    ),
  ),
}));

// As the list of what is addressed to a user: whoever may read that user's list.
registerNodeVisibility(
  'FriendRequest',
  visibleThrough(
    'FriendRequest',
    { select: { userId: true }, of: (row: { id: number; userId: number }) => row.userId },
    (viewer, userId) => can(viewer, friendRequestPolicy, 'read', userId),
  ),
);

import { builder } from '../../graphql/builder';
import { pageArgs, offsetListBeside } from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { db } from '../../db/database';
import { connectionOf, connectionOptions, hiddenUnless, keysetWindow } from '../../graphql/connections';
import { createdAfterArgument, createdAfterTextArgument } from '../districts/district.type';
import { pendingFriendRequests, pendingFriendRequestsWhere } from './friend.service';
import { FriendRequestPage } from './friend.type';
import { registerNodeVisibility, visibleThrough } from '../../graphql/nodes';
import { friendRequestPolicy } from './friend.policy';
import { can } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';

/** What selects the requests `friendRequests` and `friendRequestsConnection` list. */
const friendRequestListArgs = builder.args((t) => ({
  userId: t.id({ required: true, description: 'The user asked.' }),
  createdAfter: t.field({ type: 'DateTime', ...createdAfterArgument }),
}));

type FriendRequestListArguments = { userId: string | number; createdAfter?: Date | null };

/** The pending requests a list's arguments select; null when the user is hidden from the viewer. */
const requestsWhere = (viewer: Viewer, args: FriendRequestListArguments) =>
  pendingFriendRequestsWhere(viewer, parseId(args.userId, 'User', 'userId'), args);

/** The `/v1` date text beside `createdAfter`, on the offset list only. */
const createdAfterTextArgs = builder.args((t) => ({ createdAfterText: t.string(createdAfterTextArgument) }));

builder.queryFields((t) => ({
  friendRequests: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('friendRequestsConnection'),
    type: FriendRequestPage,
    nullable: true,
    description:
      "Pending friend requests to a user, oldest first: the user's own, also readable by their district's " +
      'administrators. Null when the user is hidden from the viewer.',
    args: { ...friendRequestListArgs, ...createdAfterTextArgs, ...pageArgs },
    resolve: (_root, args, { viewer }) =>
      pendingFriendRequests(viewer, parseId(args.userId, 'User', 'userId'), args, args),
  }),
  friendRequestsConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'FriendRequest',
      ...connectionOptions,
      ...hiddenUnless(
        async (args: FriendRequestListArguments, { viewer }) => (await requestsWhere(viewer, args)) !== null,
      ),
      description:
        'The requests `friendRequests` lists, as a Relay connection in the same order; null when the user is hidden from the viewer.',
      args: friendRequestListArgs,
      resolve: async (query, _root, args, { viewer }) =>
        db().friendRequest.findMany(keysetWindow(query, (await requestsWhere(viewer, args))!)),
      totalCount: async (_root, args, { viewer }) =>
        db().friendRequest.count({ where: (await requestsWhere(viewer, args))! }),
    },
    connectionOf('FriendRequest'),
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

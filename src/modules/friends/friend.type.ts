import { encodeGlobalId } from '../../core/global-id';
import { builder } from '../../graphql/builder';
import { userReference } from '../../graphql/references';
import { UserPage, UserType } from '../users/user.type';
import { exposeColumns, exposeDatabaseId, nodeId } from '../../graphql/columns';
import { pageArgs, pageOf, paged, offsetListBeside } from '../../graphql/paging';
import { RequestActionEnum } from '../invites/invite.type';
import { db } from '../../db/database';
import { connectionOf, connectionOptions, keysetWindow } from '../../graphql/connections';
import { friendsOf, friendsWhere } from './friend.service';

builder.prismaNode('FriendRequest', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'FriendRequest', ['createdAt']),
    requester: t.relation('requester'),
    user: t.relation('user'),
  }),
});

export const FriendRequestPage = pageOf('FriendRequest', 'A page of pending friend requests.');

builder.prismaObjectField('User', 'friends', (t) =>
  t.field({
    ...offsetListBeside('friendsConnection'),
    type: UserPage,
    description: "The user's friends whom the viewer may see, in the order of their ids.",
    args: pageArgs,
    select: { id: true },
    resolve: (user, args, { viewer }) => paged(args, friendsOf(viewer, user.id)),
  }),
);

builder.prismaObjectField('User', 'friendsConnection', (t) =>
  t.prismaConnection(
    {
      type: 'User',
      ...connectionOptions,
      description: 'The friends `friends` lists, as a Relay connection in the same order.',
      resolve: (query, user, _args, { viewer }) =>
        db().user.findMany(keysetWindow(query, friendsWhere(viewer, user.id))),
      totalCount: (user, _args, { viewer }) => db().user.count({ where: friendsWhere(viewer, user.id) }),
    },
    connectionOf('User'),
  ),
);

/** What answering a friend request did; the request itself is gone. */
export const AnsweredFriendRequestType = builder
  .objectRef<{ id: number; action: 'ACCEPT' | 'DENY'; requesterId: number }>('AnsweredFriendRequest')
  .implement({
    description:
      'A friend request that was accepted (the two are friends) or denied. Answered requests are no longer listed.',
    fields: (t) => ({
      id: t.id({
        description: 'Global id of the request.',
        resolve: (request) => encodeGlobalId('FriendRequest', request.id),
      }),
      action: t.expose('action', { type: RequestActionEnum, description: 'The answer.' }),
      requesterId: t.id({
        description: 'Global id of the user who asked; `requester` is the user.',
        resolve: (request) => encodeGlobalId('User', request.requesterId),
      }),
      requester: t.field({
        type: UserType,
        nullable: true,
        description: 'The user who asked (`requesterId`); null when the viewer may not see them.',
        resolve: (request, _args, context) => userReference(request.requesterId, context),
      }),
    }),
  });

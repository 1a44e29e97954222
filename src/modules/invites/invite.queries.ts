import { builder } from '../../graphql/builder';
import { pageArgs } from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { db } from '../../db/database';
import { checkedTotalCount, connectionOptions, keysetWindow } from '../../graphql/connections';
import { createdAfterArgument } from '../districts/district.type';
import { pendingInvites, pendingInvitesWhere } from './invite.service';
import { InvitePage, InviteRealmEnum } from './invite.type';
import { registerNodeVisibility, visibleThrough } from '../../graphql/nodes';
import { invitePolicy } from './invite.policy';
import { can } from '../../auth/policy';

/** What selects the invites `invites` and `invitesConnection` list. */
const inviteListArgs = builder.args((t) => ({
  userId: t.id({ required: true, description: 'The invited user.' }),
  realm: t.field({ type: InviteRealmEnum, required: true, description: 'Invites to groups, or to course sections.' }),
  createdAfter: t.string(createdAfterArgument),
}));

type InviteListArguments = { userId: string | number; realm: 'GROUP' | 'SECTION'; createdAfter?: string | null };

builder.queryFields((t) => ({
  invites: t.withAuth({ authenticated: true }).field({
    type: InvitePage,
    nullable: true,
    description:
      "Pending invites of a user to groups or to course sections, oldest first: the user's own, also readable by " +
      "their district's administrators. Null when the user is hidden from the viewer.",
    args: { ...inviteListArgs, ...pageArgs },
    resolve: (_root, args, { viewer }) =>
      pendingInvites(viewer, parseId(args.userId, 'User', 'userId'), args.realm, args.createdAfter, args),
  }),
  invitesConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'Invite',
      ...connectionOptions,
      nullable: true,
      description:
        'The invites `invites` lists, as a Relay connection in the same order; null when the user is hidden from the viewer.',
      args: inviteListArgs,
      resolve: async (query, _root, args, { viewer }) => {
        const selection = { ...query }; // consumed on the null path too (see findIfVisible)
        const where = await pendingInvitesWhere(
          viewer,
          parseId(args.userId, 'User', 'userId'),
          args.realm,
          args.createdAfter,
        );
        return where && db().invite.findMany(keysetWindow(selection, where));
      },
    },
    checkedTotalCount(async (args: InviteListArguments, { viewer }) =>
      db().invite.count({
        where: (await pendingInvitesWhere(
          viewer!,
          parseId(args.userId, 'User', 'userId'),
          args.realm,
          args.createdAfter,
        ))!,
      }),
    ),
  ),
}));

// As the list of what is addressed to a user: whoever may read that user's list.
registerNodeVisibility(
  'Invite',
  visibleThrough(
    'Invite',
    { select: { userId: true }, of: (row: { id: number; userId: number }) => row.userId },
    (viewer, userId) => can(viewer, invitePolicy, 'read', userId),
  ),
);

import { builder } from '../../graphql/builder';
import { pageArgs, offsetListBeside } from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { db } from '../../db/database';
import { connectionOf, connectionOptions, keysetWindow, hiddenUnless } from '../../graphql/connections';
import { createdAfterArgument, createdAfterTextArgument } from '../districts/district.type';
import { pendingInvites, pendingInvitesWhere } from './invite.service';
import { InvitePage, InviteRealmEnum } from './invite.type';
import { registerNodeVisibility, visibleThrough } from '../../graphql/nodes';
import { invitePolicy } from './invite.policy';
import { can } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';

/** What selects the invites `invites` and `invitesConnection` list. */
const inviteListArgs = builder.args((t) => ({
  userId: t.id({ required: true, description: 'The invited user.' }),
  realm: t.field({ type: InviteRealmEnum, required: true, description: 'Invites to groups, or to course sections.' }),
  createdAfter: t.field({ type: 'DateTime', ...createdAfterArgument }),
}));

type InviteListArguments = { userId: string | number; realm: 'GROUP' | 'SECTION'; createdAfter?: Date | null };

/** The pending invites a list's arguments select; null when the user is hidden from the viewer. */
const invitesWhere = (viewer: Viewer, args: InviteListArguments) =>
  pendingInvitesWhere(viewer, parseId(args.userId, 'User', 'userId'), args.realm, args);

/** The `/v1` date text beside `createdAfter`, on the offset list only. */
const createdAfterTextArgs = builder.args((t) => ({ createdAfterText: t.string(createdAfterTextArgument) }));

builder.queryFields((t) => ({
  invites: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('invitesConnection'),
    type: InvitePage,
    nullable: true,
    description:
      "Pending invites of a user to groups or to course sections, oldest first: the user's own, also readable by " +
      "their district's administrators. Null when the user is hidden from the viewer.",
    args: { ...inviteListArgs, ...createdAfterTextArgs, ...pageArgs },
    resolve: (_root, args, { viewer }) =>
      pendingInvites(viewer, parseId(args.userId, 'User', 'userId'), args.realm, args, args),
  }),
  invitesConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'Invite',
      ...connectionOptions,
      ...hiddenUnless(async (args: InviteListArguments, { viewer }) => (await invitesWhere(viewer, args)) !== null),
      description:
        'The invites `invites` lists, as a Relay connection in the same order; null when the user is hidden from the viewer.',
      args: inviteListArgs,
      resolve: async (query, _root, args, { viewer }) =>
        db().invite.findMany(keysetWindow(query, (await invitesWhere(viewer, args))!)),
      totalCount: async (_root, args, { viewer }) => db().invite.count({ where: (await invitesWhere(viewer, args))! }),
    },
    connectionOf('Invite'),
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

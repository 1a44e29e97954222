import { builder } from '../../graphql/builder';
import { pageArgs } from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { createdAfterArgument } from '../districts/district.type';
import { pendingInvites } from './invite.service';
import { InvitePage, InviteRealmEnum } from './invite.type';
import { registerNodeVisibility, visibleThrough } from '../../graphql/nodes';
import { invitePolicy } from './invite.policy';
import { can } from '../../auth/policy';

builder.queryFields((t) => ({
  invites: t.withAuth({ authenticated: true }).field({
    type: InvitePage,
    nullable: true,
    description:
      'Pending invites of a user to groups or to course sections, oldest first: the user\'s own, also readable by ' +
      'their district\'s administrators. Null when the user is hidden from the viewer.',
    args: {
      userId: t.arg.id({ required: true, description: 'The invited user.' }),
      realm: t.arg({ type: InviteRealmEnum, required: true, description: 'Invites to groups, or to course sections.' }),
      createdAfter: t.arg.string(createdAfterArgument),
      ...pageArgs,
    },
    resolve: (_root, args, { viewer }) => pendingInvites(viewer, parseId(args.userId, 'User', 'userId'), args.realm, args.createdAfter, args),
  }),
}));

// As the list of what is addressed to a user: whoever may read that user's list.
registerNodeVisibility('Invite', visibleThrough('Invite', { select: { userId: true }, of: (row: { id: number; userId: number }) => row.userId }, (viewer, userId) => can(viewer, invitePolicy, 'read', userId)));

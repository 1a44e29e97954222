import { objectMutation, required, resultMutation } from '../../graphql/operations';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { RealmInput, parseId, realmRef } from '../../graphql/realm';
import { answerInvite, createInvite } from './invite.service';
import { AnsweredInviteType, InviteRealmEnum, RequestActionEnum } from './invite.type';

objectMutation('createInvite', {
  type: 'Invite',
  description: 'Invites a user the viewer can see to join a group or course section the viewer administers.',
  errors: [ValidationError, NotFoundError, ConflictError],
  args: (arg) => ({
    realm: arg(required(RealmInput, 'The group or course section to invite the user to.')),
    userId: arg.id({ required: true, description: 'The user to invite.' }),
  }),
  resolve: (viewer, args, query) =>
    createInvite(viewer, realmRef(args.realm), parseId(args.userId, 'User', 'userId'), query),
});
resultMutation('answerInvite', {
  type: AnsweredInviteType,
  description: "Accepts (joining the group or section) or denies one of the viewer's own pending invites.",
  errors: [NotFoundError],
  args: (arg) => ({
    userId: arg.id({ required: true, description: 'The invited user: only they answer.' }),
    realm: arg({
      type: InviteRealmEnum,
      required: true,
      description: 'Whether the invite is to a group or a course section.',
    }),
    id: arg.id({ required: true, description: 'Invite id.' }),
    action: arg({ type: RequestActionEnum, required: true, description: 'Accept (join) or decline the invite.' }),
  }),
  resolve: (viewer, args) =>
    answerInvite(viewer, parseId(args.userId, 'User', 'userId'), args.realm, parseId(args.id, 'Invite'), args.action),
});

import type { Group, Section } from '../../generated/prisma/client';
import { payloadMutation } from '../../graphql/payloads';
import { RealmInput, parseId, realmRef } from '../../graphql/realm';
import { readById } from '../../graphql/reads-by-id';
import { answerInvite, createInvite } from './invite.service';
import { AnsweredInviteType, InviteRealmEnum, RequestActionEnum } from './invite.type';
import { answerInviteSchema, createInviteSchema } from './invite.validation';

payloadMutation('createInvite', {
  description: 'Invites a user the viewer can see to join a group or course section the viewer administers.',
  input: createInviteSchema,
  inputDescription: 'The group or course section, and the user to invite.',
  types: { realm: RealmInput },
  payload: { invite: { model: 'Invite', description: 'The new invite.' } },
  resolve: async (viewer, { realm, userId }, select) => ({
    invite: await createInvite(viewer, realmRef(realm), parseId(userId, 'User', 'userId'), select('invite')),
  }),
});
payloadMutation('answerInvite', {
  description: "Accepts (joining the group or section) or denies one of the viewer's own pending invites.",
  input: answerInviteSchema,
  inputDescription: 'The invite, the user invited, and the answer.',
  types: { realm: InviteRealmEnum, action: RequestActionEnum },
  payload: {
    answeredInvite: { type: AnsweredInviteType, description: 'The invite and its answer.' },
    deletedInviteId: { deleted: 'Invite', description: 'Global id of the invite, which answering removes.' },
    group: { model: 'Group', description: 'The group the invite was to, with its members as they now are.' },
    section: { model: 'Section', description: 'The section the invite was to, with its enrollments as they now are.' },
  },
  resolve: async (viewer, input, select) => {
    const userId = parseId(input.userId, 'User', 'userId');
    const answered = await answerInvite(viewer, userId, input.realm, parseId(input.id, 'Invite'), input.action);
    const toGroup = answered.realm === 'GROUP';
    return {
      answeredInvite: answered,
      deletedInviteId: answered.id,
      group: toGroup ? await readById<Group>('Group', select('group'), answered.realmId) : null,
      section: toGroup ? null : await readById<Section>('Section', select('section'), answered.realmId),
    };
  },
});

import { z } from 'zod';
import { idOfNamedType } from '../../core/validation';
import { realmInputSchema } from '../../graphql/realm';

/** An invite's realm: invites are to groups and course sections. */
export const inviteSchema = z.object({
  realm: z.object({
    type: z.enum(['GROUP', 'SECTION'], {
      error: 'must be GROUP or SECTION: invites are to groups and course sections',
    }),
  }),
});

/** The input of createInvite: the group or section, and the user invited. */
export const createInviteSchema = z.strictObject({
  realm: realmInputSchema.describe('The group or course section to invite the user to.'),
  userId: idOfNamedType.describe('The user to invite.'),
});

/** The input of answerInvite: the invite, the user invited (only they answer) and the answer. */
export const answerInviteSchema = z.strictObject({
  userId: idOfNamedType.describe('The invited user: only they answer.'),
  realm: z.enum(['GROUP', 'SECTION']).describe('Whether the invite is to a group or a course section.'),
  id: idOfNamedType.describe('The invite.'),
  action: z.enum(['ACCEPT', 'DENY']).describe('Accept (join) or decline the invite.'),
});

import { db } from '../../db/database';
import { payloadMutation } from '../../graphql/payloads';
import { parseId } from '../../graphql/realm';
import { changePassword, createSignInLink, signInLinkPath } from './sign-in-link.service';
import { SignInLinkType } from './sign-in-link.type';
import { changePasswordSchema, createSignInLinkSchema } from './sign-in-link.validation';

payloadMutation('createSignInLink', {
  description:
    "Makes a one-time link for a user to choose their password with (their school's and district's administrators, " +
    'as for updateUser). Opening it sets the password and signs the user in; it works once and expires.',
  input: createSignInLinkSchema,
  inputDescription: 'The user the link is for.',
  payload: { signInLink: { type: SignInLinkType, description: 'The link, shown only here.' } },
  resolve: async (viewer, { userId }, _select, { origin }) => {
    const { token, expiresAt } = await createSignInLink(viewer, parseId(userId, 'User', 'userId'));
    return { signInLink: { url: `${origin}${signInLinkPath(token)}`, expiresAt } };
  },
});

payloadMutation('changePassword', {
  description:
    "Changes the viewer's password, given the current one; the viewer's browser sessions end. Reports WRONG_PASSWORD, " +
    'WEAK_PASSWORD or NO_PASSWORD in userErrors.',
  input: changePasswordSchema,
  inputDescription: "The viewer's current password and the new one.",
  payload: { user: { model: 'User', description: 'The viewer.' } },
  resolve: async (viewer, input, select) => {
    const { id } = await changePassword(viewer, input);
    return { user: await db().user.findUniqueOrThrow({ ...select('user'), where: { id } }) };
  },
});

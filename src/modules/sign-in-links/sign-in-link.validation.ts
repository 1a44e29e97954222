import { z } from 'zod';
import { objectIdMember } from '../../graphql/inputs';

// Long enough for any passphrase and for passwordLength.max characters of four bytes; argon2's work does not grow
// with the length, but nobody needs a megabyte.
const passwordText = z.string().max(1024);

export const createSignInLinkSchema = z.strictObject({
  userId: objectIdMember('The user who will choose a password with the link.'),
});

export const changePasswordSchema = z.strictObject({
  currentPassword: passwordText.describe("The viewer's password now."),
  newPassword: passwordText.describe('The password to sign in with from now on (docs/sign-in.md#passwords).'),
});

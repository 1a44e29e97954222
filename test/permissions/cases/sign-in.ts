import { db } from '../../../src/db/database';
import { hashPassword } from '../../../src/signin/password';
import { createUser } from '../../support/factories';
import { outcome, permissionCases } from '../../support/permissions';

const current = 'the current passphrase';

// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
// A sign-in link is made by whoever may change the user (updateUser's rule); a password is changed by its owner only,
// which the mutation's lack of a user argument says.
export default permissionCases('sign-in', async () => ({ currentHash: await hashPassword(current) }), [
  {
    graphql: `mutation($input: CreateSignInLinkInput!) { createSignInLink(input: $input) { ${outcome} } }`,
    name: "for a student of the cast's school",
    expect: 'h h f f f o o',
    variables: async (f) => ({ input: { userId: String((await createUser(f.school.id, 'STUDENT')).id) } }),
  },
  {
    graphql: `mutation($input: ChangePasswordInput!) { changePassword(input: $input) { ${outcome} } }`,
    name: "of the viewer's own",
    expect: 'o o o o o o o',
    variables: async (f, caller) => {
      await db().user.update({ where: { id: caller.user.id }, data: { passwordHash: f.currentHash } });
      return { input: { currentPassword: current, newPassword: 'a brand new passphrase' } };
    },
  },
]);

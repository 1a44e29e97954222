import { definePolicy, forbid, realmVerdict } from '../../auth/policy';
import type { Verdict } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';

/**
 * Users manage their own credentials, and whoever administers their user realm manages theirs too (not a school
 * administrator for a district administrator, whose credentials would lend district powers: see user.policy.ts).
 */
async function managesCredentialsOf(viewer: Viewer, userId: number): Promise<Verdict> {
  const verdict = await realmVerdict(viewer, { type: 'USER', id: userId }, 'administer');
  return typeof verdict === 'object' ? forbid('You may not manage this user\'s credentials') : verdict;
}

export const credentialPolicy = definePolicy('User', {
  issue: managesCredentialsOf,
  revoke: managesCredentialsOf,
});

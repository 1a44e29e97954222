import { definePolicy, forbid, realmVerdict } from '../../auth/policy';
import type { Verdict } from '../../auth/policy';
import { accessTo } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { db } from '../../db/database';
import type { Role } from '../../generated/prisma/enums';

/** Whose credentials a school administrator manages: their school's teachers, students and parents. */
const managedBySchoolAdmins: readonly Role[] = ['TEACHER', 'STUDENT', 'PARENT'];

/**
 * Users manage their own credentials and district administrators those of their district's users. A school
 * administrator administers the user realms of their school, but manages credentials only for the roles above: an
 * administrator's credentials would lend that administrator's powers.
 */
async function managesCredentialsOf(viewer: Viewer, userId: number): Promise<Verdict> {
  const realm = { type: 'USER' as const, id: userId };
  const verdict = await realmVerdict(viewer, realm, 'administer');
  if (verdict === 'hide') return verdict;
  const refused = forbid("You may not manage this user's credentials");
  if (verdict !== 'allow') return refused;
  const { facts } = (await accessTo(viewer, realm))!;
  if (viewer.id === userId || viewer.isDistrictAdmin(facts.districtId)) return 'allow';
  const target = await viewer.memo(`user-role:${userId}`, () =>
    db().user.findUnique({ where: { id: userId }, select: { role: true } }),
  );
  return target && managedBySchoolAdmins.includes(target.role) ? 'allow' : refused;
}

export const credentialPolicy = definePolicy('User', {
  /** A user's API clients and tokens are listed and seen by that user only; anyone else's are not known to exist. */
  read: (viewer: Viewer, userId: number) => (userId === viewer.id ? 'allow' : 'hide'),
  issue: managesCredentialsOf,
  revoke: managesCredentialsOf,
});

/** The credentials the viewer reads: their own (the SQL twin of `read`). */
export const ownCredentialsWhere = (viewer: Viewer) => ({ userId: viewer.id });

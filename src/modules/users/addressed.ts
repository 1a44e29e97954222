import { type Policy, type Verdict, verdictOf } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';
import { forbidden } from '../../core/errors';
import { readDateForUser } from '../districts/district.service';

type ReadPolicy = Policy<{ read: (viewer: Viewer, userId: number) => Verdict | Promise<Verdict> }>;

/**
 * The filter of a list of what is addressed to a user (invites, friend requests), as the viewer may read it: null when
 * the user is hidden, a 403 when the list is not the viewer's to read; `createdAfter` is read in the user's district
 * time zone.
 */
export async function addressedListWhere(
  viewer: Viewer,
  policy: ReadPolicy,
  userId: number,
  createdAfter: string | null | undefined,
) {
  const verdict = await verdictOf(viewer, policy, 'read', userId);
  if (verdict === 'hide') return null;
  if (verdict !== 'allow') throw forbidden(verdict.forbid);
  const after = createdAfter ? await readDateForUser(userId, createdAfter, 'createdAfter') : null;
  return { userId, ...(after ? { createdAt: { gt: after } } : {}) };
}

import { type Policy, type Verdict, verdictOf } from '../../auth/policy';
import type { Viewer } from '../../auth/viewer';
import { forbidden, invalidArgument } from '../../core/errors';
import { readDateForUser } from '../districts/district.service';

type ReadPolicy = Policy<{ read: (viewer: Viewer, userId: number) => Verdict | Promise<Verdict> }>;

/** Where a list of what is addressed to a user starts: an instant, or the date text `/v1` sends (`created_offset`). */
export interface CreatedAfter {
  createdAfter?: Date | null;
  createdAfterText?: string | null;
}

/**
 * The filter of a list of what is addressed to a user (invites, friend requests), as the viewer may read it: null when
 * the user is hidden, a 403 when the list is not the viewer's to read; `createdAfterText` is read in the user's
 * district time zone.
 */
export async function addressedListWhere(
  viewer: Viewer,
  policy: ReadPolicy,
  userId: number,
  { createdAfter, createdAfterText }: CreatedAfter,
) {
  const verdict = await verdictOf(viewer, policy, 'read', userId);
  if (verdict === 'hide') return null;
  if (verdict !== 'allow') throw forbidden(verdict.forbid);
  if (createdAfter && createdAfterText)
    throw invalidArgument('createdAfterText', 'give createdAfter or createdAfterText, not both');
  const after = createdAfterText
    ? await readDateForUser(userId, createdAfterText, 'createdAfterText')
    : (createdAfter ?? null);
  return { userId, ...(after ? { createdAt: { gt: after } } : {}) };
}

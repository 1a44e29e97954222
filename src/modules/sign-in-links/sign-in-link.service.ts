import { authorize } from '../../auth/policy';
import { findByStorableId } from '../../auth/realms';
import { hashToken, randomToken } from '../../auth/secrets';
import type { Viewer } from '../../auth/viewer';
import { NotFoundError, ValidationError } from '../../core/errors';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { accountFailureKey, assertAccountNotBlocked, recordWrongPassword } from '../../signin/account-failures';
import { hashPassword, passwordProblem, verifyPassword } from '../../signin/password';
import { userPolicy } from '../users/user.policy';
import { changePasswordSchema } from './sign-in-link.validation';

let linkLifetimeMs = 72 * 3_600_000;

/** Set once by the app (useSignInPages) from SIGN_IN_LINK_LIFETIME. */
export function configureSignInLinks(settings: { lifetimeMs: number }): void {
  linkLifetimeMs = settings.lifetimeMs;
}

/** The path of a link's page; the token in it is the only credential its holder has. */
export const signInLinkPath = (token: string) => `/sign-in/link/${token}`;

/**
 * A one-time link for `userId` to choose a password with, for whoever may change that user (their school's and
 * district's administrators). Its token is answered once; only its hash is kept. Links made before stay valid until
 * used or expired, so an administrator who hands out a second link need not know about the first.
 */
export async function createSignInLink(viewer: Viewer, userId: number) {
  await authorize(viewer, userPolicy, 'update', { id: userId }, userId);
  const user = await findByStorableId(userId, (id) =>
    db().user.findUnique({ where: { id }, select: { id: true, deactivatedAt: true } }),
  );
  if (!user) throw new NotFoundError('User', userId);
  if (user.deactivatedAt)
    throw new ValidationError([
      { field: 'userId', message: 'The user is inactive: reactivate them before they sign in again' },
    ]);
  const token = randomToken();
  const expiresAt = new Date(Date.now() + linkLifetimeMs);
  await db().signInLink.create({ data: { userId: user.id, tokenHash: hashToken(token), expiresAt } });
  return { token, expiresAt };
}

/** What a link's token opens: the person choosing a password, or why it opens nothing. */
export type LinkOpening =
  | { state: 'open'; linkId: number; user: { id: number; username: string; email: string; name: string } }
  | { state: 'unknown' }
  | { state: 'gone' };

export async function openSignInLink(token: string, now = new Date()): Promise<LinkOpening> {
  const link = await db().signInLink.findUnique({
    where: { tokenHash: hashToken(token) },
    select: {
      id: true,
      expiresAt: true,
      usedAt: true,
      user: { select: { id: true, username: true, email: true, nameFirst: true, nameLast: true, deactivatedAt: true } },
    },
  });
  if (!link) return { state: 'unknown' };
  // An inactive user's link is as good as expired: reactivation does not bring it back to life.
  if (link.usedAt || link.expiresAt <= now || link.user.deactivatedAt) return { state: 'gone' };
  const { user } = link;
  return {
    state: 'open',
    linkId: link.id,
    user: { id: user.id, username: user.username, email: user.email, name: `${user.nameFirst} ${user.nameLast}` },
  };
}

/**
 * Sets the password of an open link's user and uses the link up, in one transaction that claims the link only while
 * it is still unused and unexpired (two tabs submitting at once set one password). Every session the user had ends:
 * whoever held one signed in with the old password. False when the link was used or expired meanwhile.
 */
export async function useSignInLink(linkId: number, userId: number, password: string): Promise<boolean> {
  const passwordHash = await hashPassword(password);
  return db().$transaction(async (tx) => {
    const now = new Date();
    const claimed = await tx.signInLink.updateMany({
      where: { id: linkId, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (claimed.count !== 1) return false;
    await tx.user.update({ where: { id: userId }, data: { passwordHash } });
    await tx.session.deleteMany({ where: { userId } });
    return true;
  });
}

/**
 * Changes the viewer's password. The current one must be given (a stolen token alone does not take the account over),
 * and wrong ones count against the account as on the sign-in page (a 429 past the limit); the viewer's sessions end,
 * so a browser signed in by someone who knew the old password is signed out.
 */
export async function changePassword(viewer: Viewer, input: unknown) {
  const { currentPassword, newPassword } = validate(changePasswordSchema, input);
  await assertAccountNotBlocked(accountFailureKey(viewer.id));
  const user = await db().user.findUniqueOrThrow({
    where: { id: viewer.id },
    select: { id: true, username: true, email: true, passwordHash: true },
  });
  // Checked even without a hash, so the answer takes as long either way.
  const matches = await verifyPassword(user.passwordHash, currentPassword);
  if (!user.passwordHash)
    throw new ValidationError([
      {
        field: 'currentPassword',
        code: 'NO_PASSWORD',
        message: 'You have no password yet: ask an administrator for a sign-in link',
      },
    ]);
  if (!matches) {
    await recordWrongPassword(accountFailureKey(user.id));
    throw new ValidationError([
      { field: 'currentPassword', code: 'WRONG_PASSWORD', message: 'The current password is wrong' },
    ]);
  }
  const problem = passwordProblem(newPassword, user);
  if (problem) throw new ValidationError([{ field: 'newPassword', code: 'WEAK_PASSWORD', message: problem }]);
  const passwordHash = await hashPassword(newPassword);
  await db().$transaction([
    db().user.update({ where: { id: user.id }, data: { passwordHash } }),
    db().session.deleteMany({ where: { userId: user.id } }),
  ]);
  return { id: user.id };
}
